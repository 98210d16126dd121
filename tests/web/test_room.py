"""A room's parts: subscribers that fall behind, seats of one person, game status."""

from __future__ import annotations

import asyncio

from pachisi.rules import engine
from pachisi.rules.ruleset import get_ruleset
from pachisi.web.room import MAX_OUTBOX, Seat, Subscriber, status_of


def test_a_client_that_falls_too_far_behind_is_dropped() -> None:
    async def fill() -> Subscriber:
        subscriber = Subscriber(frozenset())
        for n in range(MAX_OUTBOX + 5):
            subscriber.deliver(f"message {n}")
        return subscriber

    subscriber = asyncio.run(fill())
    assert subscriber.dropped
    # Nothing is queued once it is dropped: its connection is closed and it must resync.
    assert subscriber.outbox.qsize() == MAX_OUTBOX + 1


def test_status_follows_the_seats_and_the_game() -> None:
    state = engine.new_game(get_ruleset("classic"))
    humans = [Seat("human", None, "h")] * 4
    assert status_of(state, humans) == "active"
    assert status_of(state, [Seat("open"), *humans[1:]]) == "open"
    over = state._replace(stage=state.stage.OVER, winner=0)
    assert status_of(over, [Seat("open"), *humans[1:]]) == "finished"
