"""Random switch combinations, drawn from ``SWITCHES``, for tests and benchmarks that must
hold for every ruleset and not only for the named ones.

:func:`random_rulesets` starts from a named ruleset and changes a few switches, each to a
value its :class:`~pachisi.rules.ruleset.Switch` allows (a choice, or for the free-form
switches a table, a set of the table's values, a set of squares or a probability), and
keeps the combinations that :func:`~pachisi.rules.ruleset.parse_ruleset` accepts. The same
seed gives the same rulesets.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from pachisi.rules.board import NUM_SQUARES, square_name
from pachisi.rules.choices import Stacking
from pachisi.rules.cowries import CLASSIC_6, HERKLOTS_6, HERKLOTS_7, SEEDS_7
from pachisi.rules.ruleset import NAMED, SWITCHES, Ruleset, RulesetError, parse_ruleset

TABLES = {6: (CLASSIC_6, HERKLOTS_6, (25, 10, 2, 3, 4, 6, 12)), 7: (SEEDS_7, HERKLOTS_7)}
"""Score tables to draw from, by number of cowries (the sources' tables and one more)."""

_NON_LUDII = [name for name in NAMED if name != "ludii"]


def _subset(rng: random.Random, values: tuple[int, ...], *, empty: bool) -> str:
    pool = sorted(set(values))
    chosen = [v for v in pool if rng.random() < 0.5]
    if not chosen and not empty:
        chosen = [rng.choice(pool)]
    return ",".join(map(str, chosen)) if chosen else "none"


def _value(rng: random.Random, key: str, choices: tuple[str, ...], table: tuple[int, ...]) -> str:
    """A value for one switch that its parser accepts (the combination may still be refused)."""
    if choices:
        return rng.choice(choices)
    if key == "score_table":
        return ",".join(map(str, rng.choice(TABLES[len(table) - 1])))
    if key in ("reroll_values", "big_values", "pyada_values"):
        return _subset(rng, table, empty=False)
    if key in ("entry_values", "last_square_exit"):
        return _subset(rng, table, empty=True)
    if key == "stacking":
        kind = rng.random()
        if kind < 0.6:
            return rng.choice(tuple(Stacking))
        squares = rng.sample(range(NUM_SQUARES), rng.randint(1, 24))
        return ",".join(square_name(sq) for sq in sorted(squares))
    if key == "p_mouth_up":
        return rng.choice(("1/2", "2/5", "3/5", "9/20"))
    raise AssertionError(f"no generator for switch {key}")


def random_ruleset(rng: random.Random, changes: int) -> Ruleset | None:
    """A named ruleset (not ``ludii``) with up to ``changes`` switches set at random, or
    None if the combination drawn is refused."""
    base = NAMED[rng.choice(_NON_LUDII)]
    keys = rng.sample([s for s in SWITCHES if s.key != "track"], changes)
    table = base.score_table
    parts = [base.name]
    for switch in keys:
        if switch.key == "cowries":
            continue  # a new table comes with score_table; changing both at once is rare
        value = _value(rng, switch.key, switch.choices, table)
        parts.append(f"{switch.key}={value}")
        if switch.key == "score_table":
            table = tuple(int(v) for v in value.split(","))
    try:
        return parse_ruleset("+".join(parts))
    except RulesetError:
        return None


def random_rulesets(seed: int, count: int, *, max_changes: int = 6) -> Iterator[Ruleset]:
    """``count`` distinct accepted rulesets, drawn reproducibly from ``seed``."""
    rng = random.Random(seed)
    seen: set[str] = set()
    while len(seen) < count:
        r = random_ruleset(rng, rng.randint(1, max_changes))
        if r is None or str(r) in seen or str(r) in NAMED:
            continue
        seen.add(str(r))
        yield r
