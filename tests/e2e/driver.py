"""Driving the game page as a person does: wait until it is our move, then throw or choose.

Everything goes through what the page shows (its buttons, its move list), never through the
server's API, so these helpers test the page itself.
"""

from __future__ import annotations

import time
from typing import Any

WAIT_MS = 45_000
"""How long a helper waits for the page to offer something or to show a move. A move takes
milliseconds, but CI's machine has stalled for seconds at a time (a closed tab reopened on
PostgreSQL once waited out 20 s there); a longer wait costs nothing while the page is
well, and pytest-timeout (120 s) still ends a test that is stuck."""

# What the page offers now: 'over', 'throw' (the throw button is live), 'act' (a choice is
# live), or false while the page waits for the other seats.
_OFFER_JS = """() => {
  if (!document.getElementById('result').hidden) return 'over';
  if (!document.getElementById('throw-button').disabled) return 'throw';
  if (document.querySelector('#actions button.action:not([disabled])')) return 'act';
  return false;
}"""
_AUTOPLAY_JS = """(limitMs) => new Promise((resolve, reject) => {
  const start = performance.now();
  let clicks = 0;
  const tick = () => {
    if (!document.getElementById('result').hidden) return resolve(clicks);
    if (performance.now() - start > limitMs) return reject(new Error(`not over: ${clicks} clicks`));
    const live = document.getElementById('throw-button');
    const choice = document.querySelector('#actions button.action:not([disabled])');
    const button = !live.disabled ? live : choice;
    if (button) {
      button.click();
      clicks += 1;
    }
    setTimeout(tick, 2);
  };
  tick();
})"""
_MOVES_JS = "() => [...document.querySelectorAll('#moves li')].map((li) => li.textContent)"


def offer_now(page: Any) -> str | None:
    """What the page offers at this moment, without waiting (None: nothing)."""
    answer: str | None = page.evaluate(_OFFER_JS) or None
    return answer


def connection_state(page: Any) -> str:
    """The page's connection indicator: connecting, open, closed, refused or unknown."""
    state: str = page.locator("#connection").get_attribute("data-state")
    return state


def offer(page: Any, timeout_ms: float = WAIT_MS) -> str:
    """Wait until the page offers something to do (or says the game is over); which."""
    answer: str = page.wait_for_function(_OFFER_JS, timeout=timeout_ms).json_value()
    return answer


def moves(page: Any) -> list[str]:
    """The move list the page shows, in our notation."""
    shown: list[str] = page.evaluate(_MOVES_JS)
    return shown


def click_centre(locator: Any) -> None:
    """Click where a person would: at the element's centre, on whatever is drawn there (a
    man may stand on a square; a plain ``click()`` would wait for the square itself)."""
    box = locator.bounding_box()
    locator.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def wait_for_moves(page: Any, count: int, timeout_ms: float = WAIT_MS) -> None:
    """Wait until the page's move list holds at least ``count`` moves."""
    page.wait_for_function(
        f"() => document.querySelectorAll('#moves li').length >= {count}", timeout=timeout_ms
    )


def play_once(page: Any, timeout_ms: float = WAIT_MS) -> str:
    """Do the one thing the page offers by clicking: throw, or take the first choice listed.

    Returns what was done ('throw' or 'act'), or 'over'. Waits for the page to have sent it,
    so two calls never click the same offer twice.
    """
    what = offer(page, timeout_ms)
    count = len(moves(page))
    if what == "throw":
        page.get_by_test_id("throw-button").click()
    elif what == "act":
        page.locator("#actions button.action:not([disabled])").first.click()
    else:
        return what
    wait_for_moves(page, count + 1, timeout_ms)
    return what


def play_until_over(page: Any, seconds: float) -> int:
    """Play every offer until the game ends; the number of clicks it took.

    The clicks are made inside the page (a few hundred of Playwright's, each waiting for the
    button to be stable, would take minutes), on the same buttons a person clicks.
    """
    clicks: int = page.evaluate(_AUTOPLAY_JS, seconds * 1000)
    assert not page.get_by_test_id("result").is_hidden()
    return clicks


def play_pages(pages: list[Any], acts_each: int, seconds: float = 60) -> list[int]:
    """Let every page take what it is offered until each has acted ``acts_each`` times (or
    the game is over); how many times each acted."""
    acts = [0] * len(pages)
    deadline = time.monotonic() + seconds
    while min(acts) < acts_each:
        assert time.monotonic() < deadline, f"the pages acted {acts} times"
        for i, page in enumerate(pages):
            what = offer_now(page)
            if what == "over":
                return acts
            if what is not None:
                play_once(page)
                acts[i] += what == "act"
        time.sleep(0.01)
    return acts


def seats_held(page: Any) -> list[str]:
    """The seats the page says are yours (their ``data-seat``)."""
    held: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#seats li')]"
        ".filter((li) => li.querySelector('.you')).map((li) => li.dataset.seat)"
    )
    return held
