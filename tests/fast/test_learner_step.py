"""The learner's step in one compiled call (issue 22, item 4): ``batch.learner_step`` gives
exactly what ``init``, ``step``, ``advance`` and ``observation`` give one after another."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from pachisi.ai.compiled_bots import learner_step, play_until_outside
from pachisi.fast import _core as core
from pachisi.fast import batch as B
from pachisi.fast.codes import NUM_ACTIONS
from pachisi.rules.ruleset import NAMED, get_ruleset

_ARRAYS = ("rows", "rngs", "choice_rngs", "legal_action_mask", "current_player", "rewards")

Players = tuple[str | None, ...]


def _reference(
    batch: B.Batch,
    players: Players,
    steps: npt.NDArray[np.int64],
    max_steps: int,
    seat: int,
    modes: npt.NDArray[np.int8],
    actions: npt.NDArray[np.int32],
    seed: int,
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.int8]]:
    """The same step made of the batch API's calls, as the environments made it before."""
    act = modes == B.ACT
    steps[act & (batch.current_player >= 0)] += 1
    B.step(batch, np.where(act, actions, 0), where=act)
    gained = np.where(act, batch.rewards[:, seat], 0.0).astype(np.float32)
    gained += play_until_outside(batch, players, steps, max_steps, seat)
    renew = np.flatnonzero(modes == B.RENEW)
    if renew.size:
        fresh = B.init(batch.ruleset, int(renew.size), seed=seed)
        for name in _ARRAYS:
            getattr(batch, name)[renew] = getattr(fresh, name)
        batch.rewards[renew] = 0.0
        steps[renew] = 0
        gained += play_until_outside(batch, players, steps, max_steps, seat)
    cp = batch.current_player
    learner = np.array([p is None for p in players])
    acting = (cp >= 0) & learner[np.maximum(cp, 0)] & (steps < max_steps)
    obs = batch.observation(np.where(acting, cp, seat).astype(np.int32))
    mask = batch.legal_action_mask.astype(np.int8)
    mask[~acting] = 0
    return gained, obs, mask


def _random_legal(mask: npt.NDArray[np.bool_], rng: np.random.Generator) -> npt.NDArray[np.int32]:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], dtype=np.int32)


def _run(
    rules: str, players: Players, size: int, threads: int, rounds: int, reuse: bool = False
) -> None:
    """``rounds`` learner steps of ``size`` games against :func:`_reference`; with
    ``reuse`` the observations and masks are written over two views handed in turn (as
    the vector environment's ``copy=False`` does), else into new arrays."""
    ruleset = get_ruleset(rules)
    seat = next(s for s in range(4) if players[s] is None)
    max_steps = 120
    ours = B.init(ruleset, size, seed=5, threads=threads)
    theirs = B.init(ruleset, size, seed=5)
    our_steps = np.zeros(size, dtype=np.int64)
    their_steps = np.zeros(size, dtype=np.int64)
    marks = np.zeros((size, B.MARKS), dtype=np.int16)
    marks[:, 0] = -1
    rng = np.random.default_rng(11)
    modes = np.full(size, B.KEEP, dtype=np.int8)
    actions = np.zeros(size, dtype=np.int32)
    renewed = 0
    views = (B.LearnerView.empty(size), B.LearnerView.empty(size)) if reuse else (None, None)
    for r in range(rounds):
        seed = 1000 + r
        into = views[r % 2]
        got, obs, view = learner_step(
            ours, players, our_steps, max_steps, seat, modes, actions, seed, marks,
            observe=True, into=into,
        )  # fmt: skip
        if into is not None:
            assert obs is into.observation and view is into.action_mask
        want, want_obs, want_view = _reference(
            theirs, players, their_steps, max_steps, seat, modes, actions, seed
        )
        for name in _ARRAYS:
            assert np.array_equal(getattr(ours, name), getattr(theirs, name)), (name, r)
        assert np.array_equal(our_steps, their_steps)
        assert np.array_equal(got, want)
        assert obs is not None and view is not None
        assert np.array_equal(obs, want_obs) and np.array_equal(view, want_view)
        # The next step: a new game where one ended or was cut short, else a legal action.
        done = (ours.current_player < 0) | (our_steps >= max_steps)
        renewed += int(done.sum())
        modes = np.where(done, B.RENEW, B.ACT).astype(np.int8)
        actions = _random_legal(view.astype(bool), rng)
    assert renewed > 0


