"""Many games stepped at once, in the spirit of pgx: ``init`` a batch, then ``step`` it.

Every game of a batch is always either waiting for a seat's decision or over: chance is
resolved inside, from the batch's seed (``chance="sample"``). With ``chance="explicit"``
the caller passes the throws: games then also stop where a throw is due
(``current_player == CHANCE``) and :func:`throw` takes the number of cowries mouth up.

Actions are ids of the fixed action space (:mod:`pachisi.fast.codes`, documented in
docs/rl.md); ``legal_action_mask[b, a]`` says whether action ``a`` is legal in game ``b``.
An illegal action is an error (:class:`~pachisi.rules.actions.IllegalActionError`) that
names the game and changes nothing; there is no silent substitute. Games that are over
(or wait for a throw) ignore their entry of ``actions``.

>>> from pachisi.rules.ruleset import get_ruleset
>>> batch = init(get_ruleset("ludii"), 4, seed=7)
>>> actions = batch.legal_action_mask.argmax(axis=1)   # the lowest legal id in each game
>>> batch = step(batch, actions)
>>> batch.current_player.shape, batch.observation().shape
((4,), (4, 786))
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Final, TypeVar

import numpy as np
import numpy.typing as npt

from pachisi.arguments import MAX_THREADS, reachable, whole
from pachisi.fast.codes import CHANCE_PLAYER, NUM_ACTIONS, OBS_SIZE, TERMINAL_PLAYER
from pachisi.fast.convert import action_of, to_row, to_state
from pachisi.fast.layout import MAX_ITEMS, OVERFLOW
from pachisi.fast.native import core
from pachisi.fast.params import FastEngineError, engine_params
from pachisi.rules import engine
from pachisi.rules.actions import IllegalActionError
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import State

__all__ = [
    "CHANCE",
    "NUM_ACTIONS",
    "OBS_SIZE",
    "STREAM_BYTES",
    "TERMINAL",
    "Batch",
    "LearnerView",
    "advance",
    "choose",
    "first_illegal",
    "from_states",
    "init",
    "learner_step",
    "run_in_parts",
    "step",
    "throw",
]

CHANCE: Final = CHANCE_PLAYER
"""``current_player`` of a game waiting for a throw (``chance="explicit"`` only)."""
TERMINAL: Final = TERMINAL_PLAYER
"""``current_player`` of a game that is over."""
CHANCE_MODES: Final = ("sample", "explicit")
MAX_BATCH: Final = 10_000_000
"""The most games one batch holds (their rows take about 1 KB each)."""
STREAM_BYTES: Final = core.stream_bytes()
"""From this size on, a compiled call writes new arrays (one thread's part of them) with
streaming stores, past the caches (:func:`learner_step`)."""
MARKS: Final = core.MARKS
"""The width of :func:`learner_step`'s rows of marks of a mask."""
OBSERVATION_MARKS: Final = core.OBSERVATION_MARKS
"""The width of its rows of marks of an observation's counts."""
KEEP: Final = core.KEEP
ACT: Final = core.ACT
RENEW: Final = core.RENEW
"""What :func:`learner_step` does first in a game: nothing, the learner's action, or a new
game in its place."""
MIN_PART: Final = 256
"""The fewest games a thread is given: below that, starting it costs more than it saves."""


@dataclass
class Batch:
    """A batch of games: their state rows and what learning code reads after each step.

    The arrays are updated in place by :func:`step` and :func:`throw` (which return the
    same object); copy them to keep a snapshot.
    """

    ruleset: Ruleset
    rows: npt.NDArray[np.int32]
    """One state row per game (:mod:`pachisi.fast.layout`)."""
    rngs: npt.NDArray[np.uint32]
    """Each game's generator (Mersenne Twister states), used when chance is sampled."""
    chance: str
    legal_action_mask: npt.NDArray[np.bool_]
    current_player: npt.NDArray[np.int32]
    """The seat to act, :data:`CHANCE` or :data:`TERMINAL`, per game."""
    rewards: npt.NDArray[np.float32]
    """Per game and seat, from the last step: +1 to the winning side, -1 to the others,
    0 in a draw and before the end."""
    choice_rngs: npt.NDArray[np.uint32] = field(repr=False)
    """Each game's generator for its compiled players' choices (:func:`choose`)."""
    threads: int = 1
    """How many threads the batch's games are spread over in each call (at least
    :data:`MIN_PART` games each); the results do not depend on it."""
    _scratches: list[core.Scratch] = field(repr=False, default_factory=list)
    """The kernels' buffers, one per thread (a batch is stepped by one call at a time)."""

    @property
    def size(self) -> int:
        return int(self.rows.shape[0])

    @property
    def terminated(self) -> npt.NDArray[np.bool_]:
        """Whether each game is over (a win or a draw)."""
        over: npt.NDArray[np.bool_] = self.current_player == TERMINAL
        return over

    @property
    def team_rewards(self) -> npt.NDArray[np.float32]:
        """Rewards per team (seats 0+2 and 1+3), under ``teams=pairs``."""
        return self.rewards[:, :2].copy()

    def observation(
        self, seats: Sequence[int] | npt.NDArray[np.int32] | None = None
    ) -> npt.NDArray[np.float32]:
        """Observations ``(games, OBS_SIZE)``, each from ``seats[b]`` (default: the seat to
        act, or seat 0 where no seat is to act)."""
        if seats is None:
            who = np.where(self.current_player >= 0, self.current_player, 0).astype(np.int32)
        else:
            who = np.asarray(seats, dtype=np.int32)
            if who.shape != (self.size,):
                raise ValueError(f"need one seat 0..3 per game ({self.size})")
        obs = np.empty((self.size, OBS_SIZE), dtype=np.float32)
        params = engine_params(self.ruleset)[0]
        try:
            if self.threads == 1 or self.size < 2 * MIN_PART:
                core.observe_batch(self.rows, params, who, obs)  # one part: no slices
            else:
                _spread(self, lambda g, _: core.observe_batch(self.rows[g], params, who[g], obs[g]))
        except ValueError:
            # The kernel's check of the seats, before it writes anything.
            raise ValueError(f"need one seat 0..3 per game ({self.size})") from None
        return obs

    def states(self) -> list[State]:
        """The games as reference states (so as position strings)."""
        return [to_state(row, self.ruleset) for row in self.rows]


def _seeded(size: int, seed: int, stream: int = 0) -> npt.NDArray[np.uint32]:
    """Game ``b``'s generator of stream 0 (chance) or 1 (players' choices)."""
    rngs = np.empty((size, 625), dtype=np.uint32)
    for b in range(size):
        core.seed_generator(rngs[b], core.mix_seed((seed << 21) + 2 * b + stream))
    return rngs


def _masks(batch: Batch) -> npt.NDArray[np.int8]:
    """The legal-action masks as the kernels write them: bytes, the same memory."""
    return batch.legal_action_mask.view(np.int8)


@functools.cache
def _executor(parts: int) -> ThreadPoolExecutor:
    """The threads that calls spread over ``parts`` parts share (made on first use)."""
    return ThreadPoolExecutor(max_workers=parts, thread_name_prefix="pachisi-fast")


# A forked child inherits the cached pools but not their threads: work it submitted would
# wait forever, so the child makes pools of its own.
os.register_at_fork(after_in_child=_executor.cache_clear)


def run_in_parts(count: int, parts: int, call: Callable[[int, int, int], None]) -> None:
    """``call(part, start, stop)`` on ``parts`` nearly equal parts of ``range(count)``, side
    by side (``parts`` is at most ``count``; one part runs in the caller's thread). For
    games that share nothing, each part in buffers of its own: the kernels release the GIL,
    so the parts give what one call gives. A part's error is raised here."""
    if parts <= 1:
        call(0, 0, count)
        return
    bounds = [count * t // parts for t in range(parts + 1)]
    pool = _executor(parts)
    done = [pool.submit(call, t, bounds[t], bounds[t + 1]) for t in range(1, parts)]
    try:
        call(0, bounds[0], bounds[1])
    finally:
        for part in done:
            part.result()


def _spread(batch: Batch, call: Callable[[slice, core.Scratch], None]) -> None:
    """``call(games, scratch)`` over the batch's games, in up to ``batch.threads`` parts of
    at least :data:`MIN_PART` games (:func:`run_in_parts`), each with buffers of its own."""
    parts = max(1, min(batch.threads, batch.size // MIN_PART))
    while len(batch._scratches) < parts:
        batch._scratches.append(core.Scratch())
    run_in_parts(
        batch.size,
        parts,
        lambda t, start, stop: call(slice(start, stop), batch._scratches[t]),
    )


def from_states(
    states: Sequence[State], *, seed: int = 0, chance: str = "sample", threads: int = 1
) -> Batch:
    """A batch that starts from the given states (all of one ruleset), each a position a
    game can reach (checked as the position reader checks), spread over ``threads``
    threads in every call (:attr:`Batch.threads`)."""
    if not states:
        raise ValueError("a batch needs at least one game")
    seen: set[int] = set()
    for b, s in enumerate(states):
        # init() passes one start state many times: check each object once.
        if id(s) not in seen:
            seen.add(id(s))
            reachable(s, f"game {b}")
    ruleset = states[0].ruleset
    if any(s.ruleset != ruleset for s in states):
        raise FastEngineError("all the games of a batch play one ruleset")
    if chance not in CHANCE_MODES:
        raise ValueError(f"chance is {' or '.join(CHANCE_MODES)}, not {chance!r}")
    seed = whole("the batch seed", seed, 0, 2**40 - 1)
    threads = whole("threads", threads, 1, MAX_THREADS)
    params, p = engine_params(ruleset)
    size = len(states)
    batch = Batch(
        ruleset=ruleset,
        rows=np.stack([to_row(s) for s in states]).astype(np.int32),
        rngs=_seeded(size, seed, 0),
        chance=chance,
        legal_action_mask=np.zeros((size, NUM_ACTIONS), dtype=np.bool_),
        current_player=np.zeros(size, dtype=np.int32),
        rewards=np.zeros((size, 4), dtype=np.float32),
        choice_rngs=_seeded(size, seed, 1),
        threads=threads,
    )
    masks = _masks(batch)
    _spread(
        batch,
        lambda g, scratch: core.start_batch(
            batch.rows[g], params, p, batch.rngs[g], chance == "sample", scratch, masks[g],
            batch.current_player[g],
        ),
    )  # fmt: skip
    _check_overflow(batch)
    return batch


def init(
    ruleset: Ruleset,
    batch_size: int,
    *,
    seed: int = 0,
    chance: str = "sample",
    threads: int = 1,
) -> Batch:
    """``batch_size`` new games of ``ruleset``; game ``b`` samples chance from its own
    generator, seeded from ``seed`` and ``b``. ``threads``: :attr:`Batch.threads`."""
    batch_size = whole("the batch size", batch_size, 1, MAX_BATCH)
    return from_states(
        [engine.new_game(ruleset)] * batch_size, seed=seed, chance=chance, threads=threads
    )


def step(
    batch: Batch,
    actions: Sequence[int] | npt.NDArray[np.integer],
    *,
    where: Sequence[bool] | npt.NDArray[np.bool_] | None = None,
) -> Batch:
    """Apply one action per game (ignored where no seat is to act); see the module doc.

    With ``where``, only the games where it is true are stepped (the others keep their
    state, and their actions are not looked at).
    """
    chosen = np.asarray(actions)
    if chosen.shape != (batch.size,) or not np.issubdtype(chosen.dtype, np.integer):
        raise IllegalActionError(f"need one integer action per game ({batch.size})")
    active = np.ones(batch.size, dtype=np.bool_) if where is None else np.asarray(where)
    if active.shape != (batch.size,) or active.dtype != np.bool_:
        raise ValueError(f"where needs one bool per game ({batch.size})")
    acting = (batch.current_player >= 0) & active
    b = first_illegal(batch, chosen, acting)
    if b >= 0:
        a = int(chosen[b])
        if not 0 <= a < NUM_ACTIONS:
            raise IllegalActionError(f"game {b}: action {a} is outside 0..{NUM_ACTIONS - 1}")
        raise IllegalActionError(
            f"game {b}: action {a}{_named(batch, b, a)} is not legal; "
            f"legal: {np.flatnonzero(batch.legal_action_mask[b]).tolist()}"
        )
    ids = np.where(acting, chosen, 0).astype(np.int32)
    params, p = engine_params(batch.ruleset)
    masks, stepped = _masks(batch), active.view(np.int8)
    _spread(
        batch,
        lambda g, scratch: core.step_batch(
            batch.rows[g], params, p, ids[g], stepped[g], batch.rngs[g],
            batch.chance == "sample", scratch, masks[g], batch.current_player[g],
            batch.rewards[g],
        ),
    )  # fmt: skip
    _check_overflow(batch)
    return batch


def first_illegal(
    batch: Batch, actions: npt.NDArray[np.integer], games: npt.NDArray[np.bool_]
) -> int:
    """The first game of ``games`` (one bool per game) whose action in ``actions`` (one
    integer per game) is outside 0..NUM_ACTIONS - 1 or not legal there, else -1."""
    # An action that does not fit in 64 bits is outside anyway; it wraps to some number
    # here, and the caller, which names the culprit, reads the action it was given.
    wide = np.asarray(actions).astype(np.int64, copy=False)
    return core.first_illegal(_masks(batch), wide, np.asarray(games).view(np.int8))


def _named(batch: Batch, b: int, a: int) -> str:
    """`` (0a+4)``: the action's notation, where the game's ruleset has such an action."""
    try:
        return f" ({action_of(a, to_state(batch.rows[b], batch.ruleset))})"
    except FastEngineError:
        return ""


def throw(batch: Batch, ks: Sequence[int] | npt.NDArray[np.integer]) -> Batch:
    """Apply one throw (cowries mouth up) per game waiting for one; others ignore theirs."""
    given = np.asarray(ks)
    cowries = batch.ruleset.cowries
    waiting = batch.current_player == CHANCE
    if given.shape != (batch.size,) or not np.issubdtype(given.dtype, np.integer):
        raise IllegalActionError(f"need one integer throw per game ({batch.size})")
    if ((given < 0) | (given > cowries))[waiting].any():
        raise IllegalActionError(f"a throw of {cowries} cowries has 0..{cowries} mouths up")
    params, _ = engine_params(batch.ruleset)
    thrown: npt.NDArray[np.int32] = np.where(waiting, given, 0).astype(np.int32)
    masks = _masks(batch)
    _spread(
        batch,
        lambda g, scratch: core.throw_batch(
            batch.rows[g], params, thrown[g], scratch, masks[g], batch.current_player[g],
            batch.rewards[g],
        ),
    )  # fmt: skip
    _check_overflow(batch)
    return batch


def choose(
    batch: Batch,
    bots: npt.NDArray[np.int32],
    weights: npt.NDArray[np.float64],
    hit: npt.NDArray[np.float64],
) -> npt.NDArray[np.int32]:
    """The action each game's seat to act takes when the compiled player ``bots[seat]``
    plays it (``core.RANDOM``, ``core.GREEDY``, or -1 for a seat played from outside, which
    gives -1), drawn from the game's choice generator; games that are over or wait for a
    throw get -1.

    ``weights`` and ``hit`` are greedy's tables for the batch's ruleset; the players
    (:mod:`pachisi.ai.compiled_bots`) own them and the names, the engine only runs the
    kernel in the batch's buffers.
    """
    params, _ = engine_params(batch.ruleset)
    actions = np.empty(batch.size, dtype=np.int32)
    _spread(
        batch,
        lambda g, scratch: core.choose_batch(
            batch.rows[g], params, weights, hit, bots, batch.choice_rngs[g],
            batch.current_player[g], scratch, actions[g],
        ),
    )  # fmt: skip
    return actions


def advance(
    batch: Batch,
    bots: npt.NDArray[np.int32],
    weights: npt.NDArray[np.float64],
    hit: npt.NDArray[np.float64],
    steps: npt.NDArray[np.int64],
    max_steps: int,
    seat: int,
) -> npt.NDArray[np.float32]:
    """Let the compiled players ``bots[seat]`` (as in :func:`choose`; -1 for a seat played
    from outside) play every game on until a seat without one is to act, the game is over,
    or ``steps[b]`` (the game's actions, counted up here) reaches ``max_steps``, in one
    compiled call: what :func:`choose` and :func:`step` give round by round, since every
    game draws from its own generators. Returns the rewards of ``seat`` those steps brought
    (each step's rewards are in ``batch.rewards`` as after :func:`step`; the last step's
    stay there).
    """
    params, p = engine_params(batch.ruleset)
    gained = np.zeros(batch.size, dtype=np.float32)
    masks = _masks(batch)
    _spread(
        batch,
        lambda g, scratch: core.advance_batch(
            batch.rows[g], params, p, weights, hit, bots, batch.rngs[g], batch.choice_rngs[g],
            batch.chance == "sample", scratch, masks[g], batch.current_player[g],
            batch.rewards[g], steps[g], max_steps, seat, gained[g],
        ),
    )  # fmt: skip
    _check_overflow(batch)
    return gained


def learner_step(
    batch: Batch,
    bots: npt.NDArray[np.int32],
    weights: npt.NDArray[np.float64],
    hit: npt.NDArray[np.float64],
    steps: npt.NDArray[np.int64],
    max_steps: int,
    seat: int,
    modes: npt.NDArray[np.int8],
    actions: npt.NDArray[np.int32],
    seed: int,
    marks: npt.NDArray[np.int16],
    *,
    observe: bool,
    into: LearnerView | None = None,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32] | None, npt.NDArray[np.int8] | None]:
    """Every game's step to the next decision of a learner, in one compiled call: what
    :func:`init` (for ``modes[b]`` :data:`RENEW`: a new game in its place, as game ``i`` of
    ``init(ruleset, k, seed=seed)`` where it is the ``i``-th of the ``k`` renewed), then
    :func:`step` with ``actions[b]`` (:data:`ACT`; each must be legal, else ValueError
    before any game changes) and :func:`advance` give, with every position's legal list
    worked out once. ``steps`` counts the actions (0 for a new game).

    ``marks[b]`` lists the ids that ``legal_action_mask[b]`` has set (its count first, -1
    where unknown; ``(games, MARKS)`` int16, kept by the caller between calls), so that a
    mask is not cleared whole. Returns ``seat``'s rewards, and with ``observe`` what the
    learner (the seats whose ``bots`` entry is -1) sees: the observation from its seat to
    act (else ``seat``) and that seat's mask, all zeros where none of its seats is to act
    or ``steps[b]`` has reached ``max_steps``. They are written into ``into``'s arrays
    (over what its marks say the last call left there, or whole if ``into.whole``) and
    returned, else into new ones.
    """
    params, p = engine_params(batch.ruleset)
    size = batch.size
    gained = np.empty(size, dtype=np.float32)
    obs: npt.NDArray[np.float32] | None = None
    view: npt.NDArray[np.int8] | None = None
    obs_marks: npt.NDArray[np.int16] | None = None
    view_marks: npt.NDArray[np.int16] | None = None
    if observe and into is not None:
        if into.observation.shape[0] != size:
            games = into.observation.shape[0]
            raise ValueError(f"the learner's view holds {games} games, not {size}")
        obs, view = into.observation, into.action_mask
        if not into.whole:  # a whole view's marks are never read, nor written
            obs_marks, view_marks = into.observation_marks, into.mask_marks
    elif observe:
        obs = np.empty((size, OBS_SIZE), dtype=np.float32)
        view = np.empty((size, NUM_ACTIONS), dtype=np.int8)
    start = _start_row(batch.ruleset)
    masks = _masks(batch)
    if batch.threads == 1 or size < 2 * MIN_PART:
        # One part: the whole arrays, without the slices and the runner (a single
        # environment calls this once a step).
        if not batch._scratches:
            batch._scratches.append(core.Scratch())
        overflow = core.learner_step(
            batch.rows, params, p, weights, hit, bots, batch.rngs, batch.choice_rngs,
            batch._scratches[0], masks, marks, batch.current_player, batch.rewards, steps,
            max_steps, seat, modes, actions, start, seed, 0, obs, obs_marks, view, view_marks,
            gained,
        )  # fmt: skip
    else:
        # Each part numbers its new games on from those of the parts before it.
        renewed = np.cumsum(modes == RENEW)
        flags: list[bool] = []

        def part(g: slice, scratch: core.Scratch) -> None:
            first = int(renewed[g.start - 1]) if g.start else 0
            flags.append(core.learner_step(
                batch.rows[g], params, p, weights, hit, bots, batch.rngs[g],
                batch.choice_rngs[g], scratch, masks[g], marks[g], batch.current_player[g],
                batch.rewards[g], steps[g], max_steps, seat, modes[g], actions[g], start, seed,
                first, _part(obs, g), _part(obs_marks, g), _part(view, g),
                _part(view_marks, g), gained[g],
            ))  # fmt: skip

        _spread(batch, part)
        overflow = any(flags)
    if overflow:
        _check_overflow(batch)
    return gained, obs, view


_Item = TypeVar("_Item", bound=np.generic)


def _part(array: npt.NDArray[_Item] | None, games: slice) -> npt.NDArray[_Item] | None:
    """The rows ``games`` of an optional array (a thread's part of it)."""
    return None if array is None else array[games]


@dataclass(frozen=True)
class LearnerView:
    """The arrays :func:`learner_step` writes what the learner sees into: each game's
    observation and mask, with rows of marks that list what the last call set in them
    (their counts first, -1 where unknown), so that a call that is handed the same arrays
    again rewrites only what changed (a few hundred bytes a game instead of 5 KB). With
    ``whole`` every call writes them whole, as it writes new arrays, for a caller that
    hands them out writable (and keeps them only to spare the memory's allocation)."""

    observation: npt.NDArray[np.float32]
    action_mask: npt.NDArray[np.int8]
    observation_marks: npt.NDArray[np.int16]
    mask_marks: npt.NDArray[np.int16]
    whole: bool = False

    @classmethod
    def empty(cls, games: int, *, whole: bool = False) -> LearnerView:
        """Arrays for ``games`` games, their contents unknown (written whole next)."""
        view = cls(
            np.empty((games, OBS_SIZE), dtype=np.float32),
            np.empty((games, NUM_ACTIONS), dtype=np.int8),
            np.empty((games, OBSERVATION_MARKS), dtype=np.int16),
            np.empty((games, MARKS), dtype=np.int16),
            whole,
        )
        view.observation_marks[:, 0] = -1
        view.mask_marks[:, 0] = -1
        return view


@functools.cache
def _start_row(ruleset: Ruleset) -> npt.NDArray[np.int32]:
    """The row of a new game of ``ruleset``, as :func:`init` starts its games."""
    row: npt.NDArray[np.int32] = to_row(engine.new_game(ruleset)).astype(np.int32)
    return row


def _check_overflow(batch: Batch) -> None:
    if batch.rows[:, OVERFLOW].any():
        raise FastEngineError(
            f"game {int(np.flatnonzero(batch.rows[:, OVERFLOW])[0])}: a series of more than "
            f"{MAX_ITEMS} collected throws outgrew the compiled engine's state row; a batch "
            "cannot go on in the reference engine, so play this ruleset there"
        )
