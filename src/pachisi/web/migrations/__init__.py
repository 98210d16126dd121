"""Alembic migrations of the web game's database, run in code by :mod:`pachisi.web.storage`."""