@pytest.mark.parametrize("reuse", [False, True], ids=["new-arrays", "written-over"])
@pytest.mark.parametrize("rules", list(NAMED))
def test_learner_step_is_init_step_advance_and_observe(rules: str, reuse: bool) -> None:
    _run(rules, (None, "random", "greedy", "random"), size=12, threads=1, rounds=150, reuse=reuse)


@pytest.mark.parametrize(
    "players",
    [
        (None, "greedy", None, "greedy"),
        (None, None, None, None),
        ("random", None, "random", "random"),
    ],
)
def test_learner_step_for_teams_every_seat_and_other_seats(players: Players) -> None:
    _run("classic", players, size=10, threads=1, rounds=150)


@pytest.mark.parametrize("reuse", [False, True], ids=["new-arrays", "written-over"])
def test_learner_step_gives_the_same_with_two_threads(reuse: bool) -> None:
    _run("ludii", (None, "random", "random", "random"), size=600, threads=2, rounds=40, reuse=reuse)


def test_learner_step_streams_large_new_arrays_with_ragged_ends() -> None:
    """New observations and masks larger than ``core.stream_bytes()`` (8 MB) are
    streamed out past the caches (learner.pxi). An odd number of
    games on two threads, each part above that size: one part has an odd number of games,
    so its masks end inside an 8-byte word (NUM_ACTIONS is 6 past a multiple of 8), and
    the bytes on either side of that boundary are written the ordinary way."""
    per_game = B.OBS_SIZE * 4 + NUM_ACTIONS
    part = core.stream_bytes() // per_game + 2
    _run("classic", (None, "random", "greedy", "random"), size=2 * part + 1, threads=2, rounds=35)


_Games = tuple[
    B.Batch,
    npt.NDArray[np.int32],
    npt.NDArray[np.int64],
    npt.NDArray[np.int16],
    npt.NDArray[np.int8],
]


def _three_games(mode: int) -> _Games:
    """Three new ``classic`` games, a copy of their rows, their step counts, marks that
    know nothing, and ``mode`` for each."""
    batch = B.init(get_ruleset("classic"), 3, seed=1)
    marks = np.full((3, B.MARKS), -1, dtype=np.int16)
    modes = np.full(3, mode, dtype=np.int8)
    return batch, batch.rows.copy(), np.zeros(3, dtype=np.int64), marks, modes


@pytest.mark.parametrize(
    ("which", "offset"),
    [("observation", -1), ("observation", B.OBS_SIZE), ("mask", -2), ("mask", NUM_ACTIONS)],
)
def test_learner_step_refuses_marks_outside_their_rows_before_any_change(
    which: str, offset: int
) -> None:
    """The marks are written through: a mark outside its row would write outside the
    array, so it is refused before any game changes."""
    batch, before, steps, marks, modes = _three_games(B.KEEP)
    actions = np.zeros(3, dtype=np.int32)
    into = B.LearnerView.empty(3)
    row = into.observation_marks if which == "observation" else into.mask_marks
    row[2, :3] = (2, 0, offset)
    with pytest.raises(ValueError, match="marks"):
        learner_step(
            batch, (None, "random", "random", "random"), steps, 50, 0, modes, actions, 0,
            marks, observe=True, into=into,
        )  # fmt: skip
    assert np.array_equal(batch.rows, before) and not steps.any()


def test_learner_step_refuses_a_view_of_another_size() -> None:
    batch, _, steps, marks, modes = _three_games(B.KEEP)
    with pytest.raises(ValueError, match="holds 4 games, not 3"):
        learner_step(
            batch, (None,) * 4, steps, 50, 0, modes, np.zeros(3, dtype=np.int32), 0, marks,
            observe=True, into=B.LearnerView.empty(4),
        )  # fmt: skip


def test_learner_step_refuses_an_illegal_action_before_any_change() -> None:
    batch, before, steps, marks, modes = _three_games(B.ACT)
    actions = batch.legal_action_mask.argmax(axis=1).astype(np.int32)
    actions[1] = int(np.flatnonzero(~batch.legal_action_mask[1])[-1])
    assert actions[1] < NUM_ACTIONS
    with pytest.raises(ValueError, match="not legal"):
        learner_step(batch, (None,) * 4, steps, 50, 0, modes, actions, 0, marks, observe=False)
    assert np.array_equal(batch.rows, before) and not steps.any()
