"""The terminal game behind ``pachisi play``: one person against bots, driven by text.

:class:`PlaySession` reads commands from one stream and writes the board, the actions
and what happens to another, so a pipe can drive it as well as a person can; at the end
it saves the game record. :func:`run_play` is the body of the ``play`` command.

A game played here is never lost: the save path is checked before the first throw
(:func:`check_save_path`); the record is saved however the session ends (the game is
over, the person quits, input ends or cannot be decoded, the output is closed, Ctrl-C, a
cap is reached, even an internal error); and it is written atomically
(:func:`save_text`), so a second Ctrl-C cannot leave a half-written file behind.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import random
import re
import sys
from collections.abc import Sequence
from typing import Final, TextIO

from pachisi.ai.bots import Bot
from pachisi.ai.games import DEFAULT_MAX_STEPS
from pachisi.ai.players import make_player
from pachisi.describe import describe_action, describe_played, event_line, piece_label, situation
from pachisi.game import Game
from pachisi.notation import record_from_game, write_record
from pachisi.render import render_board
from pachisi.rules import engine
from pachisi.rules.actions import DECLINE, Action, InvalidActionError
from pachisi.rules.board import HOME, SQUARE_OF, person_seats
from pachisi.rules.cowries import game_rngs
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import CHANCE, Event, State
from pachisi.savefile import check_save_path, save_text, sigint_held

__all__ = [
    "HELP",
    "MAX_STEPS",
    "STALL_TURNS",
    "PlaySession",
    "board_contents",
    "default_save_path",
    "run_play",
]


def run_play(
    ruleset: Ruleset,
    *,
    seat: int,
    seed: int | None,
    bot: str,
    save: str | None,
    color: bool,
    inp: TextIO,
    out: TextIO,
    err: TextIO | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    start: State | None = None,
) -> int:
    """Play one game in the terminal as seat ``seat``; the exit code of ``pachisi play``.

    Without a ``seed`` the throws get a fresh random one, which the game prints and saves.
    Without ``save`` the record goes to :func:`default_save_path` in the current directory.
    Either path is checked first: :class:`SavePathError` if the record could not be saved
    there, before anything is played.
    """
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
    path = save if save is not None else default_save_path(seed)
    check_save_path(path)
    if isinstance(inp, io.TextIOWrapper):
        # A stray byte that is not UTF-8 must cost one unreadable line, not the game: a
        # strict decoder raises, and the stream then drops everything it had read ahead.
        inp.reconfigure(errors="replace")
    session = PlaySession(
        ruleset,
        human=seat,
        seed=seed,
        bot=bot,
        save=path,
        color=color,
        inp=inp,
        out=out,
        err=err,
        max_steps=max_steps,
        start=start,
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

MAX_STEPS: Final = DEFAULT_MAX_STEPS
"""Steps (throws and actions) after which ``play`` stops a game that has not ended.

The rules set no limit (R-NO-LIMIT), and some games cannot end: under
``deadlock=continue`` a blocked game goes on for ever, and once the person's seats have
finished the bots play on alone without asking anything. The cap is the one
:mod:`pachisi.simulate` uses, far above the 400 to 1,600 steps of a real game.
"""

_NUMBER: Final = re.compile(r"[0-9]+")
"""An action number: ASCII digits only (``str.isdigit`` also takes ``²`` and ``٣``)."""
_NUMBER_DIGITS: Final = 6
"""More significant digits than this name no action, so they are never converted."""
_EXCERPT: Final = 24
"""The longest piece of the person's input quoted back in a message."""


class _OutputGone(Exception):
    """The output stream is closed (e.g. ``pachisi play | head``): nobody sees the game."""


def default_save_path(seed: int, day: datetime.date | None = None) -> str:
    """Where a game is saved without ``--save``: ``pachisi-YYYYMMDD-SEED.pgn`` here."""
    day = day if day is not None else datetime.date.today()
    return f"pachisi-{day:%Y%m%d}-{seed}.pgn"


