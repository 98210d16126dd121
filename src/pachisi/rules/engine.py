"""The pure transition function: legal actions, chance outcomes and their effects (C.10).

Everything here is a function of a :class:`~pachisi.rules.state.State` and an action or a
chance outcome. Nothing is random and nothing is stored: throws come in as ``k``, the number
of cowries that landed mouth up, and transitions return the new state with its events.

>>> from pachisi.rules.ruleset import get_ruleset
>>> s = new_game(get_ruleset("ludii"))
>>> s, events = apply_chance(s, 3)
>>> [str(a) for a in legal_actions(s)]
['0a*3']
"""

from __future__ import annotations

from fractions import Fraction

from pachisi.rules import cowries
from pachisi.rules._builder import HAS_PIECE, NONE_WAITING, Builder
from pachisi.rules._legal import entry_progress, legal_actions, pyada_uses
from pachisi.rules._position import mover, occupancy
from pachisi.rules.actions import DECLINE, Action, ActionKind, IllegalActionError
from pachisi.rules.board import (
    HOME,
    LUDII_ENTRY_PROGRESS,
)
from pachisi.rules.deadlock import every_side_blocked, seat_blocked
from pachisi.rules.ruleset import Ruleset
from pachisi.rules.state import (
    CHANCE,
    DRAW,
    TERMINAL,
    Event,
    Memo,
    Outcome,
    Stage,
    State,
    initial_pos,
)

__all__ = [
    "apply",
    "apply_action",
    "apply_chance",
    "chance_outcomes",
    "current_player",
    "is_blocked",
    "legal_actions",
    "mover",
    "new_game",
    "no_side_can_win",
    "outcome",
    "pending_value",
    "value_of",
]

_SEVEN_FOURTEEN = (7, 14)


# --------------------------------------------------------------------------- set-up


def new_game(ruleset: Ruleset) -> State:
    """The start position (R-START-CHARKONI): all pieces waiting, a throw due.

    With ``first_player = throw_off`` the game opens with the throw-off (R-ORDER);
    with ``seat0`` (V-FIRST-PLAYER-FIXED) seat 0 throws first.
    """
    pos = initial_pos()
    if ruleset.first_player == "seat0":
        b = Builder(State(ruleset, pos, Stage.THROW, 0))
        b.begin_phase()
        return b.freeze()
    return State(ruleset, pos, Stage.THROW_OFF, 0, throwoff=(-1, -1, -1, -1), memo=Memo())


# --------------------------------------------------------------------------- queries


def current_player(state: State) -> int:
    """The seat to act, :data:`CHANCE` when a throw is due, :data:`TERMINAL` when over."""
    if state.stage in (Stage.THROW, Stage.THROW_OFF):
        return CHANCE
    if state.stage is Stage.OVER:
        return TERMINAL
    return state.seat


def value_of(ruleset: Ruleset, k: int) -> int:
    """The value of a throw with ``k`` mouths up (R-THROW-TABLE)."""
    return ruleset.score_table[k]


def chance_outcomes(state: State) -> list[tuple[int, Fraction]]:
    """The possible throws ``k`` with their exact probabilities (empty if no throw is due)."""
    if current_player(state) != CHANCE:
        return []
    r = state.ruleset
    return cowries.chance_outcomes(r.cowries, r.p_mouth_up)


def outcome(state: State) -> Outcome | None:
    """The result, once the game is over (R-TEAM-WIN, V-INDIVIDUAL-WIN)."""
    if state.stage is not Stage.OVER:
        return None
    individual = state.ruleset.teams == "individual"
    if state.winner == DRAW:
        return Outcome(None, (), individual)
    if individual:
        return Outcome(state.winner, (state.winner,), True)
    return Outcome(state.winner, (state.winner, state.winner + 2), False)


def is_blocked(state: State, seat: int) -> bool:
    """Whether ``seat`` can never make its final step home (R-DEADLOCK "blocked"): it needs a
    kill credit (V-KILL-BEFORE-HOME), has none, and can no longer capture to earn one."""
    return seat_blocked(state.ruleset, state.pos, state.kills, seat)


