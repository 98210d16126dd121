"""The "How to play" page's facts (``GET /api/rules/{ruleset}``, docs/web-client.md).

The page explains the rules in words of its own catalogues, but every fact it states about
the chosen ruleset is asked here of the rules core: the throws with their exact chances, the
values that give another throw, enter a man or finish from the last square, the board's
castles, and every switch of :data:`~pachisi.rules.ruleset.SWITCHES` with its rule ID and
value. The browser only arranges them.

>>> from pachisi.rules.ruleset import parse_ruleset
>>> guide = guide_json(parse_ruleset("classic"))
>>> [(t["value"], t["chance"]) for t in guide["throws"]][:2]
[(25, '1/64'), (10, '3/32')]
>>> len(guide["switches"]) == len(SWITCHES)
True
"""

from __future__ import annotations

import functools
from typing import Any, Final

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from pachisi.describe import DESCRIPTIONS
from pachisi.explore.effects import flip_changes
from pachisi.notation import read_position
from pachisi.rules import engine
from pachisi.rules.board import (
    CASTLES,
    HOME,
    LAST_SQUARE,
    NUM_SQUARES,
    SQUARE_OF,
    square_name,
)
from pachisi.rules.choices import ThrowUsage
from pachisi.rules.cowries import chance_outcomes
from pachisi.rules.ruleset import (
    NAMED,
    SWITCHES,
    Ruleset,
    RulesetError,
    format_value,
    parse_ruleset,
    unwritable,
)
from pachisi.web.api import detail

__all__ = ["CASTLE_DISTANCE", "Guide", "guide_json", "install_guide"]

CASTLE_DISTANCE: Final = 25
"""The steps home from the castle the game is named after (S11, RULES.md A.6)."""
_CLASSIC: Final = NAMED["classic"]
_CACHED: Final = 64
"""Guides kept ready: one per ruleset string asked for lately (reading one takes a while)."""


class ThrowRow(BaseModel):
    """One outcome of a throw: ``k`` cowries mouth up, its value and exact chance."""

    k: int = Field(description="cowries that land mouth up")
    value: int = Field(description="what the throw counts (the score table's entry)")
    chance: str = Field(description="the exact chance as a fraction, e.g. 1/64")
    probability: float = Field(description="the same chance as a number")
    grace: bool = Field(description="whether it gives another throw (R-GRACE-REPEAT)")
    enters: bool = Field(description="whether it may bring a man out (R-GRACE-ENTRY)")
    exits: bool = Field(description="whether it finishes from the last square")


class SwitchRow(BaseModel):
    """One switch of the ruleset: its key, rule ID, value, and the classic default."""

    key: str
    rule: str = Field(description="the rule ID of RULES.md (R-... or V-...)")
    value: str = Field(description="the value in this ruleset, as ruleset strings write it")
    default: str = Field(description="the value in classic")
    base: str = Field(description="the value in the named ruleset this one is built on")
    choices: list[str] = Field(description="the allowed values; empty for free-form ones")
    help: str = Field(description="what the switch is about, in English")
    writable: bool = Field(
        description="whether the value can be written back: the ruleset string with "
        "+key=value added gives the same ruleset"
    )
    note: str = Field(
        description="empty if writable; else why not, in English (a switch that another "
        "switch turns off, such as six_up_value without 7 cowries)"
    )


class EffectChange(BaseModel):
    """One figure a flip moves beyond its interval: the base's value and the flip's."""

    figure: str = Field(description="throws, minutes, draw_rate, first_mover_edge, ...")
    base: float
    flip: float


class EffectRow(BaseModel):
    """One measured flip of the base ruleset: a switch given one other choice alone."""

    switch: str
    choice: str
    games: int = Field(description="games measured under the flip")
    changes: list[EffectChange] = Field(description="empty: no figure moved beyond its interval")


class BoardFacts(BaseModel):
    """The board's numbers and the squares the page points out (as the move list names them)."""

    squares: int
    castles: list[str] = Field(description="the 12 castles, in the order South meets them")
    steps: int = Field(description="steps from leaving the Charkoni back into it")
    first_square: str = Field(description="South's square 1, next to the Charkoni")
    castle_25: str = Field(description="South's castle 25 steps from home")
    home_path: list[str] = Field(description="South's squares from there to the last one")
    castle_25_finishes: bool | None = Field(
        description="whether a throw of 25 takes a man home from there (None: not known)"
    )
    castle_distance: int


class Guide(BaseModel):
    """What the "How to play" page says about one ruleset."""

    ruleset: str = Field(description="the canonical ruleset string")
    base: str = Field(description="the named ruleset it is built on")
    description: str = Field(description="the named ruleset in one line, in English")
    cowries: int
    p_mouth_up: str = Field(description="the chance that one cowrie lands mouth up")
    throws: list[ThrowRow]
    reroll_values: list[int]
    entry_values: list[int]
    exit_values: list[int] | str = Field(
        description="values that finish from the last square, or 'ludii'"
    )
    players: int
    teams: str
    board: BoardFacts
    switches: list[SwitchRow] = Field(description="every switch, in RULES.md E.1's order")
    effects: list[EffectRow] = Field(
        description="what each switch flipped alone did to the base named ruleset's games, "
        "as measured by pachisi explore (docs/variants.md); empty where not measured"
    )


