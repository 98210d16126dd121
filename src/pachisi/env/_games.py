"""What the environments share: spaces, learners, policies for the other seats, and a batch
of games in which a learner plays some seats and policies play the rest.

The compiled batch (:mod:`pachisi.fast.batch`) does the playing; nothing here applies a rule.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol, TypeAlias, runtime_checkable

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from pachisi.ai.compiled_bots import bot_actions, learner_step
from pachisi.fast import batch as B
from pachisi.fast.codes import O_PROGRESS, O_THROW, O_THROW_K, O_TURN, decode
from pachisi.fast.convert import action_id, action_of, to_state
from pachisi.fast.layout import MAX_ITEMS
from pachisi.notation import write_position
from pachisi.rules import board, engine
from pachisi.rules.actions import Action, IllegalActionError
from pachisi.rules.choices import Teams
from pachisi.rules.ruleset import Ruleset, parse_ruleset
from pachisi.rules.state import State

NUM_ACTIONS = B.NUM_ACTIONS
OBS_SIZE = B.OBS_SIZE

_BATCH_STATE = ("rows", "rngs", "choice_rngs", "legal_action_mask", "current_player", "rewards")
"""The arrays of a :class:`~pachisi.fast.batch.Batch` that hold its games (the others are
scratch space)."""

ONE_GAME = np.ones(1, dtype=np.bool_)
ONE_GAME.flags.writeable = False
"""The ``games`` of a single environment's :meth:`Games.act`: its one game."""

_ACT_ONE = np.full(1, B.ACT, dtype=np.int8)
_KEEP_ONE = np.full(1, B.KEEP, dtype=np.int8)
_ACT_ONE.flags.writeable = _KEEP_ONE.flags.writeable = False

Observation: TypeAlias = dict[str, npt.NDArray[Any]]
"""``{"observation": float32 (OBS_SIZE,), "action_mask": int8 (NUM_ACTIONS,)}``, or the
same with a leading batch axis in the vector environment."""


@runtime_checkable
class Bot(Protocol):
    """A player of the reference engine (:class:`pachisi.ai.Bot`): it sees the whole state."""

    def choose(self, state: State, rng: random.Random) -> Action: ...


Policy: TypeAlias = str | Bot | Callable[[Observation], Any]
"""Who plays a seat that is not the learner's: ``"random"`` or ``"greedy"`` (the compiled
players), a :class:`Bot`, or a callable that takes an :data:`Observation` of the seat to
act and returns an action id (in the vector environment, a batch of them and an array)."""


def action_table() -> npt.NDArray[np.int32]:
    """What every action id means, one row per id (docs/rl.md has the same as a table):
    kind (0 decline, 1 move, 2 enter, 3 first piece out, 4 finish, 5 second lap), the
    mover's piece (0..3 for a..d, -1 for none), the throw slot (0..7, -1 for a decline or
    a pyada), how many pieces move, the steps of a split part (0 if whole), and 1 for a
    pyada. Learning code can build action features from it."""
    rows = [decode(a) for a in range(NUM_ACTIONS)]
    return np.array(rows, dtype=np.int32)


def ruleset_of(ruleset: Ruleset | str) -> Ruleset:
    """A ruleset, or one read from its string (``"classic+players=2"``)."""
    return ruleset if isinstance(ruleset, Ruleset) else parse_ruleset(ruleset)


def observation_high(ruleset: Ruleset) -> npt.NDArray[np.float32]:
    """The largest value each observation entry can take under ``ruleset``.

    Most entries are fractions or one-hot flags (at most 1); piece counts reach 4; throw
    values are divided by 35 but a ruleset may have larger ones; pyadas and collected
    throws are counted per series of throws, which the state row bounds by ``MAX_ITEMS``.
    """
    high = np.ones(OBS_SIZE, dtype=np.float32)
    high[O_PROGRESS:O_THROW_K] = 4.0  # pieces per progress, then per square (O_BOARD)
    value = max(1.0, (max(ruleset.score_table) + 1) / 35.0)
    high[O_THROW] = value
    high[O_TURN + 2] = MAX_ITEMS / 4.0
    high[O_TURN + 3 : O_TURN + 5] = value
    high[O_TURN + 5 : O_TURN + 13] = MAX_ITEMS / 4.0
    return high


