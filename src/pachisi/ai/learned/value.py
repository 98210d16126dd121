"""The learned evaluation of a reference position: shipped weights, numpy inference.

:func:`value_for` picks the network trained for a ruleset (see :func:`weights_name`) and
wraps it with the ruleset's tables. :meth:`LearnedValue.chances` gives every side's
chance of winning, the same answer as :func:`pachisi.ai.evaluation.win_chances` gives from
hand-weighted features, so the searching players can use either.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from pachisi.ai.bots import REACH_FLOOR, GreedyBot, _single_throw_chances
from pachisi.ai.learned.features import MAX_ACTIVE, encode, tables
from pachisi.ai.learned.net import Net, WeightsError
from pachisi.fast.convert import to_row
from pachisi.fast.params import compile_ruleset
from pachisi.rules import deadlock, engine
from pachisi.rules.choices import KillBeforeHome, Teams
from pachisi.rules.ruleset import NAMED, Ruleset, derive
from pachisi.rules.state import DRAW, State

__all__ = [
    "WEIGHTS_DIR",
    "LearnedEvaluation",
    "LearnedValue",
    "trained_for",
    "value_for",
    "weights_name",
    "weights_path",
]

WEIGHTS_DIR: Final = Path(__file__).parent / "weights"
"""Where the shipped weights live, one file per named ruleset and mode."""


def weights_name(ruleset: Ruleset) -> str:
    """The weights file a ruleset plays with: its named ruleset's (a ruleset with switches
    changed uses its base's), ``-individual`` under ``teams=individual``."""
    suffix = "-individual" if ruleset.teams == Teams.INDIVIDUAL else ""
    return f"{ruleset.name}{suffix}"


def weights_path(ruleset: Ruleset) -> Path:
    """The file of :func:`weights_name`, falling back to ``classic``'s of the same mode
    when its own ruleset has none."""
    path = WEIGHTS_DIR / f"{weights_name(ruleset)}.npz"
    if path.exists():
        return path
    suffix = "-individual" if ruleset.teams == Teams.INDIVIDUAL else ""
    return WEIGHTS_DIR / f"classic{suffix}.npz"


def trained_for(ruleset: Ruleset) -> bool:
    """Whether a network was trained on exactly this ruleset: a named ruleset as it stands,
    or ``classic+teams=individual``. Other switch combinations play with their base's
    network, which never saw their rules (a blockade, say) and judges them less well."""
    base = NAMED[ruleset.name]
    if ruleset.teams == Teams.INDIVIDUAL:
        if ruleset.name != "classic":
            return False
        base = derive(base, {"teams": "individual"})
    return ruleset == base and (WEIGHTS_DIR / f"{weights_name(ruleset)}.npz").exists()


@functools.lru_cache(maxsize=16)
def _net(path: Path) -> Net:
    if not path.exists():
        raise WeightsError(f"no learned weights at {path}")
    return Net.load(path)


def hit_table(ruleset: Ruleset) -> npt.NDArray[np.float64]:
    """``hit[d]``: the chance that one throw is worth ``d`` (d < 26), the floor where none
    is; the danger features' table."""
    chances = _single_throw_chances(ruleset)
    return np.array([chances.get(d, REACH_FLOOR) for d in range(26)], dtype=np.float64)


class LearnedValue:
    """A trained network and one ruleset's tables: chances of winning for positions."""

    def __init__(self, net: Net, ruleset: Ruleset) -> None:
        sides = engine.side_count(ruleset)
        if net.sides != sides:
            raise WeightsError(
                f"these learned weights rate {net.sides} sides; {ruleset.name} has {sides}"
            )
        self.net = net
        self.ruleset = ruleset
        self.params, _ = compile_ruleset(ruleset)
        self.hit = hit_table(ruleset)
        self._idx = np.zeros(MAX_ACTIVE, dtype=np.int32)
        self._val = np.zeros(MAX_ACTIVE, dtype=np.float64)
        # Plain lists: the encoder indexes them one number at a time, which Python does
        # several times faster on lists than on numpy arrays.
        self._param_list = self.params.tolist()
        self._hit_list = self.hit.tolist()
        self._board = tuple(t.tolist() for t in tables())
        self._greedy = GreedyBot()

    @property
    def sides(self) -> int:
        return self.net.sides

    def seen_by(self, state: State, observer: int) -> list[float]:
        """Every side's chance of winning (absolute side order) as ``observer`` rates it."""
        if state.is_over:
            return self._result(state)
        r = self.ruleset
        blocked = 0
        if r.kill_before_home != KillBeforeHome.FALSE:
            for seat in range(4):
                if deadlock.seat_blocked(r, state.pos, state.kills, seat):
                    blocked |= 1 << seat
        if self.sides == 4:
            scores = [self._greedy.evaluate(state, seat) for seat in range(4)]
        else:
            scores = [self._greedy.evaluate(state, seat) for seat in (0, 1)] * 2
        n = encode(
            to_row(state).tolist(), self._param_list, self._hit_list, self._board, observer,
            blocked, scores, self._idx, self._val,
        )  # fmt: skip
        rel = self.net.probabilities(self._idx, self._val, n)
        if self.sides == 4:
            return [float(rel[(side - observer) % 4]) for side in range(4)]
        mine = observer & 1
        return [float(rel[0]) if side == mine else float(rel[1]) for side in range(2)]

    def chances(self, state: State) -> list[float]:
        """Every side's chance of winning: the network's view from the seat to act and,
        in team games, from the next seat (an enemy's) too, averaged."""
        if state.is_over:
            return self._result(state)
        first = self.seen_by(state, state.seat)
        if self.sides == 4:
            return first
        second = self.seen_by(state, (state.seat + 1) % 4)
        return [(a + b) / 2 for a, b in zip(first, second, strict=True)]

    def _result(self, state: State) -> list[float]:
        if state.winner == DRAW:
            return [1.0 / self.sides] * self.sides
        return [1.0 if s == state.winner else 0.0 for s in range(self.sides)]


def value_for(ruleset: Ruleset) -> LearnedValue:
    """The learned evaluation for ``ruleset`` (:class:`WeightsError` without weights)."""
    return LearnedValue(_net(weights_path(ruleset)), ruleset)


class LearnedEvaluation:
    """The learned evaluation of any position, as a search's leaf evaluation: called with
    a state and the observing seat, it gives every side's chance of winning. Each ruleset's
    network is loaded once, on first use."""

    def __init__(self) -> None:
        self._values: dict[Ruleset, LearnedValue] = {}

    def value(self, ruleset: Ruleset) -> LearnedValue:
        found = self._values.get(ruleset)
        if found is None:
            found = self._values[ruleset] = value_for(ruleset)
        return found

    def __call__(self, state: State, seat: int) -> list[float]:
        return self.value(state.ruleset).seen_by(state, seat)
