"""``pachisi explore``: its arguments and what it does with them.

``pachisi.cli`` adds the parser (:func:`add_parser`) and runs :func:`run` with the parsed
arguments; bad input raises :class:`~pachisi.explore.errors.ExploreError` (a
``ValueError``), which the CLI reports in one line, before any game is played.
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable
from typing import Any

from pachisi.explore.settings import LOCAL_RAY, PACE_SECONDS, PLAYERS

__all__ = ["add_parser", "run"]

Integer = Callable[[int, int], Callable[[str], int]]


def _pace(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:24]!r} is not a number of seconds") from None
    if not 0.1 <= value <= 600:
        raise argparse.ArgumentTypeError(f"{text[:24]} is not from 0.1 to 600 seconds")
    return value


def _width(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text[:24]!r} is not a number") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text[:24]} is not between 0 and 1 (0.01: 1%)")
    return value


def add_parser(sub: Any, integer: Integer, max_games: int, max_seed: int, max_workers: int) -> None:
    """Add ``explore`` to the CLI's subcommands (``integer`` is its whole-number type)."""
    p = sub.add_parser(
        "explore",
        help="measure rulesets side by side: game length, draws, fairness, captures, skill",
        description="Play the same seeded games under many rulesets and measure each: length "
        "(throws, actions, turns, minutes), draws and unfinished games, each seat's and "
        "team's wins and the first mover's edge, captures per game, and how often greedy "
        "beats random. Every figure has a 95%% interval.",
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument("--named", action="store_true", help="every named ruleset (the default)")
    which.add_argument(
        "--flip-from",
        metavar="BASE",
        help="BASE, then every choice of every switch with listable choices, one at a time",
    )
    which.add_argument(
        "--grid",
        metavar="SPEC",
        help='every combination of "key=v,v;key=v,v" on top of --base (a value that is '
        'itself a set is separated by |: "reroll_values=2,3|6,25")',
    )
    p.add_argument("--base", default="classic", metavar="R", help="--grid's base (classic)")
    p.add_argument(
        "--games",
        type=integer(1, max_games),
        default=1000,
        metavar="N",
        help="games per variant (default: 1000)",
    )
    p.add_argument("--seed", type=integer(0, max_seed), default=0, metavar="S", help="default: 0")
    p.add_argument(
        "--players",
        choices=PLAYERS,
        default="random",
        help="who plays the measured games, all four seats (default: random)",
    )
    p.add_argument(
        "--skill-games",
        type=integer(0, max_games),
        default=0,
        metavar="N",
        help="also play N games (even) of greedy against random, two against two, each "
        "pairing on both sides of the board (default: 0, none)",
    )
    p.add_argument(
        "--strong-games",
        type=integer(0, max_games),
        default=0,
        metavar="N",
        help="also play N games (even) of learned against greedy, two against two, where a "
        "network was trained for the variant's rules (the named ones and "
        "classic+teams=individual; on worker processes with --workers)",
    )
    p.add_argument(
        "--capture-games",
        type=integer(0, max_games),
        default=0,
        metavar="N",
        help="replay the first N measured games of each variant on the rules engine, whose "
        "events say where each capture was made from: the share of captures made from a "
        "castle and of those that sent back a stack (default: 0, none)",
    )
    p.add_argument(
        "--pace",
        type=_pace,
        default=PACE_SECONDS,
        metavar="SECONDS",
        help=f"a person's seconds per throw or move, for the minutes (default: {PACE_SECONDS:g})",
    )
    p.add_argument(
        "--workers",
        type=integer(1, max_workers),
        default=1,
        metavar="K",
        help="spread each variant's games over K processes (the same numbers)",
    )
    p.add_argument(
        "--precision",
        type=_width,
        default=None,
        metavar="W",
        help="play rounds of --games (and of the skill games) until every interval is at "
        "most W wide: rates in absolute terms (0.01: one point), lengths and captures "
        "relative to their value",
    )
    p.add_argument(
        "--max-games",
        type=integer(1, max_games),
        default=max_games,
        metavar="N",
        help=f"with --precision, at most N measured games per variant (default: {max_games})",
    )
    p.add_argument(
        "--results",
        metavar="PATH",
        help="stream every game played to PATH (JSON Lines); a run given its own file again "
        "resumes where it stopped, playing no game twice",
    )
    p.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL_RAY,
        default=None,
        metavar="ADDRESS",
        help="play the jobs on Ray, with the same numbers: on the cluster whose head is at "
        "ADDRESS (host:port, or auto), or on a Ray started here for the run with ADDRESS left "
        "out (on --workers CPUs if given). Needs pip install 'pachisi[ray]'",
    )
    p.add_argument("--csv", metavar="PATH", help="also write one CSV row per variant")
    p.add_argument("--json", metavar="PATH", help="also write the whole exploration as JSON")
    p.add_argument(
        "--html",
        metavar="PATH",
        help="also write a self-contained HTML report: the table and plots of length, "
        "fairness and skill against luck",
    )
    p.add_argument(
        "--plots",
        metavar="DIR",
        help="also write those plots as DIR/length.png, DIR/fairness.png, DIR/skill.png",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Plan, play, print the table and write the files asked for."""
    from rich.console import Console

    from pachisi import __version__
    from pachisi.explore import explore
    from pachisi.explore.errors import ExploreError
    from pachisi.explore.html import PLOTS, as_html, plot_png
    from pachisi.explore.report import as_csv, as_json, print_table
    from pachisi.explore.settings import Settings
    from pachisi.explore.variants import Plan as PlanType
    from pachisi.explore.variants import (
        flip_variants,
        grid_variants,
        named_variants,
    )
    from pachisi.progress import games_bar
    from pachisi.savefile import check_save_path, save_bytes, save_text
    from pachisi.tournament.ray_backend import RayError

    for path in (args.csv, args.json, args.results, args.html):
        if path is not None:
            check_save_path(path)
    if args.plots is not None:
        for name in PLOTS:
            check_save_path(os.path.join(args.plots, f"{name}.png"))
    if args.ray is not None:
        from pachisi.tournament.ray_backend import parse_address, require_ray

        try:
            require_ray()
            if args.ray != LOCAL_RAY:
                parse_address(args.ray)
        except RayError as exc:
            raise ExploreError(f"--ray: {exc}") from None
        if args.ray != LOCAL_RAY and args.workers > 1:
            raise ExploreError(
                f"--ray: --workers sets the CPUs of a local Ray; the cluster at {args.ray} has "
                "its own (leave out --workers, or give --ray without an address)"
            )
    try:
        settings = Settings(
            games=args.games,
            seed=args.seed,
            players=args.players,
            skill_games=args.skill_games,
            strong_games=args.strong_games,
            capture_games=args.capture_games,
            workers=args.workers,
            pace=args.pace,
            precision=args.precision,
            max_games=max(args.max_games, args.games),
        )
    except ValueError as exc:
        # The settings' own checks (an odd number of skill games, for one).
        raise ExploreError(str(exc)) from None
    if args.flip_from is not None:
        plan = flip_variants(args.flip_from)
    elif args.grid is not None:
        plan = grid_variants(args.grid, args.base)
    else:
        plan = PlanType(named_variants())
    total = len(plan.variants) * (settings.games + settings.skill_games + settings.strong_games)
    played = [0]
    with games_bar(total, show=sys.stderr.isatty()) as bar:

        def advance(n: int) -> None:
            # Rounds past the first (--precision) add to the total as they come.
            played[0] += n
            bar(played[0], max(total, played[0]))

        try:
            results = explore(
                plan, settings, advance, results=args.results, version=__version__, ray=args.ray
            )
        except RayError as exc:
            raise ExploreError(f"--ray: {exc}") from None
    # Piped into a file or another program, the table keeps its width instead of folding
    # to 80 columns.
    print_table(results, settings, Console() if sys.stdout.isatty() else Console(width=230))
    for text, why in plan.skipped:
        print(f"skipped {text}: {why}")
    if args.csv is not None:
        save_text(args.csv, as_csv(results))
    if args.json is not None:
        save_text(args.json, as_json(results, settings, plan.skipped, __version__))
    if args.html is not None:
        command = "pachisi " + " ".join(shlex.quote(a) for a in sys.argv[1:])
        save_text(args.html, as_html(results, settings, plan.skipped, __version__, command))
    if args.plots is not None:
        for name in PLOTS:
            save_bytes(os.path.join(args.plots, f"{name}.png"), plot_png(results, name))
    return 0
