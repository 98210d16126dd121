"""The ``pachisi`` command: look up rulesets, list legal moves, simulate, hold tournaments,
replay and play.

Every subcommand is a thin layer over the library: the rules come from
:mod:`pachisi.rules`, positions and records from :mod:`pachisi.notation`, computer players
from :mod:`pachisi.ai`. Every command exits with the same code for the same kind of
failure (:data:`EXIT_CODES`), and never with a traceback: a mistake in what the user gave
(an argument, ruleset string, position, record, bot name, file or save path) is one line
on stderr and exit code 2.
The words for pieces, actions and events live in :mod:`pachisi.describe`, the terminal
game in :mod:`pachisi.play`. This package holds the command itself: :mod:`.entry` runs it
(:func:`main`), :mod:`.parser` reads its arguments, :mod:`.queries` holds the commands that
answer at once (rules, moves, hint) and :mod:`.games` those that play or go over games
(simulate, tournament, replay, review, play, serve); :mod:`.errors` (exit codes and the
one-line reports) and :mod:`.limits` (the bounds of the numbers) serve them all.
The console script enters through :mod:`pachisi.__main__`, which also turns a Ctrl-C
while this package is still loading into exit code 130; ``python -m pachisi.cli`` runs
:func:`main` directly.

    pachisi rules [NAME] [--json]
    pachisi moves POSITION [POSITION ...] [--json]
    pachisi hint POSITION [POSITION ...] [--level L] [--seed S] [--json]
    pachisi simulate --ruleset R --games N --seed S [--players 2|4] [--bots B]
                     [--engine fast|reference] [--workers K] [--threads T]
                     [--max-turns T] [--max-steps N] [--json]
    pachisi tournament --players A,B[,C,D] --ruleset R --games N --seed S [--workers K]
                       [--ray [ADDRESS]] [--max-steps N] [--json] [--csv FILE]
                       [--plot FILE.png]
    pachisi replay FILE
    pachisi review RECORD [--json] [--workers N] [--seed S]
    pachisi play [--ruleset R] [--seat S] [--seed N] [--bots B] [--save FILE]
                 [--max-steps N] [--color]
    pachisi serve [--host H] [--port P] [--database URL] [--computer-delay SECONDS]
"""

from pachisi.cli.entry import DEBUG_VARIABLE, main
from pachisi.cli.errors import (
    EXIT_CODES,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    CliError,
)
from pachisi.cli.limits import MAX_CAP, MAX_GAMES, MAX_PLAY_STEPS, MAX_SEED, MAX_WORKERS

__all__ = [
    "DEBUG_VARIABLE",
    "EXIT_CODES",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "MAX_CAP",
    "MAX_GAMES",
    "MAX_PLAY_STEPS",
    "MAX_SEED",
    "MAX_WORKERS",
    "CliError",
    "main",
]
