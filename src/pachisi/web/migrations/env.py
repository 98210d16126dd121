"""Alembic's environment: run the migrations on the connection the caller hands over.

:func:`pachisi.web.storage.migrate` builds the Alembic configuration in code and puts an
open connection in ``config.attributes["connection"]``, so no ``alembic.ini`` and no URL
are needed here. Importing this module outside a migration run (pytest collects every
module of the package) does nothing.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection


def run_migrations(connection: Connection) -> None:
    """Bring the database behind ``connection`` to the newest revision."""
    context.configure(connection=connection, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def _running_under_alembic() -> bool:
    # alembic.context gets its ``config`` only while Alembic runs this file.
    return getattr(context, "config", None) is not None


if _running_under_alembic():
    _connection = context.config.attributes.get("connection")
    if not isinstance(_connection, Connection):
        raise RuntimeError("pachisi's migrations run through pachisi.web.storage.migrate")
    run_migrations(_connection)
