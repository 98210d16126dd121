"""An environment's steps when the compiled engine's caches hold another, equal ruleset.

    .venv/bin/python bench/cache_keys.py [--seconds S] [--rounds R] [--ruleset NAME]

The compiled engine's caches (``engine_params``, ``compiled``, a new game's row) are keyed
by the ruleset, and every environment reads its ruleset from its string: a second
environment of one ruleset in a process holds an equal ruleset that is another object, and
each lookup compares the two. This steps a Gym and an AEC environment made after another
AEC environment filled the caches, in turns with the comparison the dataclass would
generate (every field, through two new tuples) and with :class:`Ruleset`'s own (its kept
fields' tuple and hash): steps/s each, ``--rounds`` rounds of ``--seconds``.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable

sys.path.insert(0, "bench")

from env import aec_rate, gym_rate
from pachisi.rules.ruleset import Ruleset


def dataclass_eq() -> Callable[[Ruleset, object], object]:
    """The ``__eq__`` that ``@dataclass`` generates for :class:`Ruleset` (Python 3.11)."""
    names = [f.name for f in dataclasses.fields(Ruleset)]
    mine = ", ".join(f"self.{n}" for n in names)
    theirs = ", ".join(f"other.{n}" for n in names)
    source = (
        "def __eq__(self, other):\n"
        "    if other.__class__ is self.__class__:\n"
        f"        return ({mine},) == ({theirs},)\n"
        "    return NotImplemented\n"
    )
    namespace: dict[str, Callable[[Ruleset, object], object]] = {}
    exec(source, namespace)  # our own generated source, as dataclasses does it
    return namespace["__eq__"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ruleset", default="classic")
    args = parser.parse_args(argv)
    print(f"$ .venv/bin/python bench/cache_keys.py {' '.join(sys.argv[1:])}")
    own = Ruleset.__eq__
    sides = (("dataclass __eq__", dataclass_eq()), ("Ruleset.__eq__", own))
    aec_rate(args.ruleset, 0.5, False)  # the caches now hold this environment's ruleset
    print(f"{'comparison':<20}{'Gym steps/s':>14}{'AEC steps/s':>14}")
    try:
        for _ in range(args.rounds):
            for name, eq in sides:
                Ruleset.__eq__ = eq  # type: ignore[method-assign,assignment]
                gym = gym_rate(args.ruleset, args.seconds)
                aec = aec_rate(args.ruleset, args.seconds, False)
                print(f"{name:<20}{gym:>14,.0f}{aec:>14,.0f}", flush=True)
    finally:
        Ruleset.__eq__ = own  # type: ignore[method-assign]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