def _castles_in_route_order() -> list[int]:
    """The castles in the order South's men meet them (its middle end, visited twice, once)."""
    met = [SQUARE_OF[0][p] for p in range(1, HOME) if SQUARE_OF[0][p] in CASTLES]
    return list(dict.fromkeys(met))


def _board_facts() -> dict[str, Any]:
    castle_25 = SQUARE_OF[0][HOME - CASTLE_DISTANCE]
    if castle_25 not in CASTLES:
        raise AssertionError("the square 25 steps from home is not a castle (RULES.md A.6)")
    return {
        "squares": NUM_SQUARES,
        "castles": [square_name(square) for square in _castles_in_route_order()],
        "steps": HOME,
        "first_square": square_name(SQUARE_OF[0][1]),
        "castle_25": square_name(castle_25),
        "home_path": [
            square_name(SQUARE_OF[0][p]) for p in range(HOME - CASTLE_DISTANCE + 1, LAST_SQUARE + 1)
        ],
        "castle_distance": CASTLE_DISTANCE,
    }


def _castle_25_finishes(r: Ruleset) -> bool | None:
    """Whether a man of South's on its castle 25 steps from home goes home with a throw of 25
    (S11), asked of the engine: a made-up position with the throw to use and a capture made
    (so that V-KILL-BEFORE-HOME allows it). None if the ruleset has no 25, or the position
    cannot be set up under it."""
    if CASTLE_DISTANCE not in r.score_table:
        return None
    progress = HOME - CASTLE_DISTANCE
    fields = ["entered=0", "kills=1,0,0,0"]
    if r.tracks_stack_order:
        fields.append("order=0a")
    if r.throw_usage == ThrowUsage.COLLECT:
        side = f"s0 1 items={CASTLE_DISTANCE}"
    else:
        side = f"a0 1 k={r.score_table.index(CASTLE_DISTANCE)}"
        if CASTLE_DISTANCE in r.reroll_values:
            fields.append("again=true")
    text = f"{progress},0,0,0/0,0,0,0/0,0,0,0/0,0,0,0 {side} {' '.join(fields)} {r}"
    try:
        state = read_position(text)
    except ValueError:  # a NotationError: the position does not fit these rules
        return None
    return any(
        engine.apply_action(state, action)[0].pos[0] == HOME
        for action in engine.legal_actions(state)
    )


def guide_json(r: Ruleset) -> dict[str, Any]:
    """Every fact the rules page states about the ruleset ``r``."""
    base = NAMED[r.name]
    exits = r.last_square_exit
    # Why a value shown cannot be written back into the ruleset string (issue 47).
    notes = {s.key: unwritable(r, s.key) or "" for s in SWITCHES}
    throws = []
    for k, chance in chance_outcomes(r.cowries, r.p_mouth_up):
        value = r.score_table[k]
        throws.append(
            {
                "k": k,
                "value": value,
                "chance": str(chance),
                "probability": float(chance),
                "grace": value in r.reroll_values,
                "enters": value in r.entry_values,
                "exits": isinstance(exits, frozenset) and value in exits,
            }
        )
    return {
        "ruleset": str(r),
        "base": r.name,
        "description": DESCRIPTIONS.get(r.name, ""),
        "cowries": r.cowries,
        "p_mouth_up": str(r.p_mouth_up),
        "throws": throws,
        "reroll_values": sorted(r.reroll_values),
        "entry_values": sorted(r.entry_values),
        "exit_values": exits if isinstance(exits, str) else sorted(exits),
        "players": r.players,
        "teams": r.teams,
        "board": {**_board_facts(), "castle_25_finishes": _castle_25_finishes(r)},
        "switches": [
            {
                "key": s.key,
                "rule": s.rule,
                "value": format_value(s.key, getattr(r, s.key)),
                "default": format_value(s.key, getattr(_CLASSIC, s.key)),
                "base": format_value(s.key, getattr(base, s.key)),
                "choices": list(s.choices),
                "help": s.help,
                "writable": not notes[s.key],
                "note": notes[s.key],
            }
            for s in SWITCHES
        ],
        "effects": flip_changes(r.name),
    }


@functools.lru_cache(maxsize=_CACHED)
def _guide_of(text: str) -> dict[str, Any] | str:
    """The guide of the ruleset string ``text``, or why it is no ruleset."""
    try:
        return guide_json(parse_ruleset(text))
    except RulesetError as exc:
        return str(exc)


def install_guide(app: FastAPI) -> None:
    """Add the rules page's route to ``app``."""

    @app.get("/api/rules/{ruleset:path}", response_model=Guide)
    async def get_rules(ruleset: str) -> dict[str, Any] | JSONResponse:
        """What the "How to play" page says about a ruleset: a name, an alias, or a ruleset
        string with switches (``classic+capture_bonus=false``); 400 for anything else."""
        guide = _guide_of(ruleset)
        if isinstance(guide, str):
            return detail(400, guide)
        return guide
