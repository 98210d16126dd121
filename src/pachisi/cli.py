"""The ``pachisi`` command: look up rulesets, list legal moves, simulate, replay and play.

Every subcommand is a thin layer over the library: the rules come from
:mod:`pachisi.rules`, positions and records from :mod:`pachisi.notation`, computer players
from :mod:`pachisi.ai`. Mistakes in what the user typed (a bad ruleset string, position,
bot name or file) end with one line on stderr and exit code 2, never a traceback.

    pachisi rules [NAME] [--json]
    pachisi moves POSITION [--json]
    pachisi simulate --ruleset R --games N --seed S [--players 2|4] [--bots B] [--json]
    pachisi replay FILE
    pachisi play [--ruleset R] [--seat S] [--seed N] [--bots B] [--save FILE] [--color]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import json
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, Final, TextIO

from pachisi.ai.bots import BOT_NAMES, Bot, UnknownBotError, make_bot
from pachisi.game import Game
from pachisi.notation import (
    NotationError,
    RecordError,
    read_position,
    read_record,
    record_from_game,
    replay,
    write_position,
    write_record,
)
from pachisi.render import render_board
from pachisi.rules import engine
from pachisi.rules.actions import DECLINE, Action, ActionKind, InvalidActionError
from pachisi.rules.board import HOME, SEAT_NAMES, SQUARE_OF, square_name
from pachisi.rules.ruleset import (
    ALIASES,
    NAMED,
    Ruleset,
    RulesetError,
    derive,
    describe,
    parse_ruleset,
)
from pachisi.rules.state import CHANCE, Event, Stage, State
from pachisi.simulate import (
    DEFAULT_MAX_TURNS,
    Summary,
    game_rngs,
    simulate,
    wilson_interval,
)

__all__ = ["PlaySession", "board_contents", "describe_action", "main"]

LETTERS: Final = "abcd"

DESCRIPTIONS: Final = {
    "classic": "the rules the sources state most plainly, with the capture bonus (default)",
    "wikipedia-full": "7 cowries and every well-defined 'in some versions' rule switched on",
    "herklots-6": "Deccan six cowries (Herklots 1832): collect throws, pyada, triples cancel",
    "herklots-7": "Deccan seven cowries (Herklots 1832): as herklots-6 with a 30",
    "tylor-1879": "Bengal rules (Tylor 1879, after Mitra): 10/25 start a man, lone men die",
    "ludii": "exactly what Ludii's Pachisi.lud does, for move-by-move comparison",
}
"""One line per named ruleset for ``pachisi rules``."""


class CliError(Exception):
    """A problem with what the user asked for, reported as one line and exit code 2."""


# --------------------------------------------------------------------------- entry point


def main(argv: list[str] | None = None) -> int:
    """Run the ``pachisi`` command with ``argv`` (default: the process arguments)."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        # argparse has already printed its message; tests call main() and want a code.
        return exc.code if isinstance(exc.code, int) else 2
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except BrokenPipeError:
        # The reader went away (e.g. `pachisi rules | head`): stop quietly, like Unix tools.
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115
        return 0
    except (CliError, RulesetError, NotationError, UnknownBotError, OSError) as exc:
        print(f"pachisi: error: {_one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\npachisi: interrupted", file=sys.stderr)
        return 130


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    return " ".join(str(exc).split())


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pachisi",
        description="Pachisi, India's cross-and-circle race game: rules, moves, simulation, play.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("rules", help="list the named rulesets, or show one ruleset's switches")
    p.add_argument("name", nargs="?", metavar="NAME", help="a ruleset, e.g. classic+pyada=true")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_rules)

    p = sub.add_parser("moves", help="list the legal actions (or throws) in a position")
    p.add_argument("position", nargs="+", metavar="POSITION", help="a position string")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=_cmd_moves)

    p = sub.add_parser("simulate", help="play many games between bots and sum up")
    p.add_argument("--ruleset", default="classic", metavar="R", help="default: classic")
    p.add_argument("--games", type=int, default=100, metavar="N", help="default: 100")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="default: 0")
    p.add_argument("--players", type=int, choices=(2, 4), default=4, help="2: players=2")
    p.add_argument(
        "--bots",
        default="random",
        metavar="BOTS",
        help=f"one of {', '.join(BOT_NAMES)} for every seat; or two names split by a comma "
        "(seats 0+2, then 1+3), or four (seats 0..3)",
    )
    p.add_argument(
        "--max-turns",
        type=int,
        default=DEFAULT_MAX_TURNS,
        metavar="T",
        help=f"abandon a game after T turns, as some never end (default: {DEFAULT_MAX_TURNS})",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=_cmd_simulate)

    p = sub.add_parser("replay", help="read a game record and show where it ends")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(run=_cmd_replay)

    p = sub.add_parser("play", help="play a game in the terminal against bots")
    p.add_argument("--ruleset", default="classic", metavar="R", help="default: classic")
    p.add_argument("--seat", type=int, choices=range(4), default=0, metavar="S", help="0..3")
    p.add_argument("--seed", type=int, default=None, metavar="N", help="seed for the throws")
    p.add_argument(
        "--bots",
        default="greedy",
        metavar="BOT",
        help=f"{' or '.join(BOT_NAMES)} (default: greedy)",
    )
    p.add_argument("--save", default=None, metavar="FILE", help="where to save the record")
    p.add_argument("--color", action="store_true", help="colour the board")
    p.set_defaults(run=_cmd_play)
    return parser