def observation_space(ruleset: Ruleset) -> spaces.Dict:
    """The space of one :data:`Observation` under ``ruleset``."""
    return spaces.Dict(
        {
            "observation": spaces.Box(
                0.0, observation_high(ruleset), shape=(OBS_SIZE,), dtype=np.float32
            ),
            "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )


def learner_seats(learner: str | None, ruleset: Ruleset) -> tuple[int, ...]:
    """The seats ``learner`` plays: ``"seat0"``..``"seat3"`` or ``"team0"``/``"team1"``
    (seats 0 and 2, or 1 and 3). The default is ``seat0``, or ``team0`` under ``players=2``,
    where one person holds both seats of a team."""
    if learner is None:
        learner = "team0" if ruleset.players == 2 else "seat0"
    if learner in ("seat0", "seat1", "seat2", "seat3"):
        if ruleset.players == 2:
            raise ValueError(
                f"under players=2 one person holds both seats of a team: learner is "
                f"team0 or team1, not {learner!r}"
            )
        return (int(learner[4]),)
    if learner in ("team0", "team1"):
        if ruleset.teams == Teams.INDIVIDUAL:
            raise ValueError(f"under teams=individual every seat plays alone: not {learner!r}")
        return engine.side_seats(ruleset, int(learner[4]))
    raise ValueError(f"learner is seat0..seat3, team0 or team1, not {learner!r}")


class PolicyError(RuntimeError):
    """A policy playing one of the other seats (``opponents`` or ``partner``) returned
    something that is not a legal action id there. The message names the policy, the
    seat, what it returned and the legal ids. After a failed ``step`` the environment is
    as it was before it, so the caller can look at it, mend the policy and step again, or
    reset; after a failed ``reset`` it is to be reset again."""


def seat_roles(seats: tuple[int, ...], partner: Policy | None) -> list[str | None]:
    """Which argument plays each seat: None for the learner's, ``"partner"`` for the
    partner of a one-seat learner when a partner is given, ``"opponents"`` for the rest."""
    out: list[str | None] = []
    for seat in range(4):
        if seat in seats:
            out.append(None)
        elif len(seats) == 1 and seat == board.partner(seats[0]) and partner is not None:
            out.append("partner")
        else:
            out.append("opponents")
    return out


def seat_policies(
    seats: tuple[int, ...], opponents: Policy, partner: Policy | None
) -> list[Policy | None]:
    """Who plays each seat: None for the learner's, ``partner`` (default: ``opponents``)
    for the partner of a one-seat learner, ``opponents`` for the rest."""
    for policy in (opponents, partner):
        if isinstance(policy, str) and policy not in ("random", "greedy"):
            raise ValueError(f"a policy is 'random', 'greedy', a bot or a callable: {policy!r}")
        if not (policy is None or isinstance(policy, str | Bot) or callable(policy)):
            raise TypeError(f"a policy is 'random', 'greedy', a bot or a callable: {policy!r}")
    by_role = {None: None, "partner": partner, "opponents": opponents}
    return [by_role[role] for role in seat_roles(seats, partner)]


def legal_notation(state: State, mask: npt.NDArray[np.bool_]) -> list[str]:
    """The legal actions of ``mask`` in the reference notation, in the order of their ids."""
    return [str(action_of(int(a), state)) for a in np.flatnonzero(mask)]


def render_text(state: State) -> str:
    """The board as text (as ``pachisi play`` draws it) and the position string."""
    from pachisi.play import board_contents
    from pachisi.render import render_board

    stacks, waiting, home = board_contents(state)
    charkoni = waiting + [f"{label}(home)" for label in home]
    return render_board(stacks, charkoni=charkoni) + write_position(state) + "\n"


class _Views:
    """The arrays the compiled step writes the learner's observations and masks into,
    used again once nothing outside holds them (a caller that keeps an observation, or a
    view or a tensor of it, keeps its arrays, and they are never written again). Usually
    the set handed out two steps before is free again: two sets are kept, and a new one
    replaces the older when both are held.

    ``read_only`` (``copy=False``): they are handed out read-only, and, unless ``whole``,
    a step rewrites only what changed in them instead of writing 5 KB a game (a caller's
    own writes would otherwise show in a later step's observation). ``whole``: a step
    writes them whole, as it writes new arrays. Arrays that no one holds any more are as
    good as new ones, and taking them back spares the memory's allocation, its zeroing by
    the kernel and its release (at 4,096 games 22 MB a step). Where they outgrow the
    caches, writing them whole with streaming stores is faster than rewriting the changes
    in place, which reads every line it writes from memory first."""

    def __init__(self, size: int, *, whole: bool, read_only: bool) -> None:
        self.size = size
        self.whole = whole
        self.read_only = read_only
        self._kept: list[B.LearnerView] = []

    def unused(self) -> B.LearnerView:
        """A set of arrays nothing outside this object holds (new if none is)."""
        for view in self._kept:
            if self._free(view):
                view.observation.flags.writeable = True
                view.action_mask.flags.writeable = True
                return view
        view = B.LearnerView.empty(self.size, whole=self.whole)
        self._kept = [view, *self._kept[:1]]
        return view

    def hand_out(self, view: B.LearnerView) -> None:
        """Make the arrays of ``view`` read-only for the caller, if so asked (until
        :meth:`unused` takes them back)."""
        if self.read_only:
            view.observation.flags.writeable = False
            view.action_mask.flags.writeable = False

    def _free(self, view: B.LearnerView) -> bool:
        if _FREE_REFS < 0:
            return False  # no reference counts to go by (not CPython): always new arrays
        return (
            sys.getrefcount(view.observation) == _FREE_REFS
            and sys.getrefcount(view.action_mask) == _FREE_REFS
        )


def _refs_of_a_free_array() -> int:
    """What ``sys.getrefcount`` says of an array that only a LearnerView holds, asked as
    :meth:`_Views._free` asks it (the LearnerView's reference, plus the argument's where
    the interpreter takes one: newer ones may borrow it), so that one more means that
    someone else holds it; -1 where the interpreter keeps no reference counts."""
    if not hasattr(sys, "getrefcount"):
        return -1
    probe = B.LearnerView.empty(1)
    return sys.getrefcount(probe.observation)


_FREE_REFS = _refs_of_a_free_array()

_GAME_BYTES = B.OBS_SIZE * 4 + B.NUM_ACTIONS
"""The bytes of one game's observation and mask."""
_TAKE_BACK = 1 << 20
"""New arrays of fewer bytes than this come from the allocator's own free lists, faster
than looking for a free set to take back: a single environment's step was about 10%
slower taking its (5 KB) arrays back."""


class Games:
    """A batch of games in which the learner plays ``seats`` and ``policies`` the others.

    After :meth:`start`, :meth:`act` and :meth:`restart`, every game waits for one of the
    learner's seats, is over, or has reached ``max_steps`` actions (truncated). Rewards
    are the learner's: its side's +1 for a win, -1 for a loss, 0 for a draw.

    Where every other seat is a compiled player, each of those is one compiled call
    (:func:`pachisi.ai.compiled_bots.learner_step`), which with ``observes`` also works
    out what :meth:`observe` returns next.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        size: int,
        seats: tuple[int, ...],
        policies: Sequence[Policy | None],
        max_steps: int,
        *,
        batched: bool,
        roles: Sequence[str | None] | None = None,
        threads: int = 1,
        observes: bool = True,
        reuse: bool = False,
    ) -> None:
        if max_steps < 1:
            raise ValueError("max_steps is at least 1")
        self.ruleset = ruleset
        self.size = size
        self.seats = seats
        self.policies = list(policies)
        # The argument that plays each seat, for error messages (seat_roles).
        self.roles = list(roles) if roles is not None else ["opponents"] * 4
        self.max_steps = max_steps
        self.batched = batched
        self.is_learner = np.array([s in seats for s in range(4)])
        self.names: list[str | None] = [p if isinstance(p, str) else None for p in policies]
        # Every other seat played by a compiled player: they play in one compiled call
        # between the learner's turns, and nothing they do can fail.
        self.compiled_others = all(
            self.is_learner[s] or isinstance(policies[s], str) for s in range(4)
        )
        self.threads = threads
        self.observes = observes
        # Who plays each seat in the compiled calls: None for the learner's seats.
        self._players = tuple(None if self.is_learner[s] else self.names[s] for s in range(4))
        # What each legal-action mask has set, as the compiled calls left it, so that the
        # next one clears only that (count -1: not known, cleared whole).
        self._marks = np.zeros((size, B.MARKS), dtype=np.int16)
        # What the last compiled call worked out for observe(), handed out once.
        self._seen: Observation | None = None
        # The arrays it is written into, taken back once no one holds them (_Views); small
        # ones are new every call. Past the caches (each thread's part of them), writing
        # them whole with streaming stores beats rewriting what changed.
        large = size * _GAME_BYTES
        streamed = large // max(threads, 1) > B.STREAM_BYTES
        self._views = (
            _Views(size, whole=not reuse or streamed, read_only=reuse)
            if reuse or large >= _TAKE_BACK
            else None
        )
        self.batch = B.init(ruleset, size, seed=0, threads=threads)
        self.steps = np.zeros(size, dtype=np.int64)
        self.rng = random.Random(0)

    # ------------------------------------------------------------------ state

    def learner_to_act(self) -> npt.NDArray[np.bool_]:
        """Games in which one of the learner's seats is to act."""
        cp = self.batch.current_player
        acting: npt.NDArray[np.bool_] = (cp >= 0) & self.is_learner[np.maximum(cp, 0)]
        return acting

    def truncated(self) -> npt.NDArray[np.bool_]:
        """Games stopped at ``max_steps`` actions before their end."""
        cut: npt.NDArray[np.bool_] = (self.steps >= self.max_steps) & ~self.batch.terminated
        return cut

    def status(self, game: int) -> tuple[int, bool, bool]:
        """Game ``game``'s learner's seat to act (-1 where no learner's seat acts or the
        game is truncated), whether it is over, and whether it is truncated: what
        :meth:`learner_to_act`, ``batch.terminated`` and :meth:`truncated` say of it."""
        cp = int(self.batch.current_player[game])
        over = cp == B.TERMINAL
        cut = not over and int(self.steps[game]) >= self.max_steps
        seat = cp if cp >= 0 and not cut and self.is_learner[cp] else -1
        return seat, over, cut

    def observe(self) -> Observation:
        """Each game seen from the learner's seat to act (else its first seat); the mask
        holds that seat's legal actions, and is all zeros where no learner seat acts or
        the game is truncated."""
        seen = self._seen
        if seen is not None:
            self._seen = None
            return seen
        acting = self.learner_to_act() & ~self.truncated()
        seats = np.where(acting, self.batch.current_player, self.seats[0]).astype(np.int32)
        mask = self.batch.legal_action_mask.astype(np.int8)
        mask[~acting] = 0
        return {"observation": self.batch.observation(seats), "action_mask": mask}

    def masks(self) -> npt.NDArray[np.bool_]:
        """The mask of :meth:`observe` as booleans, ``(size, NUM_ACTIONS)``, a new array:
        the legal actions of the learner's seat to act, none where no learner seat acts or
        the game is truncated. Unlike :meth:`observe` it neither builds an observation nor
        hands out the one a step left ready, so it can be asked any number of times."""
        acting = self.learner_to_act() & ~self.truncated()
        mask: npt.NDArray[np.bool_] = self.batch.legal_action_mask.copy()
        mask[~acting] = False
        return mask

    def state(self, game: int) -> State:
        """Game ``game`` as a reference state."""
        return to_state(self.batch.rows[game], self.ruleset)

    # ------------------------------------------------------------------ play

    def start(self, seed: int, bot_seed: int) -> npt.NDArray[np.float32]:
        """New games, their chance seeded from ``seed``; the learner's rewards so far."""
        self.batch = B.init(self.ruleset, self.size, seed=seed, threads=self.threads)
        self.steps[:] = 0
        self.rng.seed(bot_seed)
        self._marks[:, 0] = -1
        return self.advance()

    def restart(self, games: npt.NDArray[np.bool_], seed: int) -> npt.NDArray[np.float32]:
        """New games in place of ``games``, seeded from ``seed``; the learner's rewards."""
        if self.compiled_others:
            return self._learn(np.where(games, B.RENEW, B.KEEP).astype(np.int8), None, seed)
        index = np.flatnonzero(games)
        if index.size:
            fresh = B.init(self.ruleset, int(index.size), seed=seed)
            batch = self.batch
            batch.rows[index] = fresh.rows
            batch.rngs[index] = fresh.rngs
            batch.choice_rngs[index] = fresh.choice_rngs
            batch.legal_action_mask[index] = fresh.legal_action_mask
            batch.current_player[index] = fresh.current_player
            batch.rewards[index] = 0.0
            self.steps[index] = 0
        return self.advance()

    def act(
        self,
        actions: npt.NDArray[np.integer[Any]],
        games: npt.NDArray[np.bool_],
        renew: npt.NDArray[np.bool_] | None = None,
        seed: int = 0,
    ) -> npt.NDArray[np.float32]:
        """Apply the learner's ``actions`` in ``games`` (each must wait for the learner),
        then let the other seats play, then put new games in place of ``renew`` (none of
        ``games``) as :meth:`restart` does with ``seed``; the learner's rewards. An illegal
        action raises :class:`IllegalActionError` before any game changes; a policy's
        illegal action raises :class:`PolicyError` after the learner's has been applied,
        so callers that must leave the games unchanged then run this inside
        :meth:`unchanged_on_error`."""
        if self.compiled_others:
            self._check(actions, games & (self.batch.current_player >= 0))
            if self.size == 1 and renew is None:
                # A single environment's step: its one game, without building arrays.
                return self._learn(_ACT_ONE if games[0] else _KEEP_ONE, actions, seed)
            modes = np.where(games, B.ACT, B.KEEP).astype(np.int8)
            if renew is not None:
                modes[renew] = B.RENEW
            return self._learn(modes, np.where(games, actions, 0), seed)
        reward = self._step(actions, games) + self.advance()
        if renew is not None and renew.any():
            reward += self.restart(renew, seed)
        return reward

    @contextmanager
    def unchanged_on_error(self) -> Iterator[None]:
        """Put the games back as they were before the block if it raises: the batch (its
        rows, generators, masks, players and rewards), the step counts and the bots'
        generator. What a policy keeps inside itself is its own."""
        if self.compiled_others:
            # Only the learner's own illegal action can fail, and it is refused before
            # any game changes: nothing to put back.
            yield
            return
        batch = self.batch
        saved = {name: getattr(batch, name).copy() for name in _BATCH_STATE}
        steps = self.steps.copy()
        rng = self.rng.getstate()
        try:
            yield
        except BaseException:
            for name, value in saved.items():
                getattr(batch, name)[...] = value
            self.batch = batch
            self.steps[:] = steps
            self.rng.setstate(rng)
            raise

    def advance(self) -> npt.NDArray[np.float32]:
        """Play the other seats until every game waits for the learner, is over or is
        truncated; the learner's rewards."""
        if self.compiled_others:
            return self._learn(np.zeros(self.size, dtype=np.int8), None, 0)
        reward = np.zeros(self.size, dtype=np.float32)
        while True:
            cp = self.batch.current_player
            others = (cp >= 0) & ~self.is_learner[np.maximum(cp, 0)]
            others &= self.steps < self.max_steps
            if not others.any():
                return reward
            reward += self._step(self._choose(others), others)

    def _learn(
        self,
        modes: npt.NDArray[np.int8],
        actions: npt.NDArray[np.integer[Any]] | None,
        seed: int,
    ) -> npt.NDArray[np.float32]:
        """One compiled call of :func:`~pachisi.ai.compiled_bots.learner_step` (the other
        seats all compiled players); the learner's rewards."""
        chosen = (
            np.zeros(self.size, dtype=np.int32) if actions is None else actions.astype(np.int32)
        )
        views = self._views if self.observes else None
        into = views.unused() if views is not None else None
        gained, obs, view = learner_step(
            self.batch, self._players, self.steps, self.max_steps, self.seats[0], modes,
            chosen, seed, self._marks, observe=self.observes, into=into,
        )  # fmt: skip
        if views is not None and into is not None:
            views.hand_out(into)
        self._seen = None if obs is None or view is None else {
            "observation": obs, "action_mask": view,
        }  # fmt: skip
        return gained

    def _step(
        self, actions: npt.NDArray[np.integer[Any]], games: npt.NDArray[np.bool_]
    ) -> npt.NDArray[np.float32]:
        batch = self.batch
        cp = batch.current_player
        self._check(actions, games & (cp >= 0))
        B.step(batch, np.where(games, actions, 0), where=games)
        self.steps[games] += 1
        reward: npt.NDArray[np.float32] = np.where(games, batch.rewards[:, self.seats[0]], 0.0)
        return reward.astype(np.float32)

    def _check(self, actions: npt.NDArray[np.integer[Any]], games: npt.NDArray[np.bool_]) -> None:
        """Refuse the first action of ``games`` that is not legal there."""
        if self.size == 1:
            a = int(actions[0])
            if not games[0] or (0 <= a < NUM_ACTIONS and self.batch.legal_action_mask[0, a]):
                return  # a single game's legal action, checked without arrays
        g = B.first_illegal(self.batch, actions, games)
        if g < 0:
            return
        a = int(actions[g])
        if not 0 <= a < NUM_ACTIONS:
            raise IllegalActionError(f"action {a} is outside 0..{NUM_ACTIONS - 1}")
        legal = legal_notation(self.state(g), self.batch.legal_action_mask[g])
        where = f"game {g}: " if self.size > 1 else ""
        raise IllegalActionError(f"{where}action {a} is not legal; legal: {', '.join(legal)}")

    def _choose(self, games: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        """The action of the seat to act in each of ``games``, under its policy."""
        batch = self.batch
        actions = np.zeros(self.size, dtype=np.int64)
        cp = batch.current_player
        if any(self.names):
            named = bot_actions(batch, self.names)
            actions = np.where(named >= 0, named, actions)
        for seat, policy in enumerate(self.policies):
            if policy is None or isinstance(policy, str):
                continue
            index = np.flatnonzero(games & (cp == seat))
            if not index.size:
                continue
            if isinstance(policy, Bot):
                for g in index:
                    chosen = policy.choose(self.state(int(g)), self.rng)
                    try:
                        actions[g] = action_id(chosen, self.ruleset)
                    except Exception as error:
                        raise self._policy_error(seat, int(g), str(chosen)) from error
            elif self.batched:
                obs = self._seen_by(index, seat)
                got = np.asarray(policy(obs))
                if got.size != index.size or not np.issubdtype(got.dtype, np.integer):
                    raise PolicyError(
                        f"the {self.roles[seat]} policy at seat {seat} returned {got!r}; it "
                        f"is to return {index.size} integer action ids, one for each game "
                        f"of its batch (where seat {seat} is to act)"
                    )
                actions[index] = got.reshape(index.size)
            else:
                for g in index:
                    seen = self._seen_by(np.array([g]), seat, single=True)
                    got = policy(seen)
                    try:
                        actions[g] = _action_int(got)
                    except IllegalActionError as error:
                        raise self._policy_error(seat, int(g), repr(got)) from error
            for g in index:
                a = int(actions[g])
                if not (0 <= a < NUM_ACTIONS and self.batch.legal_action_mask[g, a]):
                    raise self._policy_error(seat, int(g), str(a))
        return actions

    def _policy_error(self, seat: int, game: int, got: str) -> PolicyError:
        """The error for a policy that returned ``got`` (as text) for ``seat`` in ``game``."""
        where = f" in game {game}" if self.size > 1 else ""
        mask = self.batch.legal_action_mask[game]
        ids = np.flatnonzero(mask).tolist()
        named = legal_notation(self.state(game), mask)
        legal = ", ".join(f"{a} ({text})" for a, text in zip(ids, named, strict=True))
        return PolicyError(
            f"the {self.roles[seat]} policy at seat {seat} returned {got}{where}, which is "
            f"not a legal action id there; legal ids: {legal} (the action_mask of the "
            f"observation it was given)"
        )

    def _seen_by(
        self, index: npt.NDArray[np.intp], seat: int, *, single: bool = False
    ) -> Observation:
        seats = np.full(self.size, seat, dtype=np.int32)
        obs = self.batch.observation(seats)[index]
        mask = self.batch.legal_action_mask[index].astype(np.int8)
        if single:
            return {"observation": obs[0], "action_mask": mask[0]}
        return {"observation": obs, "action_mask": mask}


def action_in_space(action: Any) -> int:
    """An id of the action space ``Discrete(NUM_ACTIONS)``, given as one integer (Python or
    numpy, or a 0-d array of one); anything else raises :class:`IllegalActionError`."""
    a = _action_int(action)
    if not 0 <= a < NUM_ACTIONS:
        raise IllegalActionError(f"action {a} is outside 0..{NUM_ACTIONS - 1}")
    return a


def _action_int(action: Any) -> int:
    """An action id given as an integer (Python or numpy, or a 0-d array of one)."""
    if type(action) is int:
        return action  # the usual case, at once (a bool is not an action id)
    value = np.asarray(action)
    if value.shape != () or not np.issubdtype(value.dtype, np.integer):
        raise IllegalActionError(f"an action is one integer id, not {action!r}")
    return int(value)
