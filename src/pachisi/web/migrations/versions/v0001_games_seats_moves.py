"""The first schema: games, their seats, and their moves.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create the three tables of :mod:`pachisi.web.storage`."""
    op.create_table(
        "games",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("ruleset", sa.Text(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.String(16), nullable=True),
    )
    op.create_index("ix_games_status_created", "games", ["status", "created"])
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("player", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "moves",
        sa.Column("game_id", sa.String(16), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("version", sa.Integer(), primary_key=True),
        sa.Column("move", sa.String(40), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the tables again (their data with them)."""
    op.drop_table("moves")
    op.drop_table("seats")
    op.drop_index("ix_games_status_created", table_name="games")
    op.drop_table("games")