def no_side_can_win(state: State) -> bool:
    """Whether every side is blocked (R-DEADLOCK), whatever the ``deadlock`` switch says.

    Under ``deadlock = draw`` the engine ends such a game at once, so this is true of a
    game still going on only under ``deadlock = continue``.
    """
    return every_side_blocked(state.ruleset, state.pos, state.kills)


def pending_value(state: State) -> int:
    """The value of the throw being used (stage ACT), else 0."""
    if state.throw_k < 0:
        return 0
    return state.ruleset.score_table[state.throw_k]


def apply_chance(state: State, k: int) -> tuple[State, list[Event]]:
    """Apply a throw with ``k`` mouths up; returns the new state and its events."""
    new, events = _throw(state, k)
    if new.ruleset.draws_on_deadlock:
        return _check_deadlock(new, events)
    return new, events


def _check_deadlock(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """R-DEADLOCK, after every throw and every action: if no side can win, it is a draw."""
    if state.stage is Stage.OVER or not every_side_blocked(state.ruleset, state.pos, state.kills):
        return state, events
    b = Builder(state)
    b.draw(events)
    return b.freeze(), events


def _throw(state: State, k: int) -> tuple[State, list[Event]]:
    r = state.ruleset
    stage = state.stage
    if stage is not Stage.THROW and stage is not Stage.THROW_OFF:
        raise IllegalActionError("no throw is due in this position")
    if not isinstance(k, int) or not 0 <= k <= r.cowries:
        raise IllegalActionError(f"a throw of {r.cowries} cowries has 0..{r.cowries} mouths up")
    v = r.score_table[k]
    if stage is Stage.THROW_OFF:
        b = Builder(state)
        events: list[Event] = []
        _throw_off(b, k, v, events)
        return b.freeze(), events
    events = [Event("throw", state.seat, value=v, k=k)]
    if r.throw_usage == "collect":
        b = Builder(state)
        _collect_throw(b, state, v, events)
        return b.freeze(), events
    m = mover(state)
    if v in _SEVEN_FOURTEEN and not state.on_board(m):
        # V-7-14-NEEDS-PIECE: no value; void ends the turn, rethrow_only throws again.
        events.append(Event("void", state.seat, value=v))
        b = Builder(state)
        if r.seven_fourteen_needs_piece == "void":
            b.end_turn(events)
        return b.freeze(), events
    run = state.run
    if r.triple_cancel != "off":
        run = r.advance_run(run, v)
        if run[1] >= 3:
            events.append(Event("cancel", state.seat, value=v))
            b = Builder(state)
            b.end_turn(events)
            return b.freeze(), events
    pyadas = 0
    if r.pyada and v in r.pyada_values:
        pieces = state.seat_pieces(m)
        if r.pyada_condition == "always" or all(p != 0 for p in pieces):
            pyadas = 1
    # The common case builds the next state directly: a throw changes only turn fields.
    new = State(
        r,
        state.pos,
        Stage.ACT,
        state.seat,
        state.turn,
        state.order,
        state.laps,
        state.entered,
        state.kills,
        state.records,
        k,
        v in r.reroll_values,
        False,
        pyadas,
        state.items,
        run,
        state.split_left,
        state.split_value,
        state.split_used,
        state.phase_flags,
        state.throwoff,
        state.winner,
        Memo(),
    )
    return new, events


def _throw_off(b: Builder, k: int, v: int, events: list[Event]) -> None:
    """R-ORDER: every seat throws; the highest value begins; ties throw again."""
    values = list(b.throwoff)
    values[b.seat] = v
    events.append(Event("throw_off", b.seat, value=v, k=k))
    pending = [s for s in range(4) if values[s] == -1]
    if pending:
        b.seat = pending[0]
        b.throwoff = tuple(values)
        return
    best = max(values)
    tied = [s for s in range(4) if values[s] == best]
    if len(tied) > 1:
        b.throwoff = tuple(-1 if s in tied else -2 for s in range(4))
        b.seat = tied[0]
        return
    b.throwoff = ()
    b.seat = tied[0]
    b.turn = 1
    events.append(Event("begins", tied[0]))
    b.begin_phase()


def _collect_throw(b: Builder, state: State, v: int, events: list[Event]) -> None:
    """One throw of a throwing phase in collect mode (C.10b step 2)."""
    r = b.r
    if v in _SEVEN_FOURTEEN and not state.phase_flags & HAS_PIECE:
        events.append(Event("void", state.seat, value=v))
        if r.seven_fourteen_needs_piece == "void":
            _end_throwing(b, events)
        return
    b.items.append(v)
    if r.triple_cancel != "off":
        b.run = r.advance_run(b.run, v)
        if b.run[1] >= 3:
            events.append(Event("cancel", state.seat, value=v))
            b.items = [] if r.triple_scope == "turn" else b.items[:-3]
            _end_throwing(b, events)
            return
    if v not in r.reroll_values:
        _end_throwing(b, events)


def _end_throwing(b: Builder, events: list[Event]) -> None:
    """Close the throwing phase: count pyadas, then spend or pass the turn (C.10b 3-4)."""
    r = b.r
    b.pyadas = 0
    if r.pyada and (r.pyada_condition == "always" or b.phase_flags & NONE_WAITING):
        b.pyadas = sum(1 for v in b.items if v in r.pyada_values)
        if b.pyadas:
            events.append(Event("pyada", b.seat, value=b.pyadas))
    if b.items or b.pyadas:
        b.stage = Stage.SPEND
        b.captured = False
    else:
        b.end_turn(events)


def apply_action(state: State, action: Action) -> tuple[State, list[Event]]:
    """Apply a legal action; :class:`IllegalActionError` (and no change) if it is not legal."""
    legal = legal_actions(state)
    if not any(a is action for a in legal) and action not in legal:
        raise IllegalActionError(f"{action} is not legal here")
    return _apply(state, action)


def _apply(state: State, a: Action) -> tuple[State, list[Event]]:
    new, events = _act(state, a)
    if new.ruleset.draws_on_deadlock:
        return _check_deadlock(new, events)
    return new, events


def _act(state: State, a: Action) -> tuple[State, list[Event]]:
    r = state.ruleset
    if (
        a.kind is ActionKind.DECLINE
        and state.again
        and state.stage is Stage.ACT
        and not state.pyadas
        and not state.split_left
        and r.throw_usage == "immediate"
        and r.unusable_throw == "forfeit_throw"
    ):
        # A declined grace (R-DECLINE, R-GRACE-REPEAT): the seat simply throws again.
        # This is half of all decisions in random play, so it skips the general path.
        again = [Event("decline", state.seat), Event("again", state.seat)]
        return state._replace(
            stage=Stage.THROW, throw_k=-1, again=False, captured=False, memo=Memo()
        ), again
    b = Builder(state)
    events: list[Event] = []
    captured = False
    if a.kind is ActionKind.DECLINE:
        events.append(Event("decline", state.seat))
    else:
        captured = _carry_out(b, state, a, events)
    if r.throw_usage == "collect":
        _after_spend(b, state, a, events)
    elif state.stage is Stage.PYADA:
        b.pyadas = 0
        _after_throw(b, events, captured)
    else:
        _after_act(b, state, a, events, captured)
    return b.freeze(), events


def _carry_out(b: Builder, state: State, a: Action, events: list[Event]) -> bool:
    """Do what the action says to the board; True if it captured."""
    r = state.ruleset
    gids = a.global_pieces
    kind = a.kind
    if kind is ActionKind.ENTER:
        t = 1 if a.pyada else entry_progress(r, a.value)
        captures = not (r.ludii or (r.entry_mode == "consume") or a.pyada)
        return b.place(gids[0], t, events, captures)
    if kind is ActionKind.FREE:
        if r.first_piece_free == "ludii_forced":
            t = LUDII_ENTRY_PROGRESS - 1 + a.value
            return b.place(gids[0], t, events, True)
        if r.first_piece_free == "square1":
            return b.place(gids[0], 1, events, False)
        bonus = 1 if (state.pyadas and r.pyada_use == "attached") else 0
        return b.place(gids[0], a.value + bonus, events, True)
    if kind is ActionKind.EXIT:
        b.move(gids, HOME, 0, events)
        return False
    p = state.pos[gids[0]]
    if a.pyada:
        steps = 1
    elif a.part:
        steps = a.part
    else:
        bonus = (
            1 if (state.stage is Stage.ACT and state.pyadas and r.pyada_use == "attached") else 0
        )
        steps = a.value + bonus
    if kind is ActionKind.LAP:
        return b.move(gids, p + steps - 68, 1, events)
    return b.move(gids, p + steps, 0, events)


def _after_act(b: Builder, state: State, a: Action, events: list[Event], captured: bool) -> None:
    """C.10a steps 6-9 after the main action with the throw."""
    r = state.ruleset
    if a.part:
        left = (state.split_left or a.value) - a.part
        if left:
            b.split_left = left
            b.split_value = a.value
            b.split_used = state.split_used | (1 << a.pieces[0])
            b.captured = state.captured or captured
            b.check_win(events)
            return
        b.split_left = b.split_value = b.split_used = 0
        captured = captured or state.captured
    if r.first_piece_free == "ludii_forced" and a.kind is ActionKind.FREE:
        b.end_turn(events)
        return
    if (
        a.kind is ActionKind.DECLINE
        and r.unusable_throw == "forfeit_turn"
        and legal_actions(state) == (DECLINE,)
        and not (b.pyadas and r.pyada_use == "free" and _pyada_usable(state))
    ):
        b.end_turn(events)
        return
    b.captured = captured
    if b.check_win(events):
        return
    if b.seat_done():
        b.end_turn(events)
        return
    if b.pyadas and r.pyada_use == "free":
        b.stage = Stage.PYADA
        events.append(Event("pyada", state.seat, value=1))
        return
    b.pyadas = 0
    _after_throw(b, events, captured)


def _pyada_usable(state: State) -> bool:
    return bool(pyada_uses(state, occupancy(state), mover(state)))


def _after_throw(b: Builder, events: list[Event], captured: bool) -> None:
    """C.10a steps 8-9: win, finished seat, then another throw or the next seat."""
    r = b.r
    captured = captured or b.captured
    if b.stage is not Stage.OVER and b.check_win(events):
        return
    if b.seat_done():
        b.end_turn(events)
        return
    if b.again or (captured and r.capture_bonus):
        b.stage = Stage.THROW
        b.throw_k = -1
        b.again = False
        b.captured = False
        b.pyadas = 0
        events.append(Event("again", b.seat))
        return
    b.end_turn(events)


def _after_spend(b: Builder, state: State, a: Action, events: list[Event]) -> None:
    """C.10b step 4-6 after one spent item (or a stop)."""
    if a.kind is ActionKind.DECLINE:
        _end_spending(b, events)
        return
    if a.pyada:
        b.pyadas -= 1
    elif a.part:
        if not state.split_left:
            b.items.remove(a.value)
        left = (state.split_left or a.value) - a.part
        b.split_left = left
        b.split_value = a.value if left else 0
        b.split_used = (state.split_used | (1 << a.pieces[0])) if left else 0
    else:
        b.items.remove(a.value)
    if b.check_win(events):
        return
    if b.seat_done():
        b.end_turn(events)
        return
    if b.split_left:
        return
    if not b.items and not b.pyadas:
        _end_spending(b, events)


def _end_spending(b: Builder, events: list[Event]) -> None:
    if b.captured and b.r.capture_bonus:
        events.append(Event("again", b.seat))
        b.begin_phase()
        return
    b.end_turn(events)


def apply(state: State, action: Action | int) -> tuple[State, list[Event]]:
    """Apply a chance outcome ``k`` (an int) or an :class:`Action`, whichever is due."""
    if isinstance(action, Action):
        return apply_action(state, action)
    return apply_chance(state, action)
