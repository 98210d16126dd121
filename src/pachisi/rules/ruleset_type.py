"""The ruleset value (RULES.md C, D, E.1): :class:`Ruleset`, the six named rulesets it is
written against, and its canonical string.

A ruleset is a frozen :class:`Ruleset` holding every switch of RULES.md E.1. Its text is its
canonical string, the name of the named ruleset it was derived from plus the switches that
differ (:func:`ruleset_string`), so the named rulesets live here too: a ruleset's text is
part of the value, and the value must not need the modules above it to print itself.

The types that the ruleset modules share live here once. :mod:`pachisi.rules.linked_switches`
sits below this module (it reads a ruleset through a protocol of its own), and
:mod:`pachisi.rules.ruleset_checks` and :mod:`pachisi.rules.ruleset` sit above it, so the
imports run one way. Callers import these names from :mod:`pachisi.rules.ruleset`, which
re-exports them with the reading of ruleset strings.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from pachisi.rules.choices import (
    CaptureScope,
    CastleMode,
    Deadlock,
    EntryMode,
    FinishedSeat,
    FirstPieceFree,
    FirstPlayer,
    KillBeforeHome,
    LastSquareExit,
    PyadaCondition,
    PyadaUse,
    SevenFourteenNeedsPiece,
    SplitThrow,
    Stacking,
    Teams,
    ThrowUsage,
    Track,
    TripleCancel,
    TripleScope,
    UnusableThrow,
)
from pachisi.rules.cowries import CLASSIC_6, HALF, HERKLOTS_6, HERKLOTS_7, SEEDS_7
from pachisi.rules.linked_switches import apply_cowries, apply_six_up, linked_pyada_values
from pachisi.rules.switch_text import SWITCHES, format_value

__all__ = [
    "NAMED",
    "ORDER_FIRST",
    "LastSquareExitValue",
    "Ruleset",
    "StackingValue",
    "ValueSet",
    "canonical_keys",
    "ruleset_string",
]

ValueSet = frozenset[int]
StackingValue = Stacking | frozenset[int]
"""``all``, ``castles_only``, ``none``, or a set of square ids where sharing is allowed."""
LastSquareExitValue = LastSquareExit | frozenset[int]
"""A set of throw values (empty = ``none``), or ``ludii``."""


@dataclass(frozen=True)
class Ruleset:
    """Every switch of RULES.md E.1, with the ``classic`` value as the default.

    Build one with :func:`~pachisi.rules.ruleset.parse_ruleset` or
    :func:`~pachisi.rules.ruleset.get_ruleset` so that it is validated; ``name`` is the named
    ruleset it was derived from (used for the canonical string).
    """

    name: str = "classic"
    cowries: int = 6
    score_table: tuple[int, ...] = CLASSIC_6
    six_up_value: int = 30
    reroll_values: ValueSet = frozenset({6, 10, 25})
    entry_values: ValueSet = frozenset({6, 10, 25})
    entry_mode: EntryMode = EntryMode.CONSUME
    first_piece_free: FirstPieceFree = FirstPieceFree.TRAVEL
    seven_fourteen_needs_piece: SevenFourteenNeedsPiece = SevenFourteenNeedsPiece.VOID
    grace_must_enter: bool = False
    first_player: FirstPlayer = FirstPlayer.THROW_OFF
    throw_usage: ThrowUsage = ThrowUsage.IMMEDIATE
    split_throw: SplitThrow = SplitThrow.NONE
    moves_compulsory: bool = False
    unusable_throw: UnusableThrow = UnusableThrow.FORFEIT_THROW
    track: Track = Track.TRADITIONAL
    castle_mode: CastleMode = CastleMode.BLOCK
    stacking: StackingValue = Stacking.ALL
    capture_scope: CaptureScope = CaptureScope.ALL
    stack_immune: bool = False
    capture_bonus: bool = True
    kill_before_home: KillBeforeHome = KillBeforeHome.FALSE
    recapture_annul: bool = False
    last_square_exit: LastSquareExitValue = frozenset({6, 10, 25})
    triple_cancel: TripleCancel = TripleCancel.OFF
    big_values: ValueSet = frozenset({10, 25})
    triple_scope: TripleScope = TripleScope.THREE
    pyada: bool = False
    pyada_values: ValueSet = frozenset({10, 25})
    pyada_condition: PyadaCondition = PyadaCondition.ALL_ENTERED
    pyada_use: PyadaUse = PyadaUse.FREE
    pyada_can_enter: bool = False
    players: int = 4
    teams: Teams = Teams.PAIRS
    finished_seat: FinishedSeat = FinishedSeat.SKIP
    extra_lap: bool = False
    blockade: bool = False
    deadlock: Deadlock = Deadlock.DRAW
    p_mouth_up: Fraction = HALF

    def __str__(self) -> str:
        return self._text

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        # Rulesets key the compiled engine's caches, which every batch and environment
        # step asks, and an equal ruleset read again from its string is another object:
        # the dataclass's comparison built and compared two tuples of every field each
        # time (a few microseconds). The fields' tuple and hash are kept, so unequal
        # rulesets mostly differ at the hash, and equal ones compare their kept tuples.
        if self is other:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Ruleset)
        return self._hash == other._hash and self._values == other._values

    @functools.cached_property
    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, f.name) for f in dataclasses.fields(self))

    @functools.cached_property
    def _hash(self) -> int:
        # The hash of the fields, as the dataclass would compute it, once.
        return hash(self._values)

    def __getstate__(self) -> dict[str, object]:
        # A string's hash differs from process to process: a pickled ruleset (sent to a
        # worker) must not carry the hash it had here, nor the kept tuple of its fields,
        # which would send every field twice.
        state = dict(self.__dict__)
        state.pop("_hash", None)
        state.pop("_values", None)
        return state

    @functools.cached_property
    def _text(self) -> str:
        # Every position string names its ruleset, and a server writes one per move.
        return ruleset_string(self)

    @functools.cached_property
    def ludii(self) -> bool:
        """Whether Ludii's own flow applies (``track = ludii``, RULES.md E.2)."""
        return self.track == Track.LUDII

    @functools.cached_property
    def draws_on_deadlock(self) -> bool:
        """Whether a game that no side can win ends as a draw (R-DEADLOCK).

        Only kill-before-home can leave a seat blocked, so without it there is nothing to
        check.
        """
        return self.kill_before_home != KillBeforeHome.FALSE and self.deadlock == Deadlock.DRAW

    @functools.cached_property
    def distinct_values(self) -> tuple[int, ...]:
        """The throw values of the score table, each once, smallest first."""
        return tuple(sorted(set(self.score_table)))

    @functools.cached_property
    def draws_when_frozen(self) -> bool:
        """Whether a game in which no piece can ever move again ends as a draw (R-FROZEN,
        the same ``deadlock`` switch as R-DEADLOCK)."""
        return self.deadlock == Deadlock.DRAW

    def run_class(self, value: int) -> int:
        """The triple-cancel class of a throw value (V-TRIPLE-CANCEL); 0 = none.

        Under ``same`` every value is its own class; under ``group`` the classes are the
        big values (H), the 7s and the 14s, numbered 1, 2 and 3 (class numbers appear in
        position strings as ``run=<class>x<length>``).
        """
        if self.triple_cancel == TripleCancel.SAME:
            return value
        if value in self.big_values:
            return 1
        if value == 7:
            return 2
        if value == 14:
            return 3
        return 0

    def advance_run(self, run: tuple[int, int], value: int) -> tuple[int, int]:
        """The triple-cancel run ``(class, length)`` after a throw of ``value``
        (V-TRIPLE-CANCEL): a throw of another class breaks it, one outside every class
        resets it."""
        key = self.run_class(value)
        if key == 0:
            return (0, 0)
        return (key, run[1] + 1 if run[0] == key else 1)

    @functools.cached_property
    def tracks_stack_order(self) -> bool:
        """Whether the bottom-to-top order of pieces on a square matters (C.11)."""
        return self.capture_scope == CaptureScope.TOP_ONE


