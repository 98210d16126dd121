"""Playing the game page as a person who clicks only what a person must: each throw the page
leaves to them, and each choice that is a real one (more than one position to choose from);
the page's own auto-play must take every other choice. Also how long the person waits for
the computers: the time during which the page offers them nothing.

Used by tests/e2e/test_auto_play.py and bench/pace.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# The clicks are made inside the page (Playwright's clicks each wait for the button to be
# stable, which over a whole game would take minutes), on the buttons a person clicks.
_DECIDE_JS = """([limitMs, maxClicks, stuckMs, clickThrows]) => new Promise((resolve, reject) => {
  const $ = (id) => document.getElementById(id);
  const start = performance.now();
  const out = { clicks: 0, throws: 0, choices: 0, auto: 0, waitingMs: 0, over: false };
  let last = start;
  let wasWaiting = false;
  let unreal = null;
  const tick = () => {
    const now = performance.now();
    if (wasWaiting) out.waitingMs += now - last;
    last = now;
    const over = !$("result").hidden;
    const live = !$("throw-button").disabled;
    const buttons = [...document.querySelectorAll("#actions button.action:not([disabled])")];
    const moves = document.querySelectorAll("#moves li").length;
    if (over || (maxClicks && out.clicks >= maxClicks)) {
      Object.assign(out, { over, moves, ms: now - start });
      return resolve(out);
    }
    if (now - start > limitMs) return reject(new Error(`not over: ${JSON.stringify(out)}`));
    const real = buttons.length && Number($("actions").dataset.choices) > 1;
    if (live && clickThrows) {
      $("throw-button").click();
      out.clicks += 1;
      out.throws += 1;
    } else if (real) {
      buttons[0].click();
      out.clicks += 1;
      out.choices += 1;
    } else if (live || buttons.length) {
      // A throw or a choice that is no choice: the page must play it itself.
      if (unreal === null || unreal.moves !== moves) {
        unreal = { moves, since: now };
        out.auto += 1;
      } else if (now - unreal.since > stuckMs) {
        return reject(new Error(`the page left a step to the player: ${JSON.stringify(out)}`));
      }
    }
    wasWaiting = !live && !buttons.length;
    setTimeout(tick, 5);
  };
  tick();
})"""


@dataclass(frozen=True)
class Played:
    """What playing by decisions took: the clicks (throws and real choices), the choices
    the page played itself, the moves of the game so far, the seconds spent waiting for the
    other seats and in all, and whether the game is over."""

    clicks: int
    throws: int
    choices: int
    auto: int
    moves: int
    waiting_seconds: float
    seconds: float
    over: bool


def play_decisions(
    page: Any,
    seconds: float,
    max_clicks: int = 0,
    stuck_seconds: float = 5.0,
    click_throws: bool = True,
) -> Played:
    """Click every real choice the page offers (the first listed) and, with ``click_throws``,
    every throw, until the game is over (or ``max_clicks`` clicks are made). Fails when the
    page leaves anything else (a choice that is none; a throw, without ``click_throws``)
    undone for ``stuck_seconds``, or the game is not over in ``seconds``."""
    out: dict[str, Any] = page.evaluate(
        _DECIDE_JS, [seconds * 1000, max_clicks, stuck_seconds * 1000, click_throws]
    )
    return Played(
        clicks=out["clicks"],
        throws=out["throws"],
        choices=out["choices"],
        auto=out["auto"],
        moves=out["moves"],
        waiting_seconds=out["waitingMs"] / 1000,
        seconds=out["ms"] / 1000,
        over=out["over"],
    )
