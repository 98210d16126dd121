"""What a server on the internet needs: private games and invitations, creators, versions
for serialising commands across servers, leases for computer seats, and idle times.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


NOTIFY_FUNCTION = """
CREATE OR REPLACE FUNCTION pachisi_move_stored() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('pachisi_games', NEW.game_id || ' ' || NEW.version || ' ' || NEW.move);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql
"""
NOTIFY_TRIGGER = """
CREATE TRIGGER moves_notify AFTER INSERT ON moves
FOR EACH ROW EXECUTE FUNCTION pachisi_move_stored()
"""


def upgrade() -> None:
    """Add the columns of issue 20 and fill them in for the games already stored."""
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("visibility", sa.String(8), nullable=False, server_default="public")
        )
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("updated", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(
            sa.Column("computer_due", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.add_column(sa.Column("owner_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("watch_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("lease_owner", sa.String(64), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.Float(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("invite_hash", sa.String(64), nullable=True))
    # A game's version is its number of moves, and it was last touched by its newest move.
    op.execute(
        "UPDATE games SET version = (SELECT COUNT(*) FROM moves WHERE moves.game_id = games.id)"
    )
    op.execute(
        "UPDATE games SET updated = COALESCE("
        "(SELECT MAX(moves.created) FROM moves WHERE moves.game_id = games.id), created)"
    )
    # Whose turn it is would need the game replayed: a game with a computer seat is marked
    # due, and the server that takes its lease sets the mark right (a game whose computer
    # is not due is simply let go again).
    op.execute(
        "UPDATE games SET computer_due = TRUE WHERE status <> 'finished' AND EXISTS "
        "(SELECT 1 FROM seats WHERE seats.game_id = games.id AND seats.kind = 'computer')"
    )
    if op.get_bind().dialect.name == "postgresql":
        # Every stored move tells the other servers (pachisi.web.storage.CHANNEL), from the
        # database itself: one statement fewer for each commit of a move.
        op.execute(NOTIFY_FUNCTION)
        op.execute(NOTIFY_TRIGGER)
    op.create_index("ix_games_creator_status", "games", ["creator", "status"])
    op.create_index("ix_games_status_updated", "games", ["status", "updated"])
    op.create_index("ix_games_due", "games", ["computer_due", "status"])


def downgrade() -> None:
    """Drop the columns of issue 20 again."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS moves_notify ON moves")
        op.execute("DROP FUNCTION IF EXISTS pachisi_move_stored()")
    op.drop_index("ix_games_due", table_name="games")
    op.drop_index("ix_games_status_updated", table_name="games")
    op.drop_index("ix_games_creator_status", table_name="games")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("invite_hash")
    with op.batch_alter_table("games") as batch:
        for name in (
            "lease_until",
            "lease_owner",
            "watch_hash",
            "owner_hash",
            "creator",
            "computer_due",
            "updated",
            "version",
            "visibility",
        ):
            batch.drop_column(name)
