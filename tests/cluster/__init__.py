"""Several ``pachisi serve`` instances on one PostgreSQL behind nginx: real processes."""