# --------------------------------------------------------------------------- words


def piece_name(g: int) -> str:
    """A piece in prose, e.g. ``0.a`` for global piece 0."""
    return f"{g >> 2}.{LETTERS[g & 3]}"


def piece_label(g: int) -> str:
    """A piece as drawn on the board, e.g. ``0a``."""
    return f"{g >> 2}{LETTERS[g & 3]}"


def _where(p: int) -> str:
    return "home" if p == HOME else f"p{p}"


def describe_action(state: State, action: Action) -> str:
    """What a legal action does, in words, e.g. ``move 0.a from p20 to p23 (captures 1.a)``.

    The words come from the events the engine reports for the action, so they cannot
    disagree with the rules.
    """
    _, events = engine.apply_action(state, action)
    return _describe(state, action, events)


def _describe(state: State, action: Action, events: Sequence[Event]) -> str:
    if action.kind is ActionKind.DECLINE:
        if state.stage is Stage.SPEND:
            text = "stop spending (throws not yet used are lost)"
        elif state.stage is Stage.PYADA:
            text = "decline the pyada step"
        elif state.split_left:
            text = f"stop sharing out the {state.split_value}"
        else:
            text = f"decline the {engine.pending_value(state)}"
    else:
        text = _describe_move(action, [e for e in events if e.kind in ("move", "enter")])
    notes: list[str] = []
    captured = [g for e in events if e.kind == "capture" for g in e.pieces]
    if captured:
        notes.append("captures " + ", ".join(piece_name(g) for g in captured))
    if any(e.kind == "annul" for e in events):
        notes.append("annuls a kill")
    if any(e.kind == "win" for e in events):
        notes.append("wins the game")
    elif any(e.kind == "again" for e in events):
        notes.append("throws again")
    return f"{text} ({'; '.join(notes)})" if notes else text


def _describe_move(action: Action, moved: list[Event]) -> str:
    if not moved:
        return str(action)
    who = " and ".join(piece_name(e.piece) for e in moved)
    frm, to = moved[0].frm, moved[0].to
    kind = action.kind
    if kind is ActionKind.ENTER:
        how = "a pyada" if action.pyada else f"the grace {action.value}"
        return f"enter {who} at p{to} with {how}"
    if kind is ActionKind.FREE:
        return f"bring {who} out to p{to} with the {action.value} (first piece, no grace needed)"
    if kind is ActionKind.EXIT:
        return f"finish {who} from the last square with the {action.value}"
    if kind is ActionKind.LAP:
        return f"move {who} from p{frm} by {action.value} into a second lap, to p{to}"
    text = f"move {who} from p{frm} to {_where(to)}"
    if action.pyada:
        text += " (pyada step)"
    elif action.part:
        text += f" ({action.part} of the {action.value})"
    return text


