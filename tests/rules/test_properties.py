"""Property tests (hypothesis): random games of every named ruleset and many variants.

Each game is driven by a seeded ``random.Random`` (hypothesis draws the seed): throws come from
:func:`pachisi.rules.cowries.throw` with the ruleset's cowries and ``p_mouth_up``, and actions
are picked uniformly among the legal ones. At every step the invariants below are checked
against RULES.md; every listed action is applied (and its result checked), not only the one
that is played on.
"""

from __future__ import annotations

import functools
import os
import random
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pachisi.rules import cowries, engine, invariants
from pachisi.rules.actions import DECLINE, Action
from pachisi.rules.board import HOME, IS_CASTLE, SQUARE_OF
from pachisi.rules.engine import (
    apply_action,
    apply_chance,
    current_player,
    legal_actions,
    new_game,
    no_side_can_win,
    outcome,
)
from pachisi.rules.ruleset import NAMED, Ruleset, derive, parse_ruleset
from pachisi.rules.state import CHANCE, TERMINAL, Event, Memo, Stage, State

VARIANT_GAMES = 3 if os.environ.get("PACHISI_SLOW") == "1" else 1
"""Random games of each variant: one in CI (a new seed each run, about 30 s in all on the
reference engine), three with ``PACHISI_SLOW=1``."""

STEP_CAP = 60_000
"""Generous: random games here take about 700 to 2,000 steps."""

NAMED_RULESETS = list(NAMED)

VARIANTS = [
    # The brief's list: classic with one switch (or one coupled pair) changed.
    "classic+extra_lap=true",
    "classic+blockade=true",
    "classic+split_throw=group",
    "classic+split_throw=split",
    "classic+stack_immune=true",
    "classic+castle_mode=coexist",
    "classic+castle_mode=inert",
    "classic+capture_scope=top_one",
    "classic+stacking=none",
    "classic+stacking=castles_only",
    "classic+teams=individual",
    "classic+players=2",
    "classic+finished_seat=throw_for_partner",
    "classic+moves_compulsory=true",
    "classic+unusable_throw=forfeit_turn",
    "classic+grace_must_enter=true",
    "classic+entry_mode=consume_plus_move",
    "classic+entry_mode=count_from_charkoni",
    "classic+first_piece_free=square1",
    "classic+kill_before_home=team+recapture_annul=true",
    "classic+pyada=true+pyada_use=attached",
    "classic+pyada=true",
    "classic+triple_cancel=group",
    "classic+triple_cancel=same",
    "classic+p_mouth_up=2/5",
    # A few more combinations that bring several switches together.
    "classic+p_mouth_up=3/5",
    "classic+cowries=7",
    "classic+kill_before_home=seat",
    "classic+stacking=j1,d9,j19,p11",
    "classic+teams=individual+kill_before_home=team+recapture_annul=true",
    "classic+players=2+kill_before_home=seat+recapture_annul=true",
    "classic+extra_lap=true+finished_seat=throw_for_partner+blockade=true",
    "classic+blockade=true+split_throw=group+castle_mode=inert",
    "classic+capture_scope=top_one+castle_mode=inert+stack_immune=true",
    "classic+unusable_throw=forfeit_turn+pyada=true+pyada_condition=always",
    "wikipedia-full+six_up_value=35",
    "wikipedia-full+throw_usage=immediate+pyada_use=attached",
    "wikipedia-full+finished_seat=throw_for_partner+triple_scope=turn",
    "herklots-6+stacking=castles_only",
    "wikipedia-full+seven_fourteen_needs_piece=rethrow_only",
    "herklots-7+moves_compulsory=true",
    "tylor-1879+extra_lap=true",
]

ALL_RULESETS = NAMED_RULESETS + VARIANTS


# --------------------------------------------------------------------------- helpers


@functools.cache
def _team_table(teams: str) -> tuple[int, ...]:
    return tuple(g >> 2 if teams == "individual" else (g >> 2) % 2 for g in range(16))


def team_table(r: Ruleset) -> tuple[int, ...]:
    """The team of each of the 16 pieces: R-TEAMS pairs are seat % 2; V-INDIVIDUAL, the seat."""
    return _team_table(r.teams)


def sharing_allowed(r: Ruleset, sq: int) -> bool:
    """V-STACK-RESTRICTED: may two friendly pieces stand on square ``sq``?"""
    if r.stacking == "all":
        return True
    if r.stacking == "none":
        return False
    if r.stacking == "castles_only":
        return IS_CASTLE[sq]
    assert isinstance(r.stacking, frozenset)
    return sq in r.stacking


