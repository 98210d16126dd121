"""Replays Ludii's recorded Pachisi games on our ``ludii`` ruleset (RULES.md E.2).

Shared by the conformance test and by anyone who wants a step-by-step diff of one game:
``python tests/conformance/ludii_replay.py SEED``.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pachisi.rules import engine
from pachisi.rules.actions import Action, ActionKind
from pachisi.rules.board import CHARKONI_CELL, HOME, SQUARE_OF
from pachisi.rules.ruleset import get_ruleset
from pachisi.rules.state import State

DATA = Path(__file__).resolve().parent.parent / "data" / "ludii-pachisi-trials.jsonl.gz"
HAND = 97
_CAPTURE = re.compile(r"\[Move:mover=\d+,from=\d+,to=(\d+)")

LudiiMove = tuple[int, int, int, bool, int]
"""(from, levelFrom, to, isPass, captured owner 1..4 or 0)."""


def load_games() -> Iterator[dict[str, Any]]:
    with gzip.open(DATA, "rt") as f:
        for line in f:
            yield json.loads(line)


def _stacks(state: State) -> dict[int, list[int]]:
    """Ludii site -> global piece ids, bottom to top."""
    out: dict[int, list[int]] = {}
    for g in state.order:
        p = state.pos[g]
        out.setdefault(SQUARE_OF[g >> 2][p], []).append(g)
    return out


def site_of(seat: int, p: int) -> int:
    if p == 0:
        return HAND + seat
    if p == HOME:
        return -1
    return SQUARE_OF[seat][p]


def ludii_position(state: State) -> list[list[int]]:
    return [sorted(site_of(s, p) for p in state.seat_pieces(s)) for s in range(4)]


def ludii_stacks(state: State) -> list[list[Any]]:
    return sorted(
        [site, [(g >> 2) + 1 for g in pieces]]
        for site, pieces in _stacks(state).items()
        if len(pieces) >= 2
    )


def to_ludii(state: State, action: Action) -> LudiiMove:
    """Our action as Ludii would list it."""
    if action.kind is ActionKind.DECLINE:
        return (-1, 0, -1, True, 0)
    seat = action.seat
    g = action.global_pieces[0]
    stacks = _stacks(state)
    if action.kind in (ActionKind.FREE, ActionKind.ENTER):
        in_hand = sum(1 for p in state.seat_pieces(seat) if p == 0)
        level = 0 if action.kind is ActionKind.FREE else in_hand - 1
        after, _ = engine.apply_action(state, action)
        return (HAND + seat, level, site_of(seat, after.pos[g]), False, 0)
    p = state.pos[g]
    frm = SQUARE_OF[seat][p]
    here = stacks[frm]
    after, events = engine.apply_action(state, action)
    if after.pos[g] == HOME:
        return (frm, len(here) - 1, CHARKONI_CELL, False, 0)
    captured = [e for e in events if e.kind == "capture"]
    owner = (captured[0].pieces[0] >> 2) + 1 if captured else 0
    return (frm, here.index(g), SQUARE_OF[seat][after.pos[g]], False, owner)


def from_ludii(move: list[Any]) -> LudiiMove:
    frm, level, to, _level_to, is_pass, actions = move
    owner = 0
    for text in actions:
        m = _CAPTURE.search(text)
        if m and int(m.group(1)) >= HAND:
            owner = int(m.group(1)) - HAND + 1
    return (frm, level, to, bool(is_pass), owner)


def replay(game: dict[str, Any]) -> list[str]:
    """Replay one recorded game; returns every disagreement (empty if none)."""
    problems: list[str] = []
    state = engine.new_game(get_ruleset("ludii"))
    for step in game["steps"]:
        n = step["n"]
        if engine.current_player(state) != -1:
            return [f"step {n}: we expect no throw here"]
        if state.seat != step["mover"] - 1:
            return [f"step {n}: mover {step['mover']} but our seat is {state.seat}"]
        state, _ = engine.apply_chance(state, step["pips"])
        ours_actions = engine.legal_actions(state)
        ours = Counter(to_ludii(state, a) for a in ours_actions)
        theirs = Counter(from_ludii(m) for m in step["legal"])
        if ours != theirs:
            return [
                f"step {n}: legal moves differ: ours-only {ours - theirs}, Ludii-only "
                f"{theirs - ours}"
            ]
        chosen = from_ludii(step["legal"][step["chosen"]])
        match = [a for a in ours_actions if to_ludii(state, a) == chosen]
        state, _ = engine.apply_action(state, match[0])
        if ludii_position(state) != step["pos"]:
            return [f"step {n}: position {ludii_position(state)} != Ludii {step['pos']}"]
        if ludii_stacks(state) != sorted(step["stacks"]):
            return [f"step {n}: stacks {ludii_stacks(state)} != Ludii {step['stacks']}"]
        if step["next"] == 0:
            if not state.is_over:
                problems.append(f"step {n}: Ludii says the game is over, we do not")
            break
        if engine.current_player(state) != -1 or state.seat != step["next"] - 1:
            return [f"step {n}: next is {step['next']}, ours seat {state.seat}"]
    else:
        problems.append("the record ended before the game did")
    if state.is_over and state.winner + 1 != game["winning_team"]:
        problems.append(f"winner team {state.winner + 1} != Ludii {game['winning_team']}")
    return problems


if __name__ == "__main__":
    wanted = {int(a) for a in sys.argv[1:]}
    bad = 0
    for game in load_games():
        if wanted and game["seed"] not in wanted:
            continue
        problems = replay(game)
        if problems:
            bad += 1
            print(game["seed"], problems[:3])
    print("games with differences:", bad)
