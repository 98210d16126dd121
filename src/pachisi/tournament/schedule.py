"""Which games a tournament plays: pairings, seat rotations and the seeds of every game.

A tournament between players given by name is cut into *deals*. A deal is one sequence of
cowrie throws, played once in every seat rotation, so that every side meets the same luck
(common random numbers): with ``teams=pairs`` a deal is played twice, player A on seats
0+2 and then on seats 1+3; with ``teams=individual`` and four players it is played four
times, the players moved one seat on each time. Each game is a :class:`GameSpec`, small and
picklable, so that any process (or cluster) can play it alone and get the same result.

>>> from pachisi.rules.ruleset import get_ruleset
>>> plan = make_schedule(["greedy", "random"], get_ruleset("classic"), games=3, seed=7)
>>> plan.games_per_pairing, len(plan.specs)
(4, 4)
>>> [spec.seats for spec in plan.specs[:2]]
[('greedy', 'random', 'greedy', 'random'), ('random', 'greedy', 'random', 'greedy')]
>>> plan.specs[0].deal == plan.specs[1].deal
True
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from pachisi.ai.games import DEFAULT_MAX_STEPS, DEFAULT_MAX_TURNS
from pachisi.rules.choices import Teams
from pachisi.rules.ruleset import Ruleset

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "GameSpec",
    "Schedule",
    "TournamentError",
    "choice_rng",
    "entrants",
    "make_schedule",
    "player_name",
    "throw_rng",
]

MIN_PLAYERS: Final = 2
"""The fewest players a tournament can have."""
MAX_PLAYERS: Final = 4
"""The most players a tournament can have (one per seat)."""

Seats = tuple[str, str, str, str]
"""The player's name at each seat, 0..3."""


class TournamentError(ValueError):
    """A tournament that cannot be scheduled: too few or too many players, no games, or a
    player count the ruleset's teams do not allow."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """Everything needed to play one game of a tournament, and nothing more.

    It names its players rather than holding them, so that it pickles in a few hundred
    bytes and whoever plays it makes fresh players (see :func:`pachisi.tournament.run.play`).
    """

    number: int
    """The game's place in the schedule, from 0."""
    deal: int
    """The deal it belongs to: games of one deal share their throws."""
    rotation: int
    """Which seating of the deal this is, from 0."""
    seats: Seats
    """The entrant at each seat (see :func:`entrants`)."""
    ruleset: str
    """The canonical ruleset string."""
    seed: int
    """The tournament's seed; the game's generators come from it, ``deal`` and ``rotation``."""
    max_turns: int = DEFAULT_MAX_TURNS
    max_steps: int = DEFAULT_MAX_STEPS


@dataclass(frozen=True, slots=True)
class Schedule:
    """The games of a tournament, in the order they are numbered, with how they came about."""

    players: tuple[str, ...]
    """The entrants, in the order given (see :func:`entrants`)."""
    ruleset: str
    """The canonical ruleset string."""
    seed: int
    mode: str
    """``pairs`` (two players per game, a team each) or ``individual`` (all four seated)."""
    pairings: tuple[tuple[str, ...], ...]
    """The players of each pairing: every pair of players, or all four players at once."""
    games_requested: int
    """The ``games`` asked for (per pairing)."""
    games_per_pairing: int
    """``games_requested`` rounded up to whole deals."""
    rotations: int
    """The seatings every deal is played in: 2 in pairs, 4 with four individual players."""
    specs: tuple[GameSpec, ...]
    max_turns: int = DEFAULT_MAX_TURNS
    max_steps: int = DEFAULT_MAX_STEPS

    @property
    def rounded_up(self) -> bool:
        """Whether more games are played than were asked for (to complete a deal)."""
        return self.games_per_pairing != self.games_requested