def next_seat(s: State, seat: int) -> int:
    """The seat whose turn follows ``seat``'s (R-ORDER, R-FINISHED-SEAT)."""
    r = s.ruleset
    keeps_turns = r.ludii or (r.finished_seat == "throw_for_partner" and r.teams == "pairs")
    for step in range(1, 5):
        nxt = (seat + step) % 4
        if keeps_turns or not s.seat_finished(nxt):
            return nxt
    raise AssertionError("every seat has finished")


def credits(s: State, seat: int) -> int:
    """V-KILL-BEFORE-HOME: the credits that count for ``seat``'s pieces."""
    r = s.ruleset
    if r.kill_before_home == "team" and r.teams == "pairs":
        return s.kills[seat] + s.kills[(seat + 2) % 4]
    return s.kills[seat]


def check_state(s: State) -> None:
    """Invariants of a single state: the engine's own list (pachisi.rules.invariants), and
    this file's independent checks of the main ones."""
    invariants.check_state(s)
    r = s.ruleset
    pos = s.pos
    # R-OBJECT: 16 pieces, each waiting, on a square or home.
    assert len(pos) == 16
    assert min(pos) >= 0 and max(pos) <= HOME, pos
    # V-KILL-BEFORE-HOME: credits never go negative (V-RECAPTURE-ANNUL only takes back).
    assert min(s.kills) >= 0, s.kills

    teams = team_table(r)
    restricted = r.stacking != "all"
    block = r.castle_mode == "block"
    team_on: dict[int, int] = {}
    friendly: set[tuple[int, int]] = set()
    left_charkoni = 0
    not_home = 0
    on_board: list[int] = []
    for g, p in enumerate(pos):
        if p:
            left_charkoni |= 1 << (g >> 2)
        if p != HOME:
            not_home |= 1 << (g >> 2)
        if not 0 < p < HOME:
            continue
        on_board.append(g)
        sq = SQUARE_OF[g >> 2][p]
        t = teams[g]
        other = team_on.setdefault(sq, t)
        # R-CASTLE-BLOCK: under block nobody lands on a castle an enemy holds, and nobody is
        # captured there, so no castle ever holds pieces of two teams.
        if block and other != t and IS_CASTLE[sq]:
            pytest.fail(f"castle {sq} holds pieces of teams {other} and {t}: {pos}")
        # V-STACK-RESTRICTED: friendly pieces share only where the stacking rule allows.
        if restricted:
            if (sq, t) in friendly:
                assert sharing_allowed(r, sq), f"stacking={r.stacking}: square {sq}: {pos}"
            friendly.add((sq, t))

    # C.11: with top_one the stack order lists exactly the pieces on the board.
    if r.tracks_stack_order:
        assert sorted(s.order) == on_board, (s.order, pos)
    # R-FIRST-PIECE-FREE: entered[s] is true once any piece of s has left the Charkoni.
    assert left_charkoni & ~s.entered == 0, (pos, s.entered)
    # V-EXTRA-LAP: lap counters only with extra_lap, and reset by capture.
    if s.laps:
        assert r.extra_lap, s.laps
        for g in range(16):
            if s.laps >> g & 1:
                assert pos[g] != 0, f"piece {g} waits with its lap counter set"

    finished = [seat for seat in range(4) if not not_home >> seat & 1]
    if r.teams == "individual":
        sides_home = finished
    else:
        sides_home = [t for t in (0, 1) if t in finished and t + 2 in finished]
    if s.stage is Stage.OVER:
        # R-TEAM-WIN / V-INDIVIDUAL-WIN: the winner's pieces are all home.
        o = outcome(s)
        assert o is not None
        assert o.individual == (r.teams == "individual")
        assert current_player(s) == TERMINAL
        if o.is_draw:
            # R-DEADLOCK: a draw has no winner and ends a game that no side had won.
            assert o.seats == () and not sides_home, pos
            assert no_side_can_win(s), pos
            return
        if r.teams == "individual":
            assert o.seats == (o.winner,)
        else:
            assert o.winner in (0, 1)
            assert set(o.seats) == {o.winner, o.winner + 2}
        assert o.winner in sides_home, f"winner {o.winner} is not home: {pos}"
    else:
        # R-TEAM-WIN: the game ends at once when a side is home, so a running game has none.
        assert outcome(s) is None
        assert not sides_home, f"side {sides_home} is home but the game goes on: {pos}"
        # R-DEADLOCK: under deadlock=draw a game that no side can win has already ended.
        if r.deadlock == "draw":
            assert not no_side_can_win(s), f"no side can win but the game goes on: {pos}"
        # R-FINISHED-SEAT (skip): a finished seat misses its turns (ludii: E.2 item 6).
        partner_throws = r.finished_seat == "throw_for_partner" and r.teams == "pairs"
        if s.stage is not Stage.THROW_OFF and not r.ludii and not partner_throws:
            assert s.seat not in finished, f"finished seat {s.seat} is playing: {pos}"


