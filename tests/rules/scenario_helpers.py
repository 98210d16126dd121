"""Small helpers to build RULES.md positions and play scenarios against the engine.

Positions are written the way RULES.md section F writes them: pieces by name (``"0.a"``) with a
seat-relative progress ``p`` (an int, or ``"C"`` waiting / ``"H"`` home). Unmentioned pieces
are waiting unless their seat has a ``rest`` clause. ``entered[s]`` is true and kill credits
are 0 unless stated (F, notation).

Throws are given by *value*; the helper looks up ``k`` (mouths up) in the ruleset's
``score_table``. Actions are given in the engine's text form (``0a+4``, ``0b@25``, ``-`` ...).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pachisi.rules.actions import Action
from pachisi.rules.board import COORDS, SQUARE_OF
from pachisi.rules.engine import (
    apply_action,
    apply_chance,
    current_player,
    legal_actions,
)
from pachisi.rules.ruleset import Ruleset, parse_ruleset
from pachisi.rules.state import CHANCE, TERMINAL, Event, Stage, State

WAIT = 0
HOME = 84
LETTERS = "abcd"


def ruleset(rules: str | Ruleset) -> Ruleset:
    """A ruleset from its text form (``"classic+kill_before_home=seat"``) or as is."""
    return parse_ruleset(rules) if isinstance(rules, str) else rules


def gid(name: str) -> int:
    """Global piece id of ``"0.a"`` / ``"0a"``: ``4 * seat + index``."""
    name = name.replace(".", "")
    return 4 * int(name[0]) + LETTERS.index(name[1])


def _progress(value: int | str) -> int:
    if value == "C":
        return WAIT
    if value == "H":
        return HOME
    assert isinstance(value, int) and 0 <= value <= HOME, value
    return value


def position(
    rules: str | Ruleset,
    pieces: Mapping[str, int | str] | None = None,
    *,
    rest: Mapping[int, str] | None = None,
    entered: int = 0b1111,
    seat: int = 0,
    kills: tuple[int, int, int, int] = (0, 0, 0, 0),
    order: Iterable[str | int] | None = None,
    laps: Iterable[str] = (),
    turn: int = 1,
) -> State:
    """A position with a throw due for ``seat`` (stage THROW).

    ``rest`` maps a seat to ``"H"`` or ``"C"`` for its unmentioned pieces. ``order`` is the
    bottom-to-top arrival order of pieces on the board (C.11; only kept with
    ``capture_scope = top_one``); by default pieces arrived in the order they are named.
    """
    r = ruleset(rules)
    pos = [WAIT] * 16
    for s, what in (rest or {}).items():
        for i in range(4):
            pos[4 * s + i] = _progress(what)
    named: list[int] = []
    for name, value in (pieces or {}).items():
        g = gid(name)
        pos[g] = _progress(value)
        named.append(g)
    lap_mask = 0
    for name in laps:
        lap_mask |= 1 << gid(name)
    fields: dict[str, Any] = {
        "ruleset": r,
        "pos": tuple(pos),
        "stage": Stage.THROW,
        "seat": seat,
        "turn": turn,
        "laps": lap_mask,
        "entered": entered,
        "kills": tuple(kills),
    }
    if r.capture_scope == "top_one":
        if order is None:
            seq = [g for g in named if 0 < pos[g] < HOME]
            seq += [g for g in range(16) if 0 < pos[g] < HOME and g not in seq]
        else:
            seq = [gid(x) if isinstance(x, str) else x for x in order]
        fields["order"] = tuple(seq)
    if r.throw_usage == "collect":
        # C.10b step 2: the board at the start of the throwing phase. State documents the
        # field: 1 = a piece on the board, 2 = no waiting piece.
        m = seat
        mine = pos[4 * seat : 4 * seat + 4]
        partner_throws = r.finished_seat == "throw_for_partner" and r.teams == "pairs"
        if partner_throws and all(p == HOME for p in mine):
            m = (seat + 2) % 4
        mine = pos[4 * m : 4 * m + 4]
        flags = 0
        if any(1 <= p <= 83 for p in mine):
            flags |= 1
        if all(p != WAIT for p in mine):
            flags |= 2
        fields["phase_flags"] = flags
    return State(**fields)


def k_of(state: State, value: int) -> int:
    """The number of mouths up that gives ``value`` in the state's score table."""
    return state.ruleset.score_table.index(value)


