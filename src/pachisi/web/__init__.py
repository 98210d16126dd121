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

The names below are the package's public API, for running the game inside another program:
the app (:func:`create_app`), the operator's :class:`Settings`, the server
(:func:`serve`) and the database (:func:`open_storage`). Each is loaded from its module on
first use, so that ``pachisi --help`` (whose parser names ``serve``) loads none of them.
"""

from pachisi._lazy import lazy_exports

# Not typing.TYPE_CHECKING: importing typing alone would cost the command's start-up more
# than the rest of this module; type checkers take any TYPE_CHECKING for true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pachisi.web.app import LANGUAGES, create_app
    from pachisi.web.server import ServeError, serve
    from pachisi.web.settings import LEVEL_NAMES, Network, Settings, parse_networks
    from pachisi.web.storage import Storage, StorageError, default_database_url, open_storage

__all__ = [
    "LANGUAGES",
    "LEVEL_NAMES",
    "Network",
    "ServeError",
    "Settings",
    "Storage",
    "StorageError",
    "create_app",
    "default_database_url",
    "open_storage",
    "parse_networks",
    "serve",
]

_HOMES = {
    **dict.fromkeys(("LANGUAGES", "create_app"), "pachisi.web.app"),
    **dict.fromkeys(("ServeError", "serve"), "pachisi.web.server"),
    **dict.fromkeys(
        ("LEVEL_NAMES", "Network", "Settings", "parse_networks"), "pachisi.web.settings"
    ),
    **dict.fromkeys(
        ("Storage", "StorageError", "default_database_url", "open_storage"), "pachisi.web.storage"
    ),
}
"""The module each name of :data:`__all__` is imported from."""


# The package's names, each imported from its module on first use.
__getattr__, __dir__ = lazy_exports(__name__, _HOMES, __all__, globals())
