"""What an exploration has counted of one variant so far, in memory that does not grow
with the number of games, and the figures it gives.

A :class:`Tally` keeps, for each length and for the captures, how many games had each
value (a few thousand distinct values at most), and counts for every rate; the exact mean,
median, p90 and histogram come from those counts. So a run of a million games per variant
holds no more than a run of a thousand, and the results file
(:mod:`pachisi.explore.results`) holds the games themselves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

from pachisi.explore.measures import Estimate, Length, mean_of_counts, rate
from pachisi.explore.settings import Settings
from pachisi.explore.variants import Variant
from pachisi.rules import engine

__all__ = ["GameRecord", "Tally", "VariantResult"]


class GameRecord(NamedTuple):
    """One measured game, as the results file stores it."""

    throws: int
    actions: int
    turns: int
    captures: int
    winner: int
    """The winning side; -2 a draw by R-DEADLOCK, -3 a draw by R-FROZEN, -1 unfinished
    (a cap)."""
    first_won: int
    """1 if the first mover's side won, 0 if another side did, -1 if nobody won."""
    comeback: int
    """1 if a side that did not lead at the midpoint won, 0 if the leader won, -1 if
    nobody won or no single side led then."""
    from_castle: int = -1
    """Captures made by a man that moved from a castle; -1 where the game was not replayed
    on the rules engine (:attr:`~pachisi.explore.settings.Settings.capture_games`)."""
    of_stacks: int = -1
    """Captures that sent back two men or more at once; -1 where not replayed."""


@dataclass(frozen=True, slots=True)
class VariantResult:
    """Everything measured of one variant, each figure with its 95% interval."""

    variant: Variant
    games: int
    engine: str
    """The engine that played the games: ``fast`` (compiled) or ``reference``."""
    seconds: float = field(compare=False)
    """How long the games took (not a result: two runs of the same games compare equal)."""
    throws: Length
    actions: Length
    turns: Length
    minutes: Estimate
    """The mean game at :attr:`Settings.pace` seconds per throw or action."""
    draws: Estimate
    """Games drawn by R-DEADLOCK or R-FROZEN."""
    deadlocks: Estimate
    """Games drawn by R-DEADLOCK: no side could win any more."""
    frozen: Estimate
    """Games drawn by R-FROZEN: no man could move again."""
    unfinished: Estimate
    """Games cut off by the turn or step cap (a simulation setting, not a rule)."""
    seat_wins: tuple[Estimate, ...]
    """Each seat's share of the games its side won."""
    team_wins: tuple[Estimate, ...] | None
    """Each team's share (teams 0 = seats 0+2 and 1 = seats 1+3); None without teams."""
    first_mover: Estimate
    """The share of decided games that the first mover's side won."""
    fair_share: float
    """What :attr:`first_mover` would be if beginning gave nothing: one over the sides."""
    captures: Estimate
    """Capture events per game."""
    comeback: Estimate
    """The share of decided games won by a side that did not lead at the game's midpoint
    (half its throws and actions), among the games with one side ahead then: ahead in the
    sum of its men's progress."""
    skill: Estimate | None
    """``greedy``'s side's share of the games against ``random``, two against two."""
    capture_from_castle: Estimate | None = None
    """The share of captures made by a man moving from a castle, in the games replayed on
    the rules engine; None where none were."""
    capture_of_stack: Estimate | None = None
    """The share of captures that sent back two men or more at once (a stack), likewise."""
    strong: Estimate | None = None
    """``learned``'s side's share of the games against ``greedy``, two against two; None
    where no network was trained for the variant's rules (or none were asked for)."""
    strong_player: str | None = None
    """The player of :attr:`strong`: ``learned`` (its network for this ruleset), or None."""
    skill_games: int = 0
    strong_games: int = 0

    @property
    def first_mover_edge(self) -> Estimate:
        """:attr:`first_mover` less the fair share."""
        f, s = self.first_mover, self.fair_share
        return Estimate(f.value - s, f.low - s, f.high - s)