def check_transition(before: State, after: State, events: list[Event]) -> None:
    """Invariants of one transition (a throw or an action)."""
    r = before.ruleset
    # R-FIRST-PIECE-FREE: entered[s] stays true for the rest of the game.
    assert before.entered & ~after.entered == 0
    captured: set[int] = set()
    movers = sum(1 for ev in events if ev.kind in ("move", "enter"))
    for ev in events:
        if ev.kind == "capture":
            assert ev.pieces, ev
            captured.update(ev.pieces)
            check_capture(after, ev, movers)
        elif ev.kind == "turn":
            # R-ORDER: turns pass counter-clockwise, s -> s + 1; R-FINISHED-SEAT (skip): a
            # finished seat misses its turns (ludii and throw_for_partner: it keeps them).
            assert after.seat == ev.seat == next_seat(after, before.seat), (before.seat, ev)
    if before.pos == after.pos and before.laps == after.laps:
        assert not captured, events
        return
    for g in range(16):
        a, b = before.pos[g], after.pos[g]
        lap_before, lap_after = before.laps >> g & 1, after.laps >> g & 1
        if a == b and lap_before == lap_after:
            assert g not in captured, (g, events)
            continue
        if a == HOME:
            # R-OBJECT: a finished piece is out of play for good.
            pytest.fail(f"piece {g} left home: {a} -> {b}")
        if g in captured:
            # R-CAPTURE: a captured piece goes back to the Charkoni and loses its lap counter.
            assert 1 <= a < HOME and b == 0, f"captured piece {g}: {a} -> {b}"
            assert not lap_after
        elif b < a:
            # Progress never decreases, except by capture or by an extra lap (V-EXTRA-LAP).
            assert r.extra_lap, f"piece {g} went back {a} -> {b} without capture: {events}"
            assert not lap_before and lap_after, f"piece {g}: {a} -> {b} but no new lap"
            assert a <= 75 and 8 <= b < HOME, f"lap move of piece {g}: {a} -> {b}"
        if lap_before and not lap_after:
            assert g in captured, f"piece {g} lost its lap counter without capture"
        if b == HOME and r.kill_before_home != "false":
            # V-KILL-BEFORE-HOME: the final step needs a kill credit.
            assert credits(after, g >> 2) >= 1, f"piece {g} got home without a kill credit"


def check_capture(after: State, ev: Event, movers: int) -> None:
    """One capture (R-CAPTURE, R-TEAMS, R-CASTLE-SAFE, V-STACK-IMMUNE)."""
    r = after.ruleset
    teams = team_table(r)
    owner_team = teams[4 * ev.seat]
    # R-TEAMS: partners (and one's own pieces) are never captured.
    assert all(teams[c] != owner_team for c in ev.pieces), ev
    # R-CASTLE-SAFE: with block or coexist nobody is ever captured on a castle.
    if r.castle_mode != "inert":
        assert not IS_CASTLE[ev.to], f"capture on castle {ev.to} under {r.castle_mode}"
    if r.capture_scope == "top_one":
        # R-CAPTURE top_one: only the top enemy piece goes back.
        assert len(ev.pieces) == 1, ev
    else:
        # R-CAPTURE all: every enemy piece goes back and the mover then stands alone.
        for g, p in enumerate(after.pos):
            if 0 < p < HOME and SQUARE_OF[g >> 2][p] == ev.to:
                assert teams[g] == owner_team, f"enemy {g} left on square {ev.to}: {ev}"
    if r.stack_immune and movers == 1:
        # V-STACK-IMMUNE: a single piece captures only a lone enemy piece.
        assert len(ev.pieces) == 1, ev


