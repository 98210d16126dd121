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

from pachisi.rules import _legal, cowries
from pachisi.rules._builder import Builder
from pachisi.rules._entry import entry_progress, free_progress
from pachisi.rules._legal import pyada_uses
from pachisi.rules._position import (
    mover,
    occupancy,
    pools_credits,
    side_count,
    side_credits,
    side_of,
    side_seats,
)
from pachisi.rules._throws import throw
from pachisi.rules.actions import DECLINE, Action, ActionKind, IllegalActionError
from pachisi.rules.board import (
    HOME,
)
from pachisi.rules.choices import (
    EntryMode,
    FirstPieceFree,
    FirstPlayer,
    PyadaUse,
    Teams,
    ThrowUsage,
    UnusableThrow,
)
from pachisi.rules.deadlock import every_side_blocked, seat_blocked
from pachisi.rules.frozen import is_frozen
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
    "is_frozen",
    "legal_actions",
    "mover",
    "new_game",
    "no_side_can_win",
    "outcome",
    "pending_value",
    "pools_credits",
    "side_count",
    "side_credits",
    "side_of",
    "side_seats",
    "value_of",
]

# --------------------------------------------------------------------------- set-up


def new_game(ruleset: Ruleset) -> State:
    """The start position (R-START-CHARKONI): all pieces waiting, a throw due.

    With ``first_player = throw_off`` the game opens with the throw-off (R-ORDER);
    with ``seat0`` (V-FIRST-PLAYER-FIXED) seat 0 throws first.
    """
    pos = initial_pos()
    if ruleset.first_player == FirstPlayer.SEAT0:
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
    """The result, once the game is over (R-TEAM-WIN, V-INDIVIDUAL-WIN, R-DEADLOCK,
    R-FROZEN)."""
    if state.stage is not Stage.OVER:
        return None
    r = state.ruleset
    individual = r.teams == Teams.INDIVIDUAL
    if state.winner == DRAW:
        deadlocked = r.draws_on_deadlock and every_side_blocked(r, state.pos, state.kills)
        return Outcome(None, (), individual, "R-DEADLOCK" if deadlocked else "R-FROZEN")
    return Outcome(state.winner, side_seats(r, state.winner), individual)


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
    new, events = throw(state, k)
    # A throw moves no piece, so R-FROZEN's answer, if already known, carries over.
    if state.memo is not None and new.memo is not None:
        new.memo.frozen = state.memo.frozen
    return _settle(new, events)