def _event_line(event: Event, before: State) -> str | None:
    """A line for an event that an action's own description does not already tell."""
    r = before.ruleset
    s = event.seat
    kind = event.kind
    if kind == "throw_off":
        return f"Seat {s} throws {_mouths(event.k)} -> {event.value} (throw-off: who begins)"
    if kind == "begins":
        return f"Seat {s} ({SEAT_NAMES[s]}) begins."
    if kind == "throw":
        grace = ""
        if event.value in r.reroll_values:
            # In collect mode the throwing simply goes on; in immediate mode the extra
            # throw comes after the move and has its own "again" event.
            grace = "; grace: throws again" if r.throw_usage == "collect" else " (a grace)"
        return f"Seat {s} throws {_mouths(event.k)} -> {event.value}{grace}"
    if kind == "void":
        return f"  the {event.value} counts for nothing: seat {s} has no piece on the board"
    if kind == "cancel":
        return "  three in a row: the throws are cancelled and the turn ends"
    if kind == "pyada":
        count = event.value
        return f"  seat {s} earns {count} pyada{'s' if count != 1 else ''} (a one-step move)"
    if kind == "again":
        if before.again:
            return f"  grace: seat {s} throws again"
        return f"  capture bonus: seat {s} throws again"
    if kind == "annul":
        return f"  seat {s}'s kill on {square_name(event.to)} is annulled by the recapture"
    if kind == "turn":
        return f"--- seat {s} ({SEAT_NAMES[s]}) to play ---"
    if kind == "win":
        result = engine.outcome(_over(before, event.seat))
        return f"Game over: {result}." if result else "Game over."
    return None


def _over(state: State, winner: int) -> State:
    """A finished copy of ``state``, only to let :func:`engine.outcome` word the result."""
    return state._replace(stage=Stage.OVER, winner=winner)


def _mouths(k: int) -> str:
    return f"{k} mouth{'s' if k != 1 else ''} up"


# --------------------------------------------------------------------------- rules


def _cmd_rules(args: argparse.Namespace) -> int:
    if args.name is None:
        return _list_rulesets(args.json)
    ruleset = parse_ruleset(args.name)
    rows = describe(ruleset)
    if args.json:
        data = {"ruleset": str(ruleset), "name": ruleset.name, "switches": rows}
        print(json.dumps(data, indent=2))
        return 0
    print(f"Ruleset {ruleset.name}; canonical string: {ruleset}")
    headers = {"key": "switch", "value": "value", "default": "default", "rule": "rule"}
    widths = {k: max(len(h), *(len(row[k]) for row in rows)) for k, h in headers.items()}
    line = "  ".join(h.ljust(widths[k]) for k, h in headers.items())
    print(f"  {line}")
    for row in rows:
        mark = "*" if row["value"] != row["default"] else " "
        cells = "  ".join(row[k].ljust(widths[k]) for k in headers)
        print(f"{mark} {cells}  {row['help']}".rstrip())
    print("* differs from the default (classic)")
    return 0


def _list_rulesets(as_json: bool) -> int:
    aliases: dict[str, list[str]] = {name: [] for name in NAMED}
    for alias, name in ALIASES.items():
        aliases[name].append(alias)
    entries = [
        {
            "name": name,
            "aliases": sorted(aliases[name]),
            "description": DESCRIPTIONS.get(name, ""),
            "canonical": str(ruleset),
        }
        for name, ruleset in NAMED.items()
    ]
    if as_json:
        print(json.dumps({"rulesets": entries}, indent=2))
        return 0
    width = max(len(name) for name in NAMED)
    print("Named rulesets (change a switch with NAME+key=value; see `pachisi rules NAME`):")
    for entry in entries:
        print(f"  {str(entry['name']).ljust(width)}  {entry['description']}")
        if entry["aliases"]:
            print(f"  {' ' * width}  aliases: {', '.join(entry['aliases'])}")
    return 0


# --------------------------------------------------------------------------- moves


def _cmd_moves(args: argparse.Namespace) -> int:
    text = " ".join(args.position)
    state = read_position(text)
    data = _moves_data(state)
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    print(_situation(state))
    if data["outcomes"]:
        print("   k  value  probability")
        for o in data["outcomes"]:
            print(f"  {o['k']:>2}  {o['value']:>5}  {o['probability']}")
    for a in data["actions"]:
        print(f"  {a['index']:>2}. {a['action']:<8} {a['description']}")
    return 0


def _moves_data(state: State) -> dict[str, Any]:
    player = engine.current_player(state)
    result = engine.outcome(state)
    data: dict[str, Any] = {
        "position": write_position(state),
        "ruleset": str(state.ruleset),
        "to_move": "chance" if player == CHANCE else ("over" if result else "seat"),
        "seat": None if result else state.seat,
        "actions": [],
        "outcomes": [],
        "outcome": str(result) if result else None,
    }
    if player == CHANCE:
        table = state.ruleset.score_table
        data["outcomes"] = [
            {"k": k, "value": table[k], "probability": str(pr)}
            for k, pr in engine.chance_outcomes(state)
        ]
    else:
        data["actions"] = [
            {"index": i, "action": str(a), "description": describe_action(state, a)}
            for i, a in enumerate(engine.legal_actions(state), start=1)
        ]
    return data