def check_actions(s: State, actions: tuple[Action, ...]) -> None:
    """legal_actions: non-empty, no duplicates, DECLINE as R-DECLINE / V-MOVE-COMPULSORY say."""
    r = s.ruleset
    assert actions, f"no legal action for seat {s.seat} at stage {s.stage!r}"
    assert len(set(actions)) == len(actions), f"duplicates in {[str(a) for a in actions]}"
    if s.split_left:
        # V-SPLIT-THROW: a throw is used in full or declined in full; once a part is played,
        # the remaining parts must be played.
        return
    if r.first_piece_free == "ludii_forced" and not s.entered >> s.seat & 1:
        # E.2 item 4: the first-phase throw must move a piece from the hand; no pass.
        assert DECLINE not in actions
        return
    if r.moves_compulsory:
        # V-MOVE-COMPULSORY: DECLINE only when nothing else is legal.
        assert (DECLINE in actions) == (actions == (DECLINE,)), [str(a) for a in actions]
    else:
        # R-DECLINE / R-NO-LIMIT: declining is always allowed.
        assert DECLINE in actions, [str(a) for a in actions]


def random_step(s: State, rng: random.Random) -> State:
    """One checked step: a throw when one is due, else a uniformly random legal action."""
    r = s.ruleset
    player = current_player(s)
    if player == CHANCE:
        assert legal_actions(s) == ()
        k = cowries.throw(rng, r.cowries, r.p_mouth_up)
        assert 0 <= k <= r.cowries
        after, events = apply_chance(s, k)
        check_transition(s, after, events)
        check_state(after)
        return after
    assert player == s.seat
    actions = legal_actions(s)
    check_actions(s, actions)
    results = []
    for a in actions:
        after, events = apply_action(s, a)  # every listed action applies
        check_transition(s, after, events)
        check_state(after)
        results.append(after)
    return results[rng.randrange(len(results))]


AFTER_DRAW = 1_000
"""Steps played on past a draw (under deadlock=continue), to check that nobody wins there."""


def play_random_game(rules: str, seed: int) -> str:
    """Play one random game with every check; 'win' or 'draw' (fails at the step cap)."""
    r = parse_ruleset(rules)
    rng = random.Random(seed)
    s = new_game(r)
    check_state(s)
    for _ in range(STEP_CAP):
        before = s
        s = random_step(s, rng)
        if current_player(s) != TERMINAL:
            continue
        result = outcome(s)
        assert result is not None
        if not result.is_draw:
            return "win"
        check_draw(before, s, rng)
        return "draw"
    pytest.fail(f"{rules} seed {seed}: no winner and no draw after {STEP_CAP} steps")


def check_draw(before: State, drawn: State, rng: random.Random) -> None:
    """R-DEADLOCK: a draw comes only from kill-before-home, only when every side is
    blocked, and (but under castle_mode=inert, see docs/rules-notes.md) nobody can win
    from there: replayed under deadlock=continue, the game goes on with no winner."""
    r = drawn.ruleset
    assert r.kill_before_home != "false" and r.deadlock == "draw"
    assert no_side_can_win(drawn)
    assert not no_side_can_win(before), "the draw came late: the position before was drawn"
    going_on = derive(r, {"deadlock": "continue"})
    s = before._replace(ruleset=going_on, memo=Memo())
    for move in [*legal_actions(s)] or [k for k, _ in engine.chance_outcomes(s)]:
        after, _ = engine.apply(s, move)
        if no_side_can_win(after):
            s = after
            break
    else:
        pytest.fail("no move of the position before the draw leads to it")
    if r.castle_mode == "inert":
        return
    for _ in range(AFTER_DRAW):
        s = random_step(s, rng)
        assert current_player(s) != TERMINAL, "a side won after R-DEADLOCK said none could"
        assert no_side_can_win(s)


# --------------------------------------------------------------------------- random games


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _check_random_game(rules: str, seed: int) -> None:
    result = play_random_game(rules, seed)
    if parse_ruleset(rules).kill_before_home == "false":
        assert result == "win"


@pytest.mark.parametrize("rules", NAMED_RULESETS)
@settings(max_examples=5, deadline=None)
@given(seed=SEEDS)
def test_random_games_of_named_rulesets_keep_the_invariants_and_end(rules: str, seed: int) -> None:
    """R-OBJECT, R-CASTLE-BLOCK, V-STACK-RESTRICTED, R-CAPTURE, V-EXTRA-LAP, R-DECLINE,
    V-KILL-BEFORE-HOME, R-TEAM-WIN / V-INDIVIDUAL-WIN and R-NO-LIMIT over random games."""
    _check_random_game(rules, seed)