@dataclass
class Tally:
    """Counts of one variant's games so far (see the module's description)."""

    variant: Variant
    engine: str = "fast"
    seconds: float = 0.0
    games: int = 0
    throws: Counter[int] = field(default_factory=Counter)
    actions: Counter[int] = field(default_factory=Counter)
    turns: Counter[int] = field(default_factory=Counter)
    steps: Counter[int] = field(default_factory=Counter)
    captures: Counter[int] = field(default_factory=Counter)
    draws: int = 0
    frozen: int = 0
    unfinished: int = 0
    side_wins: Counter[int] = field(default_factory=Counter)
    decided: int = 0
    first_won: int = 0
    comeback_counted: int = 0
    comebacks: int = 0
    replayed_captures: int = 0
    from_castle: int = 0
    of_stacks: int = 0
    skill_games: int = 0
    skill_won: int = 0
    strong_games: int = 0
    strong_won: int = 0
    strong_player: str | None = None
    covered: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    """Per kind of game (``games``, ``skill``, ``strong``), the index ranges ``[start,
    stop)`` already counted, merged where they meet: what a resumed run need not play."""

    def cover(self, kind: str, first: int, size: int) -> None:
        """Note games ``first`` to ``first + size - 1`` of ``kind`` as counted; a
        ``ValueError`` if any of them was counted before."""
        spans = self.covered.setdefault(kind, [])
        stop = first + size
        if any(a < stop and first < b for a, b in spans):
            raise ValueError(f"{kind} {first} to {stop - 1} are counted twice")
        spans.append((first, stop))
        spans.sort()
        merged = [spans[0]]
        for a, b in spans[1:]:
            if a == merged[-1][1]:
                merged[-1] = (merged[-1][0], b)
            else:
                merged.append((a, b))
        spans[:] = merged

    def missing(self, kind: str, stop: int) -> list[tuple[int, int]]:
        """The ranges of ``kind`` below ``stop`` not counted yet."""
        gaps = []
        at = 0
        for a, b in self.covered.get(kind, []):
            if a > at:
                gaps.append((at, min(a, stop)))
            at = max(at, b)
            if at >= stop:
                break
        if at < stop:
            gaps.append((at, stop))
        return [(a, b) for a, b in gaps if a < b]

    def add(self, records: Iterable[GameRecord]) -> None:
        """Count measured games."""
        for r in records:
            self.games += 1
            self.throws[r.throws] += 1
            self.actions[r.actions] += 1
            self.turns[r.turns] += 1
            self.steps[r.throws + r.actions] += 1
            self.captures[r.captures] += 1
            if r.winner in (-2, -3):
                self.draws += 1
                self.frozen += r.winner == -3
            elif r.winner == -1:
                self.unfinished += 1
            else:
                self.side_wins[r.winner] += 1
            if r.first_won >= 0:
                self.decided += 1
                self.first_won += r.first_won
            if r.comeback >= 0:
                self.comeback_counted += 1
                self.comebacks += r.comeback
            if r.from_castle >= 0:
                self.replayed_captures += r.captures
                self.from_castle += r.from_castle
                self.of_stacks += r.of_stacks

    def add_pairs(self, kind: str, games: int, won: int) -> None:
        """Count games of a stronger player against a weaker one (``skill`` or ``strong``)."""
        if kind == "skill":
            self.skill_games += games
            self.skill_won += won
        else:
            self.strong_games += games
            self.strong_won += won

    def result(self, settings: Settings) -> VariantResult:
        """The figures, each with its 95% interval."""
        ruleset = self.variant.ruleset
        n = self.games
        sides = engine.side_count(ruleset)
        seat_wins = tuple(
            rate(sum(self.side_wins[side] for side in range(sides)
                     if seat in engine.side_seats(ruleset, side)), n)
            for seat in range(4)
        )  # fmt: skip
        team_wins = None
        if sides == 2:
            team_wins = tuple(rate(self.side_wins[t], n) for t in range(2))
        steps = mean_of_counts(self.steps)
        per = settings.pace / 60
        return VariantResult(
            variant=self.variant,
            games=n,
            engine=self.engine,
            seconds=self.seconds,
            throws=Length.of_counts(self.throws),
            actions=Length.of_counts(self.actions),
            turns=Length.of_counts(self.turns),
            minutes=Estimate(steps.value * per, steps.low * per, steps.high * per),
            draws=rate(self.draws, n),
            deadlocks=rate(self.draws - self.frozen, n),
            frozen=rate(self.frozen, n),
            unfinished=rate(self.unfinished, n),
            seat_wins=seat_wins,
            team_wins=team_wins,
            first_mover=rate(self.first_won, self.decided),
            fair_share=1 / sides,
            captures=mean_of_counts(self.captures),
            comeback=rate(self.comebacks, self.comeback_counted),
            capture_from_castle=(
                rate(self.from_castle, self.replayed_captures) if self.replayed_captures else None
            ),
            capture_of_stack=(
                rate(self.of_stacks, self.replayed_captures) if self.replayed_captures else None
            ),
            skill=rate(self.skill_won, self.skill_games) if self.skill_games else None,
            strong=rate(self.strong_won, self.strong_games) if self.strong_games else None,
            strong_player=self.strong_player,
            skill_games=self.skill_games,
            strong_games=self.strong_games,
        )
