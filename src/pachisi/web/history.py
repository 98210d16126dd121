"""A game's history for the replay viewer, served incrementally (``GET
/api/games/{id}/history``, docs/web.md).

A :class:`GameHistory` holds every step of one game, each encoded once as JSON text when its
move is first seen: a request replays through the rules engine only the moves no request
has seen before, and a page of steps is the stored texts joined, nothing encoded again.
A :class:`HistoryCache` keeps the histories of the games asked about, the least recently
used forgotten first once they hold too many steps. :func:`etag` names a page of one version
of a game, so that a client that has it is answered ``304 Not Modified`` from the game's
version alone (:func:`etag_matches` reads ``If-None-Match``).

>>> from pachisi.rules.ruleset import get_ruleset
>>> game = GameHistory("g1", get_ruleset("classic"))
>>> game.extend(["t3", "t5"])
>>> game.version
2
>>> page = json.loads(game.page(1, 5))
>>> page["version"], page["start"], page["next"], page["moves"], len(page["steps"])
(2, 1, None, ['t3', 't5'], 2)
>>> [step["version"] for step in json.loads(game.page(0, 2))["steps"]]
[0, 1]
>>> etag("g1", 2, 0, 500)
'"h1.g1.2.0.500"'
>>> etag_matches('W/"x", "h1.g1.2.0.500"', etag("g1", 2, 0, 500))
True
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final

from pachisi.notation import write_position
from pachisi.rules import engine
from pachisi.rules.board import HOME, NUM_SEATS, PIECES_PER_SEAT
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import State
from pachisi.web.room import parse_move
from pachisi.web.views import event_json, piece_json, result_json, turn_json

__all__ = [
    "DEFAULT_LIMIT",
    "MAX_LIMIT",
    "GameHistory",
    "HistoryCache",
    "etag",
    "etag_matches",
]

DEFAULT_LIMIT: Final = 500
"""Steps a page holds when the request does not say."""
MAX_LIMIT: Final = 1000
"""The most steps a page may hold."""
ETAG_FORMAT: Final = "h1"
"""Leads every ETag: changed whenever a step's JSON changes, so that no client keeps a page
of the old shape."""

_COMPACT: Final = (",", ":")
"""The steps are bulky (2.2 kB each even so, mostly the pieces): no spaces in them."""
_SAFE_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
_ENTITY_TAG: Final = re.compile(r'\s*(?:W/)?("[^"]*")\s*(?:,|$)')


@lru_cache(maxsize=NUM_SEATS * PIECES_PER_SEAT * (HOME + 1) * 2)
def _piece_text(piece: int, progress: int, lap: bool) -> str:
    # A piece can be in only 16 x 85 x 2 places: each is encoded once, then reused.
    return json.dumps(piece_json(piece, progress, lap), separators=_COMPACT)


def step_text(version: int, move: str | None, events: list[dict[str, Any]], state: State) -> str:
    """One step of a game as compact JSON text: the move that led to ``state``, its events,
    and the state (each piece's text reused)."""
    laps = state.laps
    pieces = ",".join(_piece_text(g, p, bool(laps >> g & 1)) for g, p in enumerate(state.pos))
    head = json.dumps(
        {"version": version, "move": move, "events": events, "position": write_position(state)},
        separators=_COMPACT,
    )
    tail = json.dumps(
        {"turn": turn_json(state, frozenset()), "result": result_json(state)},
        separators=_COMPACT,
    )
    return f'{head[:-1]},"pieces":[{pieces}],{tail[1:]}'


class GameHistory:
    """Every step of one game so far, each as its JSON text (see the module docstring).

    :meth:`extend` takes the game's moves and replays only those beyond the ones it has;
    :meth:`page` joins stored texts. Extending is serialised by the history's own lock;
    a page of a version the history has reached reads only texts that no longer change, so
    it needs no lock.
    """

    def __init__(self, game_id: str, ruleset: Ruleset) -> None:
        self.game_id = game_id
        self.ruleset = ruleset
        self._head = f'{{"id":{json.dumps(game_id)},"ruleset":{json.dumps(str(ruleset))}'
        self._state = engine.new_game(ruleset)
        self._moves: list[str] = []
        self._move_texts: list[str] = []
        self._steps: list[str] = [step_text(0, None, [], self._state)]
        self._lock = threading.Lock()

    @property
    def version(self) -> int:
        """The number of moves the history has: its last step's version."""
        return len(self._moves)

    def __len__(self) -> int:
        """The number of steps held: the version and one for the start."""
        return len(self._steps)

    @property
    def is_over(self) -> bool:
        """Whether the game is over at the last step (then the history is complete)."""
        return self._state.is_over

    def extend(self, moves: Sequence[str]) -> None:
        """Take the game's moves so far (or their first few): encode a step for each move
        not yet seen.

        ``moves`` must start with the moves already taken, or be the first of them (a game's
        moves only grow), else :class:`ValueError`; an illegal move raises the engine's
        error and leaves the history as it was before that move.
        """
        with self._lock:
            known = len(self._moves)
            both = min(known, len(moves))
            if list(moves[:both]) != self._moves[:both]:
                raise ValueError(
                    f"game {self.game_id!r}: these {len(moves)} moves do not continue "
                    f"the {known} already in its history"
                )
            state = self._state
            for version in range(known + 1, len(moves) + 1):
                text = moves[version - 1]
                before = state
                state, events = engine.apply(before, parse_move(text))
                said = [event_json(e, before) for e in events]
                # The step's texts first, the move last: ``version`` counts complete steps.
                self._steps.append(step_text(version, text, said, state))
                self._move_texts.append(json.dumps(text))
                self._state = state
                self._moves.append(text)

    def page(self, start: int, limit: int, version: int | None = None) -> str:
        """The JSON text of the steps ``start`` to ``start + limit - 1`` of the game at
        ``version`` (default: the history's own), as docs/web.md shows.

        ``version`` may be below the history's (the page of an earlier version) or above it
        as long as the history has the page's steps (:meth:`HistoryCache.get` replays only
        as far as a page needs). ``moves`` holds the moves of the page's steps (step 0 has
        none), so the pages' ``moves`` joined are the game's moves. A ``start`` beyond the
        version gives a page without steps; ``next`` is the start of the next page, null on
        the last.
        """
        if start < 0 or limit < 1 or (version is not None and version < 0):
            raise ValueError(f"no page starts at {start} with {limit} steps")
        version = self.version if version is None else version
        end = min(start + limit, version + 1)
        if end > self.version + 1:
            raise ValueError(
                f"game {self.game_id!r}: the page {start}..{end - 1} is beyond the "
                f"{self.version + 1} steps in its history"
            )
        following = end if end <= version else None
        steps = ",".join(self._steps[start:end])
        moves = ",".join(self._move_texts[max(start, 1) - 1 : max(end - 1, 0)])
        return (
            f'{self._head},"version":{version},"start":{start},"limit":{limit},'
            f'"next":{"null" if following is None else following},'
            f'"moves":[{moves}],"steps":[{steps}]}}'
        )


class HistoryCache:
    """The :class:`GameHistory` of each game asked about, the least recently used forgotten
    first once they hold more than ``max_steps`` steps together (the one just asked for is
    kept even if it alone holds more).

    Safe to use from several threads at once: the cache's lock guards its table, and each
    history's own lock its extending, so that a long game's first replay does not hold up
    another game's pages.
    """

    def __init__(self, max_steps: int = 200_000) -> None:
        if max_steps < 1:
            raise ValueError(f"a cache of {max_steps} steps holds nothing")
        self.max_steps = max_steps
        self._games: OrderedDict[str, GameHistory] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self._steps = 0
        self._lock = threading.Lock()

    @property
    def steps(self) -> int:
        """How many steps the histories held hold together."""
        return self._steps

    def __len__(self) -> int:
        return len(self._games)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._games

    def get(self, game_id: str, ruleset: Ruleset, moves: Sequence[str]) -> GameHistory:
        """The history of ``game_id`` extended to (at least) ``moves``, its moves so far or
        their first few (made now if not held).

        A held history whose ruleset or moves are not this game's (a game id reused, as by
        tests over a fresh database) is replaced by a new one.
        """
        with self._lock:
            game = self._games.get(game_id)
            if game is None or game.ruleset != ruleset:
                game = self._games[game_id] = GameHistory(game_id, ruleset)
            self._games.move_to_end(game_id)
        try:
            game.extend(moves)
        except ValueError:
            game = GameHistory(game_id, ruleset)
            game.extend(moves)
            with self._lock:
                self._games[game_id] = game
                self._games.move_to_end(game_id)
        self._account(game_id, game)
        return game

    def _account(self, game_id: str, game: GameHistory) -> None:
        """Count the history's steps (if it is still the one held) and forget the least
        recently used histories while there are too many steps."""
        with self._lock:
            if self._games.get(game_id) is game:
                self._steps += len(game) - self._sizes.get(game_id, 0)
                self._sizes[game_id] = len(game)
            while self._steps > self.max_steps and len(self._games) > 1:
                oldest = next(iter(self._games))
                if oldest == game_id:
                    self._games.move_to_end(oldest)
                    continue
                del self._games[oldest]
                self._steps -= self._sizes.pop(oldest, 0)


def etag(game_id: str, version: int, start: int, limit: int) -> str:
    """The strong ETag of the page ``start``/``limit`` of ``game_id`` at ``version``: a
    page is a function of these four alone, so equal tags are equal bodies."""
    name = game_id if _SAFE_ID.fullmatch(game_id) else hashlib.sha256(game_id.encode()).hexdigest()
    return f'"{ETAG_FORMAT}.{name[:64]}.{version}.{start}.{limit}"'


def etag_matches(if_none_match: str | None, tag: str) -> bool:
    """Whether an ``If-None-Match`` header's value names ``tag`` (RFC 9110's weak
    comparison: ``W/`` is ignored), or is ``*``; a header that does not parse names none.

    >>> etag_matches(None, '"a"'), etag_matches('"b" , "a"', '"a"'), etag_matches("*", '"a"')
    (False, True, True)
    >>> etag_matches('W/"a"', '"a"'), etag_matches('"ab"', '"a"'), etag_matches("a", '"a"')
    (True, False, False)
    """
    if if_none_match is None:
        return False
    value = if_none_match.strip()
    if value == "*":
        return True
    position = 0
    while position < len(value):
        match = _ENTITY_TAG.match(value, position)
        if match is None:
            return False
        if match.group(1) == tag:
            return True
        position = match.end()
    return False