def _situation(state: State) -> str:
    """Who is to do what, in one line."""
    result = engine.outcome(state)
    if result is not None:
        return f"Game over: {result}."
    s = state.seat
    who = f"Seat {s} ({SEAT_NAMES[s]})"
    if state.stage is Stage.THROW_OFF:
        return f"{who} throws to decide who begins:"
    if state.stage is Stage.THROW:
        return f"{who} throws:"
    m = engine.mover(state)
    pieces = "" if m == s else f" (moving seat {m}'s pieces)"
    if state.split_left:
        return f"{who}{pieces}: {state.split_left} of the {state.split_value} still to share out"
    if state.stage is Stage.PYADA:
        return f"{who}{pieces}: a pyada step to use"
    if state.stage is Stage.SPEND:
        items = ", ".join(str(v) for v in state.items) or "none"
        extra = f", pyadas: {state.pyadas}" if state.pyadas else ""
        return f"{who}{pieces}: throws to spend: {items}{extra}"
    return f"{who}{pieces}: the throw is {engine.pending_value(state)}"


# --------------------------------------------------------------------------- simulate


def _bot_names(text: str) -> list[str]:
    """Seat-by-seat bot names from ``--bots``: one for all, one per team, or one per seat."""
    names = [n.strip().lower() for n in text.split(",")]
    if len(names) in (1, 2):
        names = (names * 4)[:4]
    if len(names) != 4:
        raise CliError(f"--bots takes 1, 2 (per team) or 4 (per seat) names, not {text!r}")
    for name in names:
        make_bot(name)  # raises UnknownBotError with the list of names
    return names


def _cmd_simulate(args: argparse.Namespace) -> int:
    if args.games < 0:
        raise CliError("--games cannot be negative")
    if args.max_turns < 1:
        raise CliError("--max-turns must be at least 1")
    ruleset = parse_ruleset(args.ruleset)
    if args.players == 2 and ruleset.players != 2:
        ruleset = derive(ruleset, {"players": 2})
    bots: list[Bot] = [make_bot(name) for name in _bot_names(args.bots)]
    bar = _ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    summary = simulate(ruleset, args.games, args.seed, bots, progress=bar, max_turns=args.max_turns)
    if bar is not None:
        bar.close()
    if args.json:
        print(json.dumps(summary.as_dict()))
    else:
        print(_summary_text(summary))
    return 0