def make_schedule(
    players: Sequence[str],
    ruleset: Ruleset,
    games: int,
    seed: int,
    *,
    max_turns: int = DEFAULT_MAX_TURNS,
    max_steps: int = DEFAULT_MAX_STEPS,
    max_games: int | None = None,
) -> Schedule:
    """The games of a tournament between ``players`` (names), ``games`` per pairing.

    A name may be given more than once (a player against itself); each entry is an entrant
    of its own, labelled by :func:`entrants`. Under ``teams=pairs`` every pair of entrants
    meets (in the order given), each taking both seats of a team. Under
    ``teams=individual`` exactly four entrants sit at every game. ``games`` is rounded up
    to a whole number of deals; ``max_games`` (if given) caps the games of the whole
    tournament.
    """
    names = tuple(players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise TournamentError(
            f"a tournament needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}"
        )
    names = entrants(names)
    if games < 1:
        raise TournamentError(f"a tournament needs at least 1 game, not {games}")
    if max_turns < 1 or max_steps < 1:
        raise TournamentError("the turn and step caps must be at least 1")
    individual = ruleset.teams == Teams.INDIVIDUAL
    if individual and len(names) != 4:
        raise TournamentError(
            f"under teams=individual every seat plays alone, so a tournament needs 4 players, "
            f"not {len(names)}"
        )
    pairings = (names,) if individual else tuple(itertools.combinations(names, 2))
    rotations = 4 if individual else 2
    deals = math.ceil(games / rotations)
    if max_games is not None and deals * rotations * len(pairings) > max_games:
        raise TournamentError(
            f"{deals * rotations:,} games for each of {len(pairings)} pairings make "
            f"{deals * rotations * len(pairings):,}; a tournament has at most {max_games:,}"
        )
    canonical = str(ruleset)
    specs: list[GameSpec] = []
    for p, pairing in enumerate(pairings):
        for d in range(deals):
            deal = p * deals + d
            for r in range(rotations):
                specs.append(
                    GameSpec(
                        number=len(specs),
                        deal=deal,
                        rotation=r,
                        seats=_seating(pairing, r),
                        ruleset=canonical,
                        seed=seed,
                        max_turns=max_turns,
                        max_steps=max_steps,
                    )
                )
    return Schedule(
        players=names,
        ruleset=canonical,
        seed=seed,
        mode="individual" if individual else "pairs",
        pairings=pairings,
        games_requested=games,
        games_per_pairing=deals * rotations,
        rotations=rotations,
        specs=tuple(specs),
        max_turns=max_turns,
        max_steps=max_steps,
    )


def entrants(names: Sequence[str]) -> tuple[str, ...]:
    """A label for every player entered: its name, with ``#2``, ``#3``... when it repeats.

    >>> entrants(["random", "greedy", "random"])
    ('random', 'greedy', 'random#2')
    """
    labels: list[str] = []
    for name in names:
        label, copy = name, 1
        while label in labels:
            copy += 1
            label = f"{name}#{copy}"
        labels.append(label)
    return tuple(labels)


def player_name(entrant: str) -> str:
    """The name of the player an entrant label stands for (:func:`pachisi.ai.make_player`).

    >>> player_name("random#2")
    'random'
    """
    return entrant.partition("#")[0]


def _seating(pairing: Sequence[str], rotation: int) -> Seats:
    """Seat the players of a pairing for one rotation.

    Two players: the first takes seats 0+2 in rotation 0 and seats 1+3 in rotation 1.
    Four players: in rotation ``r`` player ``i`` sits at seat ``(i + r) % 4``.
    """
    if len(pairing) == 2:
        a, b = pairing if rotation == 0 else pairing[::-1]
        return (a, b, a, b)
    at = [pairing[(seat - rotation) % 4] for seat in range(4)]
    return (at[0], at[1], at[2], at[3])


def throw_rng(seed: int, deal: int) -> random.Random:
    """The generator of a deal's cowrie throws: the same in every rotation of the deal.

    Seeded from a string, like :func:`pachisi.rules.cowries.game_rngs`, so it is the same in
    every process, on every platform and whatever the order the games are played in.
    """
    return random.Random(f"pachisi:tournament:{seed}:{deal}:throws")


def choice_rng(seed: int, deal: int, rotation: int, side: int) -> random.Random:
    """The generator one side's player uses for its choices in one game.

    A side (a team in pairs, a seat when every seat plays alone) has its own generator, so
    the draws one player makes never shift another's.
    """
    return random.Random(f"pachisi:tournament:{seed}:{deal}:{rotation}:{side}:choices")