def _settle(state: State, events: list[Event]) -> tuple[State, list[Event]]:
    """R-DEADLOCK, then R-FROZEN, after every throw and every action: a game that no side
    can win any more, or in which no piece can ever move again, ends at once as a draw
    (one draw if both hold)."""
    r = state.ruleset
    if state.stage is Stage.OVER or not r.draws_when_frozen:
        return state, events
    if (r.draws_on_deadlock and every_side_blocked(r, state.pos, state.kills)) or is_frozen(state):
        b = Builder(state)
        b.draw(events)
        return b.freeze(), events
    return state, events


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every distinct legal action of the seat to act; empty at chance and terminal nodes.

    Distinct means one action per outcome (C.10a step 5, C.10b "one outcome, one
    action"): of two actions whose resulting states are equal, only the first in the
    canonical order is listed (docs/notation.md).
    """
    memo = state.memo
    if memo is not None and memo.actions is not None:
        return memo.actions  # type: ignore[return-value]
    actions = _legal.legal_actions(state)
    if state.stage is Stage.SPEND:
        actions = _one_per_outcome(state, actions)
    # States are immutable values, so their legal actions never change: memoise them on
    # the state itself (in a slot outside its value) rather than in any global cache.
    if memo is not None:
        memo.actions = actions
    return actions


def _one_per_outcome(state: State, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """C.10b: keep the first of every set of actions whose resulting states are equal.

    Such actions move the same pieces to the same place with different items (say a
    last-square exit with a 25 or a 10, or a pyada step, when it finishes the seat's last
    piece and the leftover items lapse). Two actions can give equal states only if they
    put the same pieces on the same progress, so only actions that share that are applied
    and compared.
    """
    keys = [_landing_key(state, a) for a in actions]
    if len(set(keys)) == len(keys):
        return actions
    kept: list[Action] = []
    results: dict[tuple[int, ...], list[State]] = {}
    for a, key in zip(actions, keys, strict=True):
        if keys.count(key) > 1:
            result = _apply(state, a)[0]
            earlier = results.setdefault(key, [])
            if result in earlier:
                continue
            earlier.append(result)
        kept.append(a)
    return tuple(kept)


def _landing_key(state: State, a: Action) -> tuple[int, ...]:
    """The pieces an action moves and the progress it takes them to (spending stage).

    Equal resulting states have equal keys: a move, an exit, a lap, a split part or a
    pyada step is keyed by its pieces and their new progress (and lap), every entry by
    the piece it brings out (the lowest waiting one, whichever item enters it).
    """
    kind = a.kind
    if kind is ActionKind.DECLINE:
        return (-1,)
    if kind in (ActionKind.ENTER, ActionKind.FREE):
        return (-2,)
    p = state.pos[4 * a.seat + a.pieces[0]]
    if kind is ActionKind.EXIT:
        t = HOME
    elif a.pyada:
        t = p + 1
    elif a.part:
        t = p + a.part
    elif kind is ActionKind.LAP:
        t = p + a.value - 68 + 1000
    else:
        t = p + a.value
    return (t, *a.global_pieces)


def apply_action(state: State, action: Action) -> tuple[State, list[Event]]:
    """Apply a legal action; :class:`IllegalActionError` (and no change) if it is not legal."""
    legal = legal_actions(state)
    if not any(a is action for a in legal) and action not in legal:
        raise IllegalActionError(f"{action} is not legal here")
    return _apply(state, action)


def _apply(state: State, a: Action) -> tuple[State, list[Event]]:
    new, events = _act(state, a)
    return _settle(new, events)


def _act(state: State, a: Action) -> tuple[State, list[Event]]:
    r = state.ruleset
    if (
        a.kind is ActionKind.DECLINE
        and state.again
        and state.stage is Stage.ACT
        and not state.pyadas
        and not state.split_left
        and r.throw_usage == ThrowUsage.IMMEDIATE
        and r.unusable_throw == UnusableThrow.FORFEIT_THROW
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
    if r.throw_usage == ThrowUsage.COLLECT:
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
        captures = not (r.ludii or (r.entry_mode == EntryMode.CONSUME) or a.pyada)
        return b.place(gids[0], t, events, captures)
    if kind is ActionKind.FREE:
        bonus = 1 if (state.pyadas and r.pyada_use == PyadaUse.ATTACHED) else 0
        target = free_progress(r, a.value, bonus)
        if target is None:
            raise IllegalActionError(f"{a} is not legal here")
        return b.place(gids[0], target, events, r.first_piece_free != FirstPieceFree.SQUARE1)
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
            1
            if (state.stage is Stage.ACT and state.pyadas and r.pyada_use == PyadaUse.ATTACHED)
            else 0
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
    if r.first_piece_free == FirstPieceFree.LUDII_FORCED and a.kind is ActionKind.FREE:
        b.end_turn(events)
        return
    if (
        a.kind is ActionKind.DECLINE
        and r.unusable_throw == UnusableThrow.FORFEIT_TURN
        and legal_actions(state) == (DECLINE,)
        and not (b.pyadas and r.pyada_use == PyadaUse.FREE and _pyada_usable(state))
    ):
        b.end_turn(events)
        return
    b.captured = captured
    if b.check_win(events):
        return
    if b.seat_done():
        b.end_turn(events)
        return
    if b.pyadas and r.pyada_use == PyadaUse.FREE:
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