class _ProgressBar:
    """A one-line progress bar redrawn in place on a terminal."""

    WIDTH: Final = 30

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.start = time.perf_counter()
        self.last = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        # Redrawing after every fast game would cost more than the games themselves.
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        filled = self.WIDTH * done // total if total else self.WIDTH
        bar = "#" * filled + "." * (self.WIDTH - filled)
        self.stream.write(f"\r[{bar}] {done}/{total} games  {now - self.start:.1f} s")
        self.stream.flush()

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def _summary_text(s: Summary) -> str:
    lines = [
        f"ruleset  {s.ruleset}",
        f"bots     {', '.join(s.bots)} (seats 0..3)",
        f"seed     {s.seed}",
        f"games    {s.games} ({s.unfinished} unfinished: {s.deadlocked} deadlocked, "
        f"{s.unfinished - s.deadlocked} stopped after {s.max_turns} turns)",
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
    return "\n".join(lines)


def _rate(wins: int, games: int) -> str:
    lo, hi = wilson_interval(wins, games)
    share = wins / games if games else 0.0
    return f"{wins:>6}  {share:6.1%}  [{lo:.1%}, {hi:.1%}]"


# --------------------------------------------------------------------------- replay


def _cmd_replay(args: argparse.Namespace) -> int:
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError:
        raise CliError(f"{args.file}: not a text (UTF-8) file") from None
    try:
        game = replay(read_record(text))
    except RecordError as exc:
        for problem in exc.errors:
            print(
                f"{args.file}:{problem.line}:{problem.column}: {problem.message}", file=sys.stderr
            )
        if not exc.errors:
            print(f"{args.file}: {_one_line(exc)}", file=sys.stderr)
        return 1
    print(write_position(game.state))
    result = game.outcome()
    print(f"Game over: {result}." if result else f"Not over. {_situation(game.state)}")
    return 0


# --------------------------------------------------------------------------- play


def _cmd_play(args: argparse.Namespace) -> int:
    ruleset = parse_ruleset(args.ruleset)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    if args.save is not None:
        # Refuse a path that cannot be written before the game, not after it.
        folder = os.path.dirname(os.path.abspath(args.save))
        if not os.path.isdir(folder):
            raise CliError(f"{args.save}: no such directory to save the game in")
    session = PlaySession(
        ruleset,
        human=args.seat,
        seed=seed,
        bot=args.bots,
        save=args.save,
        color=args.color,
        inp=sys.stdin,
        out=sys.stdout,
    )
    return session.run()


HELP: Final = """\
Type the number of an action, or the action itself (0a+4: piece 0.a by the throw 4;
0ab+4: two pieces together; 0b@25: enter with a grace; 0a+p: a pyada step; -: decline).
Other commands:
  board        draw the board again and list the actions
  ? or help    this help
  quit         save the game and stop (end of input does the same)
Positions are progress along your own route: p1 is your first square, p83 the last,
then home. On the board a piece is its seat and letter (0a); a digit after it is the
height of the stack; [ ] marks the squares your listed actions reach."""


STALL_TURNS: Final = 200
"""Turns without any piece moving after which ``play`` asks whether to go on."""


class PlaySession:
    """A game in the terminal: one person (seat S, and its partner with ``players=2``)
    against bots. Reads commands from ``inp`` and writes to ``out``, so a pipe can drive it.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        *,
        human: int,
        seed: int,
        bot: str,
        save: str | None,
        color: bool,
        inp: TextIO,
        out: TextIO,
    ) -> None:
        self.game = Game(ruleset)
        self.humans = {human, (human + 2) % 4} if ruleset.players == 2 else {human}
        self.bots: dict[int, Bot] = {s: make_bot(bot) for s in range(4) if s not in self.humans}
        self.seed = seed
        self.throws, self.choices = game_rngs(seed, 0)
        self.save_path = save
        self.color = color
        self.inp = inp
        self.out = out
        self.started = datetime.date.today()
        self.still_since = self.game.state.turn
        """The turn since which no piece has moved (see :data:`STALL_TURNS`)."""

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def run(self) -> int:
        """Play until the game ends, the person quits or input ends; then save the record."""
        r = self.game.ruleset
        you = " and ".join(str(s) for s in sorted(self.humans))
        self.say(
            f"Pachisi, ruleset {r}. You play seat{'s' if len(self.humans) > 1 else ''} "
            f"{you}; the other seats are {next(iter(self.bots.values())).name} bots."
        )
        self.say(f"Seed {self.seed} (the throws can be repeated with --seed {self.seed}).")
        self.say("Type ? for help.")
        code = 0
        try:
            while not self.game.is_over():
                if not self._step():
                    self.say("Stopped before the end of the game.")
                    break
            else:
                self._show_board()
        except KeyboardInterrupt:
            self.say("\nInterrupted.")
            code = 130
        self._save()
        return code

    # ----------------------------------------------------------------- one step

    def _step(self) -> bool:
        """Make one throw or one decision; False if the person stopped."""
        player = self.game.current_player()
        before = self.game.state
        if engine.is_deadlocked(before):
            self.say(
                "No side can win any more: every side has a seat whose pieces can no longer "
                "capture and, without a kill credit, cannot go home (V-KILL-BEFORE-HOME)."
            )
            return False
        if before.turn - self.still_since >= STALL_TURNS and not self._keep_going():
            return False
        if player == CHANCE:
            self._report(before, self.game.throw(self.throws))
            return True
        if player in self.humans:
            action = self._ask(before)
            if action is None:
                return False
            who = "You play"
        else:
            action = self.bots[player].choose(before, self.choices)
            who = f"Seat {player} ({self.bots[player].name}) plays"
        events = self.game.push(action)
        self.say(f"{who} {action}: {_describe(before, action, events)}")
        self._report(before, events)
        if self.game.state.pos != before.pos:
            self.still_since = self.game.state.turn
        return True

    def _keep_going(self) -> bool:
        """Ask whether to go on after a long spell with no piece moving; False to stop.

        The rules have no turn limit (R-NO-LIMIT), so a game whose pieces can no longer
        move would otherwise pass turns forever without ever asking the person anything.
        """
        self.say(f"No piece has moved for {STALL_TURNS} turns; the game may be unable to end.")
        self.out.write("Press Enter to go on, or type quit: ")
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            return False
        self._echo(line)
        if line.strip().lower() in ("quit", "q", "exit"):
            return False
        self.still_since = self.game.state.turn
        return True

    def _echo(self, line: str) -> None:
        if not self.inp.isatty():
            # Piped input is not echoed by a terminal; show it so the transcript reads.
            self.out.write(line if line.endswith("\n") else line + "\n")

    def _report(self, before: State, events: Sequence[Event]) -> None:
        for event in events:
            line = _event_line(event, before)
            if line is not None:
                self.say(line)

    def _ask(self, state: State) -> Action | None:
        """The person's choice among the legal actions; None on quit or end of input."""
        actions = self.game.legal_actions()
        if actions == (DECLINE,):
            self.say(f"{_situation(state)}; nothing can use it, so you pass.")
            return DECLINE
        self._show_board(actions)
        self._list(state, actions)
        while True:
            self.out.write(f"Your choice (1-{len(actions)}, an action, ? for help): ")
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.say()
                return None
            self._echo(line)
            command = "".join(line.split())
            if not command:
                continue
            lowered = command.lower()
            if lowered in ("?", "help", "h"):
                self.say(HELP)
            elif lowered == "board":
                self._show_board(actions)
                self._list(state, actions)
            elif lowered in ("quit", "q", "exit"):
                return None
            else:
                try:
                    return self._choice(command, actions)
                except ValueError as exc:
                    self.say(str(exc))

    def _choice(self, command: str, actions: Sequence[Action]) -> Action:
        """Read a number or an action; ``ValueError`` with a message the person can act on."""
        if command.isdigit():
            n = int(command)
            if not 1 <= n <= len(actions):
                raise ValueError(f"There is no action {n}; choose 1 to {len(actions)}.")
            return actions[n - 1]
        try:
            action = Action.parse(command)
        except InvalidActionError:
            raise ValueError(
                f"{command!r} is neither a number nor an action. Type ? for help."
            ) from None
        if action not in actions:
            listed = ", ".join(str(a) for a in actions)
            raise ValueError(f"{action} is not legal now. Legal: {listed}.")
        return action

    def _list(self, state: State, actions: Sequence[Action]) -> None:
        self.say(f"{_situation(state)}")
        for i, action in enumerate(actions, start=1):
            self.say(f"  {i:>2}. {action!s:<8} {describe_action(state, action)}")

    # ----------------------------------------------------------------- board

    def _show_board(self, actions: Sequence[Action] = ()) -> None:
        state = self.game.state
        highlight: set[int] = set()
        for action in actions:
            _, events = engine.apply_action(state, action)
            for e in events:
                if e.kind in ("move", "enter") and 0 < e.to < HOME:
                    highlight.add(SQUARE_OF[e.seat][e.to])
        stacks, waiting, home = board_contents(state)
        charkoni = waiting + [f"{label}(home)" for label in home]
        self.say(render_board(stacks, charkoni=charkoni, highlight=highlight, color=self.color))

    # ----------------------------------------------------------------- saving

    def _save(self) -> None:
        path = self.save_path or f"pachisi-{self.started:%Y%m%d}-{self.seed}.pgn"
        tags = {
            "Event": "pachisi play",
            "Date": f"{self.started:%Y.%m.%d}",
            "Seed": str(self.seed),
        }
        for s in range(4):
            tags[f"Seat{s}"] = "human" if s in self.humans else f"{self.bots[s].name} bot"
        record = record_from_game(self.game, tags)
        with open(path, "w", encoding="utf-8") as f:
            f.write(write_record(record))
        self.say(f"Game saved to {path}")


def board_contents(state: State) -> tuple[dict[int, list[str]], list[str], list[str]]:
    """The pieces as the board shows them: square -> labels bottom to top, then the
    labels of the waiting pieces and of the pieces home."""
    stacks: dict[int, list[str]] = {}
    order = state.order if state.order else range(16)
    for g in order:
        p = state.pos[g]
        if 0 < p < HOME:
            stacks.setdefault(SQUARE_OF[g >> 2][p], []).append(piece_label(g))
    waiting = [piece_label(g) for g, p in enumerate(state.pos) if p == 0]
    home = [piece_label(g) for g, p in enumerate(state.pos) if p == HOME]
    return stacks, waiting, home


if __name__ == "__main__":
    sys.exit(main())
