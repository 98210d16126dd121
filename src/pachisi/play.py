"""The terminal game behind ``pachisi play``: one person against bots, driven by text.

:class:`PlaySession` reads commands from one stream and writes the board, the actions
and what happens to another, so a pipe can drive it as well as a person can; at the end
it saves the game record. :func:`run_play` is the body of the ``play`` command.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from typing import Final, TextIO

from pachisi.ai.bots import Bot, make_bot
from pachisi.describe import describe_action, describe_played, event_line, piece_label, situation
from pachisi.game import Game
from pachisi.notation import record_from_game, write_record
from pachisi.render import render_board
from pachisi.rules import engine
from pachisi.rules.actions import DECLINE, Action, InvalidActionError
from pachisi.rules.board import HOME, SQUARE_OF
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import CHANCE, Event, State
from pachisi.simulate import game_rngs

__all__ = ["HELP", "STALL_TURNS", "PlaySession", "board_contents", "run_play"]


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
) -> int:
    """Play one game in the terminal as seat ``seat``; the exit code of ``pachisi play``.

    Without a ``seed`` the throws get a fresh random one, which the game prints and saves.
    """
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
    session = PlaySession(
        ruleset,
        human=seat,
        seed=seed,
        bot=bot,
        save=save,
        color=color,
        inp=inp,
        out=out,
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
