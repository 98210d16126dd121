"""The migration scripts, oldest first (``down_revision`` links them)."""