_CLASSIC = Ruleset()

NAMED: Final[dict[str, Ruleset]] = {
    "classic": _CLASSIC,
    "wikipedia-full": dataclasses.replace(
        _CLASSIC,
        name="wikipedia-full",
        cowries=7,
        score_table=SEEDS_7,
        reroll_values=frozenset({7, 10, 25, 30, 14}),
        entry_values=frozenset({10, 25, 30}),
        throw_usage=ThrowUsage.COLLECT,
        split_throw=SplitThrow.SPLIT,
        kill_before_home=KillBeforeHome.SEAT,
        recapture_annul=True,
        last_square_exit=frozenset({10, 25, 30}),
        triple_cancel=TripleCancel.GROUP,
        big_values=frozenset({10, 25, 30}),
        pyada=True,
        pyada_values=frozenset({10, 25, 30}),
    ),
    "herklots-6": dataclasses.replace(
        _CLASSIC,
        name="herklots-6",
        score_table=HERKLOTS_6,
        reroll_values=frozenset({6, 10, 25, 12}),
        entry_values=frozenset(),
        entry_mode=EntryMode.COUNT_FROM_CHARKONI,
        first_piece_free=FirstPieceFree.OFF,
        throw_usage=ThrowUsage.COLLECT,
        last_square_exit=frozenset(),
        triple_cancel=TripleCancel.SAME,
        pyada=True,
        pyada_values=frozenset({25}),
        pyada_condition=PyadaCondition.ALWAYS,
        pyada_can_enter=True,
    ),
    "herklots-7": dataclasses.replace(
        _CLASSIC,
        name="herklots-7",
        cowries=7,
        score_table=HERKLOTS_7,
        reroll_values=frozenset({6, 10, 25, 30, 12}),
        entry_values=frozenset(),
        entry_mode=EntryMode.COUNT_FROM_CHARKONI,
        first_piece_free=FirstPieceFree.OFF,
        throw_usage=ThrowUsage.COLLECT,
        last_square_exit=frozenset(),
        triple_cancel=TripleCancel.SAME,
        big_values=frozenset({10, 25, 30}),
        pyada=True,
        pyada_values=frozenset({25, 30}),
        pyada_condition=PyadaCondition.ALWAYS,
        pyada_can_enter=True,
    ),
    "tylor-1879": dataclasses.replace(
        _CLASSIC,
        name="tylor-1879",
        score_table=HERKLOTS_6,
        reroll_values=frozenset({6, 10, 25, 12}),
        entry_values=frozenset({10, 25}),
        entry_mode=EntryMode.COUNT_FROM_CHARKONI,
        first_piece_free=FirstPieceFree.OFF,
        stack_immune=True,
        last_square_exit=frozenset({10, 25}),
    ),
    "ludii": dataclasses.replace(
        _CLASSIC,
        name="ludii",
        first_piece_free=FirstPieceFree.LUDII_FORCED,
        first_player=FirstPlayer.SEAT0,
        track=Track.LUDII,
        castle_mode=CastleMode.INERT,
        capture_scope=CaptureScope.TOP_ONE,
        capture_bonus=False,
        last_square_exit=LastSquareExit.LUDII,
    ),
}
"""The six named rulesets of RULES.md E.1."""


