"""A client that plays a whole game against ``pachisi serve`` over its WebSocket.

Start a server first (``.venv/bin/pachisi serve``, http://127.0.0.1:8000 by default). The
client speaks only the server's public contract (docs/web.md), so it could be written in
any language:

1. ``POST /api/games`` creates a game with one person's seat (ours, seat 0) and three
   computer seats; the answer holds our seat's secret token.
2. ``GET /ws/games/{id}?token=...`` opens the game's WebSocket. The server sends a
   ``snapshot`` of the game (the VIEW: the position, whose turn it is, and our legal
   actions when we are to act), then an ``update`` after every move anyone makes.
3. Whenever the latest view says that a throw is due from us (``turn.you_throw``) we send
   ``{"type": "throw", ...}``; when an action is (``turn.you_act``) we pick one of
   ``legal`` and send ``{"type": "act", ...}``. Each command names the version of the game
   it answers, so a command sent for a position that has moved on is refused (``stale``)
   and changes nothing.
4. When the view has a ``result``, the game is over.

Our choice: a capture if there is one, else the first action that moves a piece, and a
decline only when nothing else is legal.

    .venv/bin/python examples/websocket_client.py                     # against 3 x easy
    .venv/bin/python examples/websocket_client.py --url http://127.0.0.1:8080 --computer medium
"""

from __future__ import annotations

import argparse
import json
import time
import urllib.request
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from websockets.sync.client import ClientConnection, connect


def create_game(url: str, ruleset: str, computer: str) -> dict[str, Any]:
    """``POST /api/games``: seat 0 ours, seats 1..3 computers; the server's answer."""
    body = {
        "ruleset": ruleset,
        "seats": [{"kind": "human"}] + [{"kind": "computer", "player": computer}] * 3,
    }
    request = urllib.request.Request(
        f"{url}/api/games",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        created: dict[str, Any] = json.load(response)
    return created


def socket_url(url: str, game_id: str, token: str) -> str:
    """The game's WebSocket address: ws:// for http://, wss:// for https://."""
    parts = urlsplit(url)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return urlunsplit((scheme, parts.netloc, f"/ws/games/{game_id}", f"token={token}", ""))


def choose(legal: list[dict[str, Any]]) -> str:
    """Our action's text: a capture, else the first move, else (only choice) a decline."""
    for action in legal:
        if action["captures"]:
            return str(action["action"])
    moves = [action for action in legal if action["kind"] != "decline"]
    return str((moves or legal)[0]["action"])


def play(socket: ClientConnection, seat: int, *, verbose: int) -> dict[str, Any]:
    """Answer the server until the game ends; the final VIEW. The first ``verbose`` of our
    actions are printed, with the moves of the other seats around them."""
    answered = -1  # the last version we sent a command for: one command per version
    last: dict[str, Any] | None = None  # that command, to send again if it was dropped
    shown = 0
    while True:
        message = json.loads(socket.recv(timeout=120))
        kind = message["type"]
        if kind == "error":
            code = message["code"]
            if code == "rate_limited" and last is not None:
                # Over the server's message rate (10 a second by default): the command
                # was dropped unanswered, so wait as long as asked and send it again.
                time.sleep(float(message["retry_after"]))
                socket.send(json.dumps(last))
            elif code == "stale":
                socket.send(json.dumps({"type": "resync"}))  # a snapshot of the game now
            else:
                raise RuntimeError(f"the server refused a command: {message}")
            continue
        if kind not in ("snapshot", "update"):
            continue  # e.g. a hint, which this client never asks for
        view = message["game"]
        if kind == "update" and message["by"] != seat and shown < verbose:
            print(f"  seat {message['by']} played {message['move']}")
        if view["result"] is not None:
            return dict(view)
        turn, version = view["turn"], view["version"]
        if version == answered or not (turn["you_throw"] or turn["you_act"]):
            continue  # another seat's turn, or we have answered this position already
        if turn["you_throw"]:
            command: dict[str, Any] = {"type": "throw", "seat": seat, "version": version}
        else:
            action = choose(view["legal"])
            command = {"type": "act", "seat": seat, "version": version, "action": action}
            if shown < verbose:
                print(f"{turn['text']}; we play {action}")
                shown += 1
        socket.send(json.dumps(command))
        answered, last = version, command


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server's address")
    parser.add_argument("--ruleset", default="classic", help="any ruleset string")
    parser.add_argument(
        "--computer", default="easy", help="the computer seats' player (GET /api/meta lists them)"
    )
    parser.add_argument("--verbose", type=int, default=5, help="our first N actions to print")
    args = parser.parse_args()
    url = args.url.rstrip("/")

    created = create_game(url, args.ruleset, args.computer)
    link = created["links"][0]  # our seat: its number and its secret token
    seat, game_id = link["seat"], created["id"]
    print(f"game {game_id}: we are seat {seat}, against 3 x {args.computer}")
    print(f"watch it in a browser: {url}{created['watch_url']}")
    start = time.perf_counter()
    with connect(socket_url(url, game_id, link["token"]), max_size=2**22) as socket:
        final = play(socket, seat, verbose=args.verbose)
    result = final["result"]
    won = seat in result["seats"]
    print(f"game over after {final['version']} moves, {time.perf_counter() - start:.1f} s")
    print(f"result: {result['text']} ({'we won' if won else 'we did not win'})")
    print(f"final position: {final['position']}")


if __name__ == "__main__":
    main()
