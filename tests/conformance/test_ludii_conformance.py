"""RULES.md E.2: our ``ludii`` ruleset against 120 games recorded from Ludii 1.3.13.

At every step the multiset of legal moves must equal Ludii's (levels included), and after the
recorded choice the position, the stack orders and the next player must equal Ludii's.
"""

from __future__ import annotations

import pytest

from tests.conformance.ludii_replay import load_games, replay

GAMES = list(load_games())


def test_ludii_data_is_complete() -> None:
    assert len(GAMES) == 120
    assert sum(g["num_steps"] for g in GAMES) == 88_701


@pytest.mark.parametrize("game", GAMES, ids=[f"seed{g['seed']}" for g in GAMES])
def test_ludii_game_replays_move_for_move(game: dict[str, object]) -> None:
    assert replay(game) == []