class PlaySession:
    """A game in the terminal: one person (seat S, and its partner with ``players=2``)
    against bots. Reads commands from ``inp`` and writes to ``out``, so a pipe can drive it;
    ``err`` (default: ``sys.stderr``) hears only what must reach the person when ``out``
    is closed or the record cannot be saved.

    The game starts at ``start`` (default: the start position of ``ruleset``) and stops
    after ``max_steps`` throws and actions if it has not ended by then.
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
        err: TextIO | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        start: State | None = None,
    ) -> None:
        self.game = Game(ruleset, state=start)
        r = self.game.ruleset
        self.humans = set(person_seats(r.players, human))
        self.bots: dict[int, Bot] = {s: make_player(bot) for s in range(4) if s not in self.humans}
        self.seed = seed
        self.throws, self.choices = game_rngs(seed, 0)
        self.started = datetime.date.today()
        self.save_path = save if save is not None else default_save_path(seed, self.started)
        self.color = color
        self.inp = inp
        self.out = out
        self.err = err
        self.max_steps = max_steps
        self.steps = 0
        """Throws and actions played in this session (see :data:`MAX_STEPS`)."""
        self.saved: str | None = None
        """The path the record was saved to, once it is saved."""
        self.still_since = self.game.state.turn
        """The turn since which no piece has moved (see :data:`STALL_TURNS`)."""
        self._out_gone = False
        self._code = 0

    def say(self, text: str = "") -> None:
        """Write a line to the person."""
        self._write(text + "\n")

    def _write(self, text: str, *, flush: bool = False) -> None:
        """Write to ``out``; :class:`_OutputGone` once it cannot be written to."""
        if self._out_gone:
            raise _OutputGone
        try:
            self.out.write(text)
            if flush:
                self.out.flush()
        except (OSError, ValueError) as exc:
            # A text we cannot encode is our bug; a closed or broken stream (EPIPE, or
            # ValueError for a closed file) means nobody is reading any more.
            if isinstance(exc, UnicodeError):
                raise
            self._out_gone = True
            raise _OutputGone from None

    def _complain(self, text: str) -> None:
        """Write to ``err``, which may itself be closed: then there is nobody to tell."""
        err = self.err if self.err is not None else sys.stderr
        with contextlib.suppress(OSError, ValueError):
            err.write(text)
            err.flush()

    def run(self) -> int:
        """Play until the game ends, the person quits or input ends; then save the record.

        Returns the exit code: 0, or 130 after Ctrl-C, or 2 if the record could not be
        saved (it is then written to ``err`` instead). The record is saved however the
        session ends, an unexpected exception included (which is then raised again).
        """
        try:
            try:
                self._greet()
                self._play()
            except KeyboardInterrupt:
                self._code = 130
                with contextlib.suppress(_OutputGone):
                    self.say("\nInterrupted.")
            except _OutputGone:
                pass
        finally:
            self._finish()
        return self._code

    def _greet(self) -> None:
        r = self.game.ruleset
        you = " and ".join(str(s) for s in sorted(self.humans))
        self.say(
            f"Pachisi, ruleset {r}. You play seat{'s' if len(self.humans) > 1 else ''} "
            f"{you}; the other seats are {next(iter(self.bots.values())).name} bots."
        )
        self.say(f"Seed {self.seed} (the throws can be repeated with --seed {self.seed}).")
        self.say("Type ? for help.")

    def _play(self) -> None:
        while not self.game.is_over():
            if self.steps >= self.max_steps:
                self.say(
                    f"Stopped after {self.steps} throws and actions with no result; "
                    "the game may be unable to end."
                )
                return
            if not self._step():
                self.say("Stopped before the end of the game.")
                return
        self._show_board()
        self.say(situation(self.game.state))

    # ----------------------------------------------------------------- one step

    def _step(self) -> bool:
        """Make one throw or one decision; False if the person stopped."""
        player = self.game.current_player()
        before = self.game.state
        if before.turn - self.still_since >= STALL_TURNS and not self._keep_going():
            return False
        if player == CHANCE:
            self.steps += 1
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
        self.steps += 1
        events = self.game.push(action)
        self.say(f"{who} {action}: {describe_played(before, action, events)}")
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
        self._write("Press Enter to go on, or type quit: ", flush=True)
        line = self._readline()
        if line is None:
            return False
        if line.strip().lower() in ("quit", "q", "exit"):
            return False
        self.still_since = self.game.state.turn
        return True

    def _readline(self) -> str | None:
        """The next line of input (echoed when piped); None at the end of input.

        Input that cannot be read any more (a decoding error on a stream that was not set
        to replace bad bytes, or a failing terminal) ends the input: the game is saved.
        """
        try:
            line = self.inp.readline()
        except UnicodeDecodeError:
            self.say()
            self.say("The input is not UTF-8 text and cannot be read on.")
            return None
        except (OSError, ValueError):
            line = ""
        if not line:
            self.say()
            return None
        if not _isatty(self.inp):
            # Piped input is not echoed by a terminal; show it so the transcript reads.
            self._write(line if line.endswith("\n") else line + "\n")
        return line

    def _report(self, before: State, events: Sequence[Event]) -> None:
        for event in events:
            line = event_line(event, before)
            if line is not None:
                self.say(line)

    def _ask(self, state: State) -> Action | None:
        """The person's choice among the legal actions; None on quit or end of input."""
        actions = self.game.legal_actions()
        if actions == (DECLINE,):
            self.say(f"{situation(state)}; nothing can use it, so you pass.")
            return DECLINE
        self._show_board(actions)
        self._list(state, actions)
        while True:
            self._write(f"Your choice (1-{len(actions)}, an action, ? for help): ", flush=True)
            line = self._readline()
            if line is None:
                return None
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
        if _NUMBER.fullmatch(command):
            digits = command.lstrip("0") or "0"
            n = int(digits) if len(digits) <= _NUMBER_DIGITS else None
            if n is None or not 1 <= n <= len(actions):
                which = "with that number" if n is None else str(n)
                raise ValueError(f"There is no action {which}; choose 1 to {len(actions)}.")
            return actions[n - 1]
        try:
            action = Action.parse(command)
        except InvalidActionError:
            raise ValueError(
                f"{_excerpt(command)!r} is neither a number nor an action. Type ? for help."
            ) from None
        if action not in actions:
            listed = ", ".join(str(a) for a in actions)
            raise ValueError(f"{action} is not legal now. Legal: {listed}.")
        return action

    def _list(self, state: State, actions: Sequence[Action]) -> None:
        self.say(f"{situation(state)}")
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

    def record_text(self) -> str:
        """The game so far as a record, with who played each seat and the seed."""
        tags = {
            "Event": "pachisi play",
            "Date": f"{self.started:%Y.%m.%d}",
            "Seed": str(self.seed),
        }
        for s in range(4):
            tags[f"Seat{s}"] = "human" if s in self.humans else f"{self.bots[s].name} bot"
        return write_record(record_from_game(self.game, tags))

    def _finish(self) -> None:
        """Save the record and say where. Ctrl-C is held back until the file is in place."""
        text: str | None = None
        try:
            with sigint_held():
                text = self.record_text()
                save_text(self.save_path, text)
                self.saved = self.save_path
        except KeyboardInterrupt:
            self._code = 130
        except OSError as exc:
            self._code = 2
            reason = exc.strerror or str(exc)
            self._complain(
                f"pachisi: error: could not save the game to {self.save_path}: {reason}\n"
            )
            if text is not None:
                self._complain("pachisi: the game record follows; keep it to replay the game\n")
                self._complain(text)
        if self.saved is None:
            return
        with contextlib.suppress(_OutputGone):
            self.say(f"Game saved to {self.saved}")
            # The session's last words must reach a pipe now, not at exit.
            self._write("", flush=True)
        if self._out_gone:
            self._complain(f"pachisi: the output was closed; game saved to {self.saved}\n")


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (OSError, ValueError):
        return False


def _excerpt(text: str) -> str:
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 1] + "…"


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