@pytest.mark.parametrize("rules", VARIANTS)
@settings(max_examples=VARIANT_GAMES, deadline=None)
@given(seed=SEEDS)
def test_random_games_of_variants_keep_the_invariants_and_end(rules: str, seed: int) -> None:
    """As above, for variant combinations (RULES.md C switches off their E.1 defaults)."""
    _check_random_game(rules, seed)


@pytest.mark.parametrize("rules", ["classic", "wikipedia-full", "ludii", "tylor-1879"])
def test_random_games_are_reproducible_from_the_seed(rules: str) -> None:
    """Same seed, same game: the engine is a pure function of throws and actions."""

    def trace(seed: int) -> list[tuple[int, ...]]:
        r = parse_ruleset(rules)
        rng = random.Random(seed)
        s = new_game(r)
        out = []
        for _ in range(300):
            if current_player(s) == TERMINAL:
                break
            if current_player(s) == CHANCE:
                s, _ = apply_chance(s, cowries.throw(rng, r.cowries, r.p_mouth_up))
            else:
                actions = legal_actions(s)
                s, _ = apply_action(s, actions[rng.randrange(len(actions))])
            out.append(s.pos)
        return out

    assert trace(7) == trace(7)


# --------------------------------------------------------------------------- chance outcomes


@settings(max_examples=200, deadline=None)
@given(
    n=st.sampled_from([6, 7]),
    p=st.fractions(
        min_value=Fraction(1, 1000), max_value=Fraction(999, 1000), max_denominator=1000
    ),
)
def test_r_throw_table_chance_outcomes_sum_to_exactly_one(n: int, p: Fraction) -> None:
    """R-THROW-TABLE / B.2: P(k up) = C(n,k) p^k q^(n-k), exact fractions summing to 1."""
    out = cowries.chance_outcomes(n, p)
    assert [k for k, _ in out] == list(range(n + 1))
    assert all(isinstance(pr, Fraction) and pr > 0 for _, pr in out)
    assert sum(pr for _, pr in out) == 1
    for k, pr in out:
        assert pr == comb(n, k) * p**k * (1 - p) ** (n - k)


@pytest.mark.parametrize("cowrie_count", [6, 7])
@pytest.mark.parametrize("p", ["1/2", "2/5", "3/5", "1/3", "0.45", "9/10"])
def test_r_throw_table_engine_chance_outcomes_sum_to_one(cowrie_count: int, p: str) -> None:
    r = parse_ruleset(f"classic+cowries={cowrie_count}+p_mouth_up={p}+first_player=seat0")
    s = new_game(r)
    out = engine.chance_outcomes(s)
    assert [k for k, _ in out] == list(range(cowrie_count + 1))
    assert sum(pr for _, pr in out) == Fraction(1)
    assert all(isinstance(pr, Fraction) for _, pr in out)
    # No throw is due while a seat decides: no chance outcomes.
    s, _ = apply_chance(s, 3)
    assert current_player(s) == 0
    assert engine.chance_outcomes(s) == []


def test_b2_six_cowries_half_probabilities() -> None:
    """B.2: 1, 6, 15, 20, 15, 6, 1 over 64; P(grace) in classic = 1/8."""
    out = dict(cowries.chance_outcomes(6, Fraction(1, 2)))
    assert [out[k] * 64 for k in range(7)] == [1, 6, 15, 20, 15, 6, 1]
    r = NAMED["classic"]
    grace = sum(pr for k, pr in out.items() if r.score_table[k] in r.reroll_values)
    assert grace == Fraction(1, 8)


def test_b2_seven_cowries_half_probabilities() -> None:
    """B.2: 1, 7, 21, 35, 35, 21, 7, 1 over 128; P(another throw) = 37/128."""
    out = dict(cowries.chance_outcomes(7, Fraction(1, 2)))
    assert [out[k] * 128 for k in range(8)] == [1, 7, 21, 35, 35, 21, 7, 1]
    r = NAMED["wikipedia-full"]
    again = sum(pr for k, pr in out.items() if r.score_table[k] in r.reroll_values)
    assert again == Fraction(37, 128)