def throw_ev(state: State, value: int) -> tuple[State, list[Event]]:
    assert current_player(state) == CHANCE, f"no throw due: stage {state.stage!r}"
    return apply_chance(state, k_of(state, value))


def throw(state: State, *values: int) -> State:
    """Throw the given values one after another (each must be due)."""
    for v in values:
        state, _ = throw_ev(state, v)
    return state


def play_ev(state: State, text: str) -> tuple[State, list[Event]]:
    return apply_action(state, Action.parse(text))


def play(state: State, *texts: str) -> State:
    """Apply actions given in text form, one after another."""
    for t in texts:
        state, _ = play_ev(state, t)
    return state


def legal(state: State) -> set[str]:
    """The legal actions in text form."""
    return {str(a) for a in legal_actions(state)}


def outcome_key(state: State) -> tuple[tuple[int, ...], ...]:
    """A position as multisets of ``p`` per seat (C.10a step 5, distinct outcomes)."""
    return tuple(tuple(sorted(state.pos[4 * s : 4 * s + 4])) for s in range(4))


def assert_legal(state: State, expected: set[str]) -> None:
    """The legal set is exactly ``expected``, and its actions are distinct outcomes."""
    got = legal(state)
    assert got == expected, f"legal {sorted(got)} != expected {sorted(expected)}"
    if state.split_left:
        return
    keys: dict[tuple[tuple[int, ...], ...], str] = {}
    for text in sorted(got):
        after = play(state, text)
        if after.split_left:
            continue
        key = outcome_key(after)
        assert key not in keys, f"{text} and {keys[key]} have the same outcome"
        keys[key] = text


def throws_again(state: State, seat: int) -> bool:
    """Whether ``seat`` throws again (a throw is due and it is still that seat's turn)."""
    return current_player(state) == CHANCE and state.seat == seat


def turn_passed(state: State, seat: int) -> bool:
    """Whether the turn has passed from ``seat`` to another seat (a throw is due)."""
    return current_player(state) == CHANCE and state.seat != seat


def is_over(state: State) -> bool:
    return current_player(state) == TERMINAL


def p(state: State, name: str) -> int:
    """The progress of a named piece."""
    return state.pos[gid(name)]


def xy(seat: int, progress: int) -> tuple[int, int]:
    """The grid cell of ``seat``'s square at ``progress``."""
    return COORDS[SQUARE_OF[seat][progress]]


def seat_p(from_seat: int, progress: int, to_seat: int) -> int:
    """RULES.md A.8: ``to_seat``'s progress on the loop square where ``from_seat`` has ``p``.

    Written out from the formula so that it does not depend on board.py.
    """
    assert 8 <= progress <= 76
    return (progress - 8 + 17 * (from_seat - to_seat)) % 68 + 8


def end_states(state: State) -> set[State]:
    """Every state reachable by the seat's own choices until a throw is due or the game ends.

    A depth-first search over all legal action sequences (used for collect-mode spending).
    """
    seen: set[State] = set()
    ends: set[State] = set()
    stack = [state]
    while stack:
        s = stack.pop()
        if s in seen:
            continue
        seen.add(s)
        if current_player(s) in (CHANCE, TERMINAL):
            ends.add(s)
            continue
        for a in legal_actions(s):
            stack.append(apply_action(s, a)[0])
    return ends


def seat_positions(states: Iterable[State], seat: int) -> set[tuple[int, ...]]:
    """The positions (a..d) of ``seat`` in the given states."""
    return {tuple(s.pos[4 * seat : 4 * seat + 4]) for s in states}
