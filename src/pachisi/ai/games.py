"""Bots playing one game to the end in the reference engine: the game loop that simulations,
tournaments and the compiled players' playouts share.

The loop applies no rule itself: the rules engine throws and applies, the bots choose.
Randomness comes only from the generators passed in, so a seeded game is reproducible:

>>> import random
>>> from pachisi.ai.bots import RandomBot
>>> from pachisi.rules.ruleset import get_ruleset
>>> def once() -> GameStats:
...     return play_game(get_ruleset("classic"), random.Random(3), [RandomBot()] * 4)
>>> once() == once()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from pachisi.ai.bots import Bot
from pachisi.rules import cowries, engine
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import CHANCE, Event, State

__all__ = ["DEFAULT_MAX_STEPS", "DEFAULT_MAX_TURNS", "GameStats", "play_game", "play_on"]

DEFAULT_MAX_TURNS: Final = 5000
"""Turns after which a simulated game is abandoned as unfinished."""
DEFAULT_MAX_STEPS: Final = 50_000
"""Steps (throws and actions) after which a simulated game is abandoned as unfinished.

The rules have no move or turn limit (R-NO-LIMIT): a game ends with a win, or with a draw
when no side can win any more (R-DEADLOCK). Both caps are simulation settings, not rules,
and a safety net: the step cap holds even where turns are long, and under
``deadlock=continue`` a game that no side can win runs into them. Random games take
about 400 to 1,600 steps (bench/playouts.py).
"""


@dataclass(frozen=True, slots=True)
class GameStats:
    """What happened in one simulated game."""

    throws: int
    """Chance events: cowrie throws, throw-off included."""
    actions: int
    """Decisions taken by the seats, declines included."""
    captures: int
    """Capture events (one event can send back several pieces)."""
    turns: int
    winner: int | None
    """The winning team (seat with ``teams=individual``); None for a draw or an
    abandoned game."""
    winning_seats: tuple[int, ...]
    """The seats on the winning side; empty for a draw or an abandoned game."""
    drawn: bool = False
    """The game ended as a draw: no side could win any more (R-DEADLOCK) or no piece
    could move again (R-FROZEN)."""
    draw_rule: str = ""
    """For a draw, the rule that ended it (``R-DEADLOCK`` or ``R-FROZEN``, as
    :func:`pachisi.rules.engine.outcome` says); empty otherwise."""

    @property
    def finished(self) -> bool:
        """Whether the game ended by the rules (a win or a draw), not by a cap."""
        return self.drawn or self.winner is not None


def play_game(
    ruleset: Ruleset,
    rng: random.Random,
    bots: Sequence[Bot],
    *,
    bot_rng: random.Random | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    max_steps: int = DEFAULT_MAX_STEPS,
) -> GameStats:
    """Play one game to the end: ``rng`` throws the cowries, ``bots[seat]`` acts for a seat.

    ``bot_rng`` (default: ``rng``) is what the bots use for their random choices. The game
    is abandoned after ``max_turns`` turns or ``max_steps`` throws and actions.
    """
    return play_on(
        engine.new_game(ruleset),
        rng,
        bots,
        bot_rng=bot_rng,
        max_turns=max_turns,
        max_steps=max_steps,
    )[1]


def play_on(
    state: State,
    rng: random.Random,
    bots: Sequence[Bot],
    *,
    bot_rng: random.Random | None = None,
    max_turns: int = DEFAULT_MAX_TURNS,
    max_steps: int = DEFAULT_MAX_STEPS,
    done: tuple[int, int, int] = (0, 0, 0),
    on_action: Callable[[State, list[Event]], None] | None = None,
) -> tuple[State, GameStats]:
    """:func:`play_game` from ``state`` on: the final state and the game's statistics.

    ``done`` is the throws, actions and captures the game has had already (the step cap
    counts them too), for a game that another engine began: the compiled engine hands a
    game over here when it outgrows its state row (:mod:`pachisi.ai.playouts`).
    ``on_action(before, events)`` sees every action's events with the state it was taken
    in (the explorer reads its captures so).
    """
    if len(bots) != 4:
        raise ValueError(f"need one bot per seat (4), got {len(bots)}")
    choice_rng = rng if bot_rng is None else bot_rng
    throws, actions, captures = done
    n, p = state.ruleset.cowries, state.ruleset.p_mouth_up
    while not state.is_over and state.turn <= max_turns and throws + actions < max_steps:
        if engine.current_player(state) == CHANCE:
            state, events = engine.apply_chance(state, cowries.throw(rng, n, p))
            throws += 1
        else:
            action = bots[state.seat].choose(state, choice_rng)
            before = state
            state, events = engine.apply_action(state, action)
            if on_action is not None:
                on_action(before, events)
            actions += 1
            captures += sum(1 for e in events if e.kind == "capture")
    result = engine.outcome(state)
    return state, GameStats(
        throws=throws,
        actions=actions,
        captures=captures,
        turns=state.turn,
        winner=result.winner if result else None,
        winning_seats=result.seats if result else (),
        drawn=result is not None and result.is_draw,
        draw_rule=result.rule if result is not None and result.is_draw else "",
    )
