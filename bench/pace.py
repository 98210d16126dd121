"""How long a person waits for the computers in a whole game on the game page, at each of
its paces (issue 21: at most 90 s at "fast").

A ``pachisi serve`` (computer seats without a server delay, as it serves by default) runs
in a subprocess on a fresh SQLite file; Debian's Chromium plays a game made in the lobby
with its defaults (one person against three ``medium`` computers, the classic rules) with
the page's default options but the pace, clicking only what a person must: each throw and
each real choice (tests/e2e/decisions.py). The waiting is the time during which the page
offers the person nothing; it also counts the server's answers to the person's own
commands, a few milliseconds each.

    .venv/bin/python bench/pace.py [--pace fast ...] [--games 1]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACES = ("instant", "fast", "normal")
GAME_SECONDS = 3600.0


def _play(browser: Any, url: str, pace: str) -> Any:
    from tests.e2e.decisions import play_decisions

    options = {"autoThrow": False, "autoSingle": True, "autoSame": True, "pace": pace}
    context = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 800})
    try:
        context.add_init_script(
            script="try { localStorage.setItem('pachisi_options', "
            f"{json.dumps(json.dumps(options))}); }} catch (e) {{}}"
        )
        page = context.new_page()
        page.goto(url + "/")
        page.get_by_test_id("create").click()
        page.get_by_test_id("play-now").click()
        page.wait_for_url("**/game/*")
        page.wait_for_selector("#board .piece")
        return play_decisions(page, seconds=GAME_SECONDS)
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pace", choices=PACES, action="append", help="default: all three")
    parser.add_argument("--games", type=int, default=1, help="games per pace (default 1)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from playwright.sync_api import sync_playwright
    from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
    from tests.e2e.server import Server

    if CHROMIUM is None:
        print("bench/pace.py: Debian's chromium is not installed", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as scratch:
        # A public server's offer: the lobby's computers are its levels.
        log = Path(scratch) / "server.log"
        server = Server(f"sqlite:///{scratch}/pace.db", log, permissive=False)
        server.start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                print("pace     game  moves  clicks  throws  choices  auto  waiting_s  total_s")
                for pace in args.pace or PACES:
                    for game in range(args.games):
                        p = _play(browser, server.url, pace)
                        print(
                            f"{pace:8} {game:4} {p.moves:6} {p.clicks:7} {p.throws:7} "
                            f"{p.choices:8} {p.auto:5} {p.waiting_seconds:10.1f} "
                            f"{p.seconds:8.1f}",
                            flush=True,
                        )
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
