"""The ``pachisi`` commands that play or go over whole games: ``simulate`` (many games
between bots), ``tournament`` (computer players against each other), ``replay`` and
``review`` (a game record), ``play`` (a game in the terminal) and ``serve`` (the web game).

The heavy parts (the tournament's statistics, the review's search, the web server) are
imported inside the command that needs them, so that the other commands start quickly.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Final

from pachisi.ai.bots import Bot
from pachisi.ai.players import make_player
from pachisi.cli.errors import EXIT_USAGE, CliError, complain, one_line
from pachisi.cli.limits import MAX_GAMES
from pachisi.describe import situation
from pachisi.notation import RecordError, read_game_file, write_position
from pachisi.play import run_play
from pachisi.progress import games_bar
from pachisi.rules.board import SEAT_NAMES
from pachisi.rules.ruleset import derive, parse_ruleset
from pachisi.savefile import check_save_path, save_text
from pachisi.simulate import Summary, fast_plays, simulate, wilson_interval
from pachisi.web.options import settings_from

# --------------------------------------------------------------------------- simulate


def _bot_names(text: str) -> list[str]:
    """Seat-by-seat bot names from ``--bots``: one for all, one per team, or one per seat."""
    names = [n.strip().lower() for n in text.split(",")]
    if len(names) in (1, 2):
        names = (names * 4)[:4]
    if len(names) != 4:
        raise CliError(f"--bots takes 1, 2 (per team) or 4 (per seat) names, not {text!r}")
    for name in names:
        make_player(name)  # raises UnknownBotError with the list of names
    return names


def simulate_command(args: argparse.Namespace) -> int:
    ruleset = parse_ruleset(args.ruleset)
    if args.players == 2 and ruleset.players != 2:
        ruleset = derive(ruleset, {"players": 2})
    bots: list[Bot] = [make_player(name) for name in _bot_names(args.bots)]
    chosen = args.engine
    if args.engine is None:
        args.engine = "fast" if fast_plays(bots) else "reference"
    elif args.engine == "fast" and not fast_plays(bots):
        raise CliError("--engine fast plays only the random and greedy bots; use the reference")
    if args.engine == "fast":
        from pachisi.fast.params import FastEngineError, engine_params

        try:
            # What simulate plays the games with; where the extension was not built,
            # importing it raises CompiledEngineMissing, an ImportError.
            import pachisi.ai.playouts  # noqa: F401

            engine_params(ruleset)
        except ImportError as exc:
            # CompiledEngineMissing: this installation has no compiled engine.
            if chosen == "fast":
                raise CliError(f"--engine fast: {exc}") from None
            print(f"pachisi: {exc}; playing with the reference engine", file=sys.stderr)
            args.engine = "reference"
        except FastEngineError as exc:
            if chosen == "fast":
                raise CliError(f"--engine fast cannot play this ruleset: {exc}") from None
            print(
                f"pachisi: the compiled engine cannot play this ruleset ({exc}); "
                "playing it with the reference engine",
                file=sys.stderr,
            )
            args.engine = "reference"
    if args.threads > 1 and args.engine != "fast":
        raise CliError(
            "--threads spreads the compiled engine's games; the reference engine uses --workers"
        )
    with games_bar(args.games, show=sys.stderr.isatty()) as bar:
        summary = simulate(
            ruleset,
            args.games,
            args.seed,
            bots,
            progress=bar,
            max_turns=args.max_turns,
            max_steps=args.max_steps,
            engine_name=args.engine,
            workers=args.workers,
            threads=args.threads,
        )
    if args.json:
        print(json.dumps(summary.as_dict()))
    else:
        print(_summary_text(summary))
    return 0


def _summary_text(s: Summary) -> str:
    lines = [
        f"ruleset  {s.ruleset}",
        f"bots     {', '.join(s.bots)} (seats 0..3)",
        f"seed     {s.seed}",
        f"games    {s.games}",
        f"draws    {_rate(s.draws, s.games)}  (no side could win any more, R-DEADLOCK, "
        "or no piece could move, R-FROZEN)",
        f"time     {s.seconds:.2f} s ({s.games_per_second:.1f} games/s)",
        f"mean     {s.mean_throws:.1f} throws, {s.mean_actions:.1f} actions, "
        f"{s.mean_captures:.2f} captures per game",
        "wins     (share of games, 95% Wilson interval)",
    ]
    rows = [(f"seat {seat} ({SEAT_NAMES[seat]})", w) for seat, w in enumerate(s.wins_by_seat)]
    if s.wins_by_team is not None:
        rows += [
            (f"team {team} (seats {team}+{team + 2})", w) for team, w in enumerate(s.wins_by_team)
        ]
    width = max(len(label) for label, _ in rows)
    lines += [f"  {label.ljust(width)} {_rate(wins, s.games)}" for label, wins in rows]
    if s.unfinished:
        lines.append(
            f"unfinished {s.unfinished} (abandoned after {s.max_turns} turns or "
            f"{s.max_steps} steps with no result)"
        )
    return "\n".join(lines)


def _rate(wins: int, games: int) -> str:
    lo, hi = wilson_interval(wins, games)
    share = wins / games if games else 0.0
    return f"{wins:>6}  {share:6.1%}  [{lo:.1%}, {hi:.1%}]"


# --------------------------------------------------------------------------- tournament


LOCAL_RAY: Final = "local"
"""``tournament --ray`` without an address: a Ray started for the run on this machine."""


def tournament_command(args: argparse.Namespace) -> int:
    # Imported here: the tournament's statistics load numpy, which other commands skip.
    from pachisi.tournament import TournamentError, games_csv, make_schedule, run_games, summarise
    from pachisi.tournament.plot import PLOT_FORMATS, save_ladder
    from pachisi.tournament.ray_backend import (
        RayError,
        parse_address,
        require_ray,
        run_games_on_ray,
    )

    ruleset = parse_ruleset(args.ruleset)
    names = [n.strip().lower() for n in args.players.split(",")]
    for name in names:
        make_player(name)  # raises UnknownBotError with the list of names
    try:
        plan = make_schedule(
            names,
            ruleset,
            args.games,
            args.seed,
            max_steps=args.max_steps,
            max_games=MAX_GAMES,
        )
    except TournamentError as exc:
        raise CliError(str(exc)) from None
    if args.plot is not None and not args.plot.lower().endswith(PLOT_FORMATS):
        raise CliError(f"--plot {args.plot!r}: the file must end in {', '.join(PLOT_FORMATS)}")
    outputs = [path for path in (args.csv, args.plot) if path is not None]
    for path in outputs:
        check_save_path(path)
    if len({os.path.realpath(path) for path in outputs}) < len(outputs):
        raise CliError("--csv and --plot name the same file")
    address = None if args.ray in (None, LOCAL_RAY) else args.ray
    if address is not None and args.workers is not None:
        raise CliError(
            f"--workers sets the CPUs of a local Ray; the cluster at {address} has its own "
            "(leave out --workers, or give --ray without an address)"
        )
    if args.ray is not None:
        try:
            require_ray()
            if address is not None:
                parse_address(address)
        except RayError as exc:
            raise CliError(f"--ray: {exc}") from None
    if plan.rounded_up:
        seatings = "both seatings" if plan.rotations == 2 else f"all {plan.rotations} seatings"
        complain(
            f"pachisi: {plan.games_requested} games rounded up to {plan.games_per_pairing}, so "
            f"that every throw sequence is played in {seatings}"
        )
    start = time.perf_counter()
    with games_bar(len(plan.specs), show=sys.stderr.isatty()) as bar:
        if args.ray is None:
            results = run_games(plan.specs, workers=args.workers or 1, progress=bar)
        else:
            try:
                results = run_games_on_ray(
                    plan.specs, address=address, num_cpus=args.workers, progress=bar
                )
            except RayError as exc:
                raise CliError(f"--ray: {exc}") from None
    report = summarise(plan, results, seconds=time.perf_counter() - start)
    print(json.dumps(report.as_dict()) if args.json else report.text())
    if args.csv is not None:
        save_text(args.csv, games_csv(results))
    if args.plot is not None:
        save_ladder(report, args.plot)
    return 0


# --------------------------------------------------------------------------- replay


def replay_command(args: argparse.Namespace) -> int:
    try:
        # One pass: the size limit first, then every move replayed as it is read.
        game = read_game_file(args.file)
    except RecordError as exc:
        for problem in exc.errors:
            print(
                f"{args.file}:{problem.line}:{problem.column}: {problem.message}", file=sys.stderr
            )
        if not exc.errors:
            print(f"{args.file}: {one_line(exc)}", file=sys.stderr)
        return EXIT_USAGE
    print(write_position(game.state))
    result = game.outcome()
    print(f"Game over: {result}." if result else f"Not over. {situation(game.state)}")
    return 0


# --------------------------------------------------------------------------- review


def review_command(args: argparse.Namespace) -> int:
    # Imported here, as the search it runs is: the other commands need neither.
    from pachisi.notation import read_record_file
    from pachisi.review import process_pool, review
    from pachisi.review.terminal import PipeConsole, print_review, steps_bar

    record = read_record_file(args.file)
    with (
        process_pool(args.workers, seed=args.seed) as run,
        steps_bar(show=not args.json and sys.stderr.isatty()) as bar,
    ):
        result = review(record, seed=args.seed, run=run, progress=bar)
    if args.json:
        print(json.dumps(result.to_json(), indent=1))
    else:
        print_review(result, PipeConsole())
    return 0


# --------------------------------------------------------------------------- play


def play_command(args: argparse.Namespace) -> int:
    ruleset = parse_ruleset(args.ruleset)
    return run_play(
        ruleset,
        seat=args.seat,
        seed=args.seed,
        bot=args.bots,
        save=args.save,
        color=args.color,
        inp=sys.stdin,
        out=sys.stdout,
        err=sys.stderr,
        max_steps=args.max_steps,
    )


# --------------------------------------------------------------------------- serve


def serve_command(args: argparse.Namespace) -> int:
    # Imported here: the web server's packages (FastAPI, SQLAlchemy, uvicorn) take a while
    # to load, and no other command needs them.
    from pachisi.web.server import COMPUTER_DELAY, ServeError, serve
    from pachisi.web.storage import StorageError

    delay = COMPUTER_DELAY if args.computer_delay is None else args.computer_delay
    try:
        serve(
            args.host,
            args.port,
            args.database,
            computer_delay=delay,
            settings=settings_from(args),
            proxy_headers=args.proxy_headers,
        )
    except (ServeError, StorageError) as exc:
        raise CliError(str(exc)) from None
    return 0
