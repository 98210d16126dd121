"""The web game: ``pachisi serve``, an authoritative game server for the browser client.

The server is an ASGI app (:func:`pachisi.web.app.create_app`, FastAPI) with a REST API for
the lobby and game records and one WebSocket per game; docs/web.md is its contract with the
client in ``static/``. The game rules all come from :mod:`pachisi.rules`; this package adds
seats, versions, storage and transport around them:

- :mod:`~pachisi.web.storage`: the database (SQLite or PostgreSQL, SQLAlchemy Core) and its
  migrations;
- :mod:`~pachisi.web.writer`: the one writer that commits moves in groups;
- :mod:`~pachisi.web.lobby`: a new game's ruleset and seats, checked;
- :mod:`~pachisi.web.service`: the games' rooms (:mod:`~pachisi.web.room`), each
  serialising its commands, and the computer seats;
- :mod:`~pachisi.web.records`: game records, replay steps, rooms rebuilt from storage;
- :mod:`~pachisi.web.tokens`: the secret tokens that hold seats;
- :mod:`~pachisi.web.protocol`: the client's messages, parsed and checked;
- :mod:`~pachisi.web.views`: the JSON the client is sent;
- :mod:`~pachisi.web.server`: running the app on uvicorn for ``pachisi serve``.
"""
