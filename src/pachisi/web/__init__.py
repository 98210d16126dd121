"""The web game: ``pachisi serve``, an authoritative game server for the browser client.

The server is an ASGI app (:func:`pachisi.web.app.create_app`, FastAPI) with a REST API for
the lobby and game records and one WebSocket per game; docs/web.md is its contract with the
client in ``static/``. The game rules all come from :mod:`pachisi.rules`; this package adds
seats, versions, storage and transport around them:

- :mod:`~pachisi.web.schema` and :mod:`~pachisi.web.storage`: the tables and the database
  (SQLite or PostgreSQL, SQLAlchemy Core) with its migrations;
- :mod:`~pachisi.web.writer`: the one writer that commits moves in groups;
- :mod:`~pachisi.web.lobby`: a new game's ruleset and seats, checked;
- :mod:`~pachisi.web.service`: the games' rooms (:mod:`~pachisi.web.room`), each
  serialising its commands, invitations, and catching up with other servers' moves;
- :mod:`~pachisi.web.computers`: the computer seats under leases, the hints, the chores;
  :mod:`~pachisi.web.thinking`: their worker processes with a hard time limit;
  :mod:`~pachisi.web.listener`: PostgreSQL's ``LISTEN`` for other servers' changes;
- :mod:`~pachisi.web.history`: the replay steps, cached and paged;
- :mod:`~pachisi.web.api` and :mod:`~pachisi.web.sockets`: the REST routes and the
  WebSocket; :mod:`~pachisi.web.limits`, :mod:`~pachisi.web.security`: the limits, headers
  and origins; :mod:`~pachisi.web.settings` and :mod:`~pachisi.web.options`: the
  operator's settings and their flags;
- :mod:`~pachisi.web.records`: game records, replay steps, rooms rebuilt from storage;
- :mod:`~pachisi.web.tokens`: the secret tokens that hold seats;
- :mod:`~pachisi.web.protocol`: the client's messages, parsed and checked;
- :mod:`~pachisi.web.views`: the JSON the client is sent;
- :mod:`~pachisi.web.server`: running the app on uvicorn for ``pachisi serve``.
"""
