"""The batch API (issue 6, items 1 and 3): games stepped together, exactly as the reference
engine plays them; masks, players, rewards, observations; illegal actions refused."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pachisi.ai.compiled_bots import bot_actions, compiled
from pachisi.fast import batch as B
from pachisi.fast.codes import O_BOARD, O_PIECES, O_PROGRESS, O_SEATS, O_STAGE, O_THROW_K
from pachisi.fast.convert import action_id, action_of
from pachisi.rules import cowries, engine
from pachisi.rules.actions import IllegalActionError
from pachisi.rules.ruleset import NAMED, get_ruleset, parse_ruleset


@pytest.mark.parametrize("rules", list(NAMED))
def test_explicit_chance_batch_plays_as_the_reference_engine(rules: str) -> None:
    r = get_ruleset(rules)
    n = 3
    batch = B.init(r, n, seed=1, chance="explicit")
    refs = [engine.new_game(r) for _ in range(n)]
    rng = random.Random(5)
    for _ in range(700):
        ks = np.zeros(n, dtype=np.int64)
        acts = np.zeros(n, dtype=np.int64)
        for b, s in enumerate(refs):
            if s.is_over:
                assert batch.current_player[b] == B.TERMINAL
            elif engine.current_player(s) == engine.CHANCE:
                assert batch.current_player[b] == B.CHANCE
                ks[b] = cowries.throw(rng, r.cowries, r.p_mouth_up)
            else:
                assert batch.current_player[b] == s.seat
                legal = engine.legal_actions(s)
                ids = sorted(action_id(a, r) for a in legal)
                assert np.flatnonzero(batch.legal_action_mask[b]).tolist() == ids
                acts[b] = action_id(legal[rng.randrange(len(legal))], r)
        if (batch.current_player == B.CHANCE).any():
            waiting = np.flatnonzero(batch.current_player == B.CHANCE)
            B.throw(batch, ks)
            for b in waiting:
                refs[b] = engine.apply_chance(refs[b], int(ks[b]))[0]
        else:
            acting = np.flatnonzero(batch.current_player >= 0)
            B.step(batch, acts)
            for b in acting:
                refs[b] = engine.apply_action(refs[b], action_of(int(acts[b]), refs[b]))[0]
        assert batch.states() == refs


def test_sampled_batches_are_reproducible_and_always_await_a_decision() -> None:
    r = get_ruleset("classic")
    a = B.init(r, 16, seed=3)
    b = B.init(r, 16, seed=3)
    for _ in range(400):
        assert ((a.current_player >= 0) | a.terminated).all()
        acts = a.legal_action_mask.argmax(axis=1)
        B.step(a, acts)
        B.step(b, acts)
    assert np.array_equal(a.rows, b.rows)
    assert not np.array_equal(a.rows, B.init(r, 16, seed=4).rows)


def test_rewards_are_given_once_when_a_game_ends() -> None:
    r = get_ruleset("ludii")
    batch = B.init(r, 8, seed=2)
    total = np.zeros((8, 4), dtype=np.float32)
    rng = np.random.default_rng(0)
    while not batch.terminated.all():
        acts = np.array(
            [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in batch.legal_action_mask]
        )
        B.step(batch, acts)
        total += batch.rewards
    for b, state in enumerate(batch.states()):
        outcome = engine.outcome(state)
        assert outcome is not None and not outcome.is_draw
        want = [1.0 if s in outcome.seats else -1.0 for s in range(4)]
        assert total[b].tolist() == want
    # Partners share their reward.
    assert np.array_equal(total[:, 0], total[:, 2]) and np.array_equal(total[:, 1], total[:, 3])


def test_an_illegal_action_is_an_error_and_changes_nothing() -> None:
    batch = B.init(get_ruleset("classic"), 4, seed=1)
    before = batch.rows.copy()
    acts = batch.legal_action_mask.argmax(axis=1)
    illegal = int(np.flatnonzero(~batch.legal_action_mask[2])[0])
    acts[2] = illegal
    with pytest.raises(IllegalActionError, match="game 2"):
        B.step(batch, acts)
    with pytest.raises(IllegalActionError, match="outside"):
        B.step(batch, np.full(4, 99999))
    with pytest.raises(IllegalActionError):
        B.step(batch, [0, 0])
    assert np.array_equal(batch.rows, before)


def test_first_illegal_names_the_first_bad_game_among_those_asked_about() -> None:
    """The compiled check before any game changes: the first game of ``games`` whose
    action is outside the ids or not set in its mask; games left out are not looked at,
    and an action too large for 64 bits is outside too."""
    batch = B.init(get_ruleset("classic"), 5, seed=3)
    legal = batch.legal_action_mask.argmax(axis=1)
    every = np.ones(5, dtype=np.bool_)
    assert B.first_illegal(batch, legal, every) == -1
    acts = legal.copy()
    acts[3] = int(np.flatnonzero(~batch.legal_action_mask[3])[0])
    acts[4] = -1
    assert B.first_illegal(batch, acts, every) == 3
    assert B.first_illegal(batch, acts, every & (np.arange(5) != 3)) == 4
    assert B.first_illegal(batch, acts, np.arange(5) < 3) == -1
    for outside in (B.NUM_ACTIONS, 2**40):
        acts = legal.copy()
        acts[1] = outside
        assert B.first_illegal(batch, acts, every) == 1
    huge = legal.astype(np.uint64)
    huge[0] = np.uint64(2**64 - 1)
    assert B.first_illegal(batch, huge, every) == 0
    assert B.first_illegal(batch, legal.astype(np.int16), every) == -1


def test_explicit_throws_are_checked() -> None:
    batch = B.init(get_ruleset("classic"), 2, chance="explicit")
    with pytest.raises(IllegalActionError, match=r"0\.\.6"):
        B.throw(batch, [7, 0])


def test_observation_layout() -> None:
    r = get_ruleset("classic")
    batch = B.init(r, 1, seed=9)
    for _ in range(60):
        # The highest legal id: a move or an entry where there is one (id 0 declines).
        highest = (
            batch.legal_action_mask.shape[1] - 1 - batch.legal_action_mask[:, ::-1].argmax(axis=1)
        )
        B.step(batch, highest)
    assert any(0 < p < 84 for p in batch.states()[0].pos)
    state = batch.states()[0]
    seat = int(batch.current_player[0])
    obs = batch.observation()[0]
    assert obs.shape == (B.OBS_SIZE,)
    # Own pieces first, in the observer's own progress.
    own = [p / 84.0 for p in state.seat_pieces(seat)]
    assert obs[O_PIECES : O_PIECES + 4] == pytest.approx(own)
    # Every piece counted once per plane group; board planes count pieces on squares.
    assert obs[O_PROGRESS:O_BOARD].sum() == 16
    on_board = sum(1 for p in state.pos if 0 < p < 84)
    assert obs[O_BOARD:O_THROW_K].sum() == on_board
    assert obs[O_STAGE + int(state.stage)] == 1.0
    assert obs[O_SEATS + 12] == 1.0
    # Seen from another seat, the same game reads differently but holds the same pieces.
    other = batch.observation([(seat + 1) % 4])[0]
    assert other[O_PROGRESS:O_BOARD].sum() == 16
    assert not np.array_equal(other, obs)


def test_compiled_players_choose_legal_reproducible_actions() -> None:
    r = get_ruleset("classic")
    a = B.init(r, 32, seed=5)
    b = B.init(r, 32, seed=5)
    players = ["greedy", "random", "greedy", None]
    for _ in range(300):
        acts = bot_actions(a, players)
        assert np.array_equal(acts, bot_actions(b, players))  # same seed, same choices
        for g in range(a.size):
            seat = int(a.current_player[g])
            if seat < 0 or players[seat] is None:
                assert acts[g] == -1
            else:
                assert a.legal_action_mask[g, acts[g]]
        chosen = np.where(acts < 0, a.legal_action_mask.argmax(axis=1), acts)
        B.step(a, chosen)
        B.step(b, chosen)
    assert np.array_equal(a.rows, b.rows)


def test_choose_checks_the_players_codes_and_tables() -> None:
    # The engine's side of bot_actions: the kernels take codes and greedy's tables as they
    # come, so the engine refuses what would make them read out of bounds.
    batch = B.init(get_ruleset("classic"), 2, seed=1)
    c = compiled(batch.ruleset)
    none = np.full(4, -1, dtype=np.int32)
    assert B.choose(batch, none, c.weights, c.hit).tolist() == [-1, -1]
    with pytest.raises(ValueError, match="one player per seat"):
        B.choose(batch, none[:3], c.weights, c.hit)
    with pytest.raises(ValueError, match="a player is -1"):
        B.choose(batch, np.full(4, 7, dtype=np.int32), c.weights, c.hit)
    with pytest.raises(ValueError, match=r"distances 0\.\.25"):
        B.choose(batch, none, c.weights, c.hit[:5])


def test_step_where_leaves_the_other_games_alone() -> None:
    batch = B.init(get_ruleset("classic"), 4, seed=1)
    before = batch.rows.copy()
    where = np.array([True, False, True, False])
    acts = batch.legal_action_mask.argmax(axis=1)
    acts[1] = 99999  # not looked at: game 1 is not stepped
    B.step(batch, acts, where=where)
    assert np.array_equal(batch.rows[1], before[1]) and np.array_equal(batch.rows[3], before[3])
    assert not np.array_equal(batch.rows[0], before[0])
    with pytest.raises(ValueError, match="where"):
        B.step(batch, acts, where=[True])


def test_an_action_id_the_ruleset_cannot_have_is_still_an_illegal_action() -> None:
    batch = B.init(get_ruleset("classic"), 1, seed=1)
    with pytest.raises(IllegalActionError):
        B.step(batch, [1 + 7])  # a move by slot 7, which six cowries never throw


@pytest.mark.parametrize(
    "rules", ["classic", "wikipedia-full", "ludii", "classic+teams=individual"]
)
def test_advance_plays_what_choosing_and_stepping_round_by_round_plays(rules: str) -> None:
    # fast.batch.advance in one compiled call against choose + step from Python, round by
    # round, with seat 0 played from outside (it takes the lowest legal id) and a step cap.
    from pachisi.ai.compiled_bots import compiled

    ruleset = parse_ruleset(rules)
    c = compiled(ruleset)
    bots = np.array([-1, 1, 0, 1], dtype=np.int32)  # seat 0 outside; greedy, random, greedy
    one, two = B.init(ruleset, 24, seed=5), B.init(ruleset, 24, seed=5)
    steps_one = np.zeros(24, dtype=np.int64)
    steps_two = np.zeros(24, dtype=np.int64)
    gained_one = np.zeros(24, dtype=np.float32)
    gained_two = np.zeros(24, dtype=np.float32)
    cap = 300
    for _ in range(400):
        gained_one += B.advance(one, bots, c.weights, c.hit, steps_one, cap, 1)
        while True:
            cp = two.current_player
            others = (cp >= 0) & (bots[np.maximum(cp, 0)] >= 0) & (steps_two < cap)
            if not others.any():
                break
            chosen = B.choose(two, bots, c.weights, c.hit)
            B.step(two, np.where(others, chosen, 0), where=others)
            steps_two[others] += 1
            gained_two += np.where(others, two.rewards[:, 1], 0.0).astype(np.float32)
        assert np.array_equal(one.rows, two.rows)
        assert np.array_equal(one.current_player, two.current_player)
        assert np.array_equal(steps_one, steps_two) and np.array_equal(gained_one, gained_two)
        outside = (one.current_player == 0) & (steps_one < cap)
        if not outside.any():
            break
        first = one.legal_action_mask.argmax(axis=1)
        for batch, steps in ((one, steps_one), (two, steps_two)):
            B.step(batch, first, where=outside)
            steps[outside] += 1
    assert one.terminated.any() or (steps_one >= cap).any()


def test_threads_step_the_same_games() -> None:
    # Every game has its own row and generators: spread over threads, the batch plays the
    # same games (600 games: three parts of at least MIN_PART).
    from pachisi.ai.compiled_bots import bot_actions

    ruleset = get_ruleset("classic")
    one = B.init(ruleset, 3 * B.MIN_PART, seed=4)
    three = B.init(ruleset, 3 * B.MIN_PART, seed=4, threads=3)
    for _ in range(60):
        actions = bot_actions(one, ["greedy", "random"] * 2)
        assert np.array_equal(actions, bot_actions(three, ["greedy", "random"] * 2))
        B.step(one, np.maximum(actions, 0))
        B.step(three, np.maximum(actions, 0))
    assert np.array_equal(one.rows, three.rows)
    assert np.array_equal(one.legal_action_mask, three.legal_action_mask)
    assert np.array_equal(one.observation(), three.observation())
    assert len(three._scratches) == 3
    with pytest.raises(ValueError, match="threads"):
        B.init(ruleset, 4, threads=0)


def test_a_forked_child_still_spreads_a_batch_over_threads() -> None:
    # The pools of threads are cached per process: a child forked after the parent used
    # them must make its own, or its work would wait for threads it does not have.
    import multiprocessing

    ruleset = get_ruleset("classic")
    B.step(B.init(ruleset, 2 * B.MIN_PART, seed=1, threads=2), np.zeros(2 * B.MIN_PART, int))
    child = multiprocessing.get_context("fork").Process(target=_step_spread_batch)
    child.start()
    child.join(timeout=30)
    stuck = child.is_alive()
    if stuck:
        child.kill()
    assert not stuck and child.exitcode == 0


def _step_spread_batch() -> None:
    games = B.init(get_ruleset("classic"), 2 * B.MIN_PART, seed=2, threads=2)
    B.step(games, np.maximum(bot_actions(games, ["random"] * 4), 0))