ORDER_FIRST: Final = ("cowries", "six_up_value")
"""The switches applied before the others, because they bring their own tables and value
sets (D-08): a derived ruleset applies them first, and the canonical string writes them
first."""


def canonical_keys(r: Ruleset) -> list[str]:
    """The switches the canonical string of ``r`` writes, in its order: those that differ
    from the named ruleset ``r.name`` once the links of the switches written first are
    applied to it (D-08, V-PYADA), so that a value that only followed a link is not
    written."""
    base = NAMED[r.name]
    reference = base
    keys: list[str] = []
    for key in ORDER_FIRST:
        if getattr(r, key) != getattr(reference, key):
            keys.append(key)
            reference = (
                apply_cowries(reference, r.cowries)
                if key == "cowries"
                else apply_six_up(reference, r.six_up_value)
            )
    if r.big_values != reference.big_values:
        reference = dataclasses.replace(
            reference, pyada_values=linked_pyada_values(reference, r.big_values)
        )
    for switch in SWITCHES:
        if switch.key in ORDER_FIRST:
            continue
        if getattr(r, switch.key) != getattr(reference, switch.key):
            keys.append(switch.key)
    return keys


def ruleset_string(r: Ruleset) -> str:
    """The canonical string: the base name, then each differing switch in table order."""
    parts = [r.name]
    parts += [f"{key}={format_value(key, getattr(r, key))}" for key in canonical_keys(r)]
    return "+".join(parts)
