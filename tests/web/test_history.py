"""The replay viewer's history, served incrementally: each step encoded once and kept, pages
joined from the kept texts, and an ETag that answers a repeat request from the game's
version alone (pachisi.web.history, ``GET /api/games/{id}/history``)."""

from __future__ import annotations

import datetime as dt
import json
import random
import threading
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pachisi.game import Game
from pachisi.notation import result_of, write_position
from pachisi.notation.record import move_text
from pachisi.rules import engine
from pachisi.rules.ruleset import Ruleset, get_ruleset
from pachisi.rules.state import State
from pachisi.web import history as history_module
from pachisi.web.history import GameHistory, HistoryCache, etag, etag_matches
from pachisi.web.room import parse_move
from pachisi.web.storage import MoveRow, NewGame, SeatRow, open_storage
from pachisi.web.tokens import new_token, token_hash
from pachisi.web.views import event_json, pieces_json, result_json, turn_json
from tests.web.conftest import HUMAN, Serve, new_game
from tests.web.play import Player

CLASSIC = get_ruleset("classic")


# --------------------------------------------------------------------------- helpers


def old_history(game_id: str, ruleset: Ruleset, moves: Sequence[str]) -> dict[str, Any]:
    """The history as the server made it before it was paged (records.history, verbatim)."""
    state = engine.new_game(ruleset)
    steps = [_old_step(0, None, [], state)]
    for version, text in enumerate(moves, 1):
        before = state
        state, events = engine.apply(state, parse_move(text))
        steps.append(_old_step(version, text, [event_json(e, before) for e in events], state))
    return {
        "id": game_id,
        "ruleset": str(ruleset),
        "version": len(moves),
        "moves": list(moves),
        "steps": steps,
    }


def _old_step(
    version: int, move: str | None, events: list[dict[str, Any]], state: State
) -> dict[str, Any]:
    return {
        "version": version,
        "move": move,
        "events": events,
        "position": write_position(state),
        "pieces": pieces_json(state),
        "turn": turn_json(state, frozenset()),
        "result": result_json(state),
    }


def random_moves(seed: int, ruleset: str = "classic", limit: int | None = None) -> list[str]:
    """The moves of a game of random play (to its end, or its first ``limit`` moves)."""
    game = Game(ruleset)
    rng = random.Random(seed)
    while not game.is_over() and (limit is None or len(game.moves) < limit):
        if game.legal_actions():
            game.push(rng.choice(game.legal_actions()))
        else:
            game.throw(rng)
    return [move_text(move) for move in game.moves]


def store_finished_game(
    url: str, seed: int = 11, ruleset: str = "classic"
) -> tuple[str, list[str]]:
    """A finished game of random play written straight to storage: its id and moves."""
    moves = random_moves(seed, ruleset)
    storage = open_storage(url)
    game_id = "done" + new_token()[:8]
    seats = [SeatRow(0, "human", None, token_hash(new_token()))] + [
        SeatRow(seat, "computer", "random") for seat in (1, 2, 3)
    ]
    storage.create_game(NewGame(game_id, ruleset, 4, "active", tuple(seats)))
    now = dt.datetime.now(dt.UTC)
    rows = [MoveRow(game_id, n, move, now) for n, move in enumerate(moves, 1)]
    state = engine.new_game(get_ruleset(ruleset))
    for move in moves:
        state, _ = engine.apply(state, parse_move(move))
    last = MoveRow(game_id, len(rows), rows[-1].move, now, "finished", result_of(state))
    storage.commit_moves([*rows[:-1], last])
    storage.close()
    return game_id, moves


def all_pages(
    client: TestClient, game_id: str, **params: Any
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Every page of a game's history, fetched as the replay viewer does: the pages joined
    (``version`` the last page's) and the pages themselves."""
    pages = []
    start = 0
    while True:
        response = client.get(f"/api/games/{game_id}/history", params={**params, "start": start})
        assert response.status_code == 200, response.text
        page = response.json()
        pages.append(page)
        if page["next"] is None:
            break
        assert page["next"] > start
        start = page["next"]
    joined = {
        "id": pages[0]["id"],
        "ruleset": pages[0]["ruleset"],
        "version": pages[-1]["version"],
        "moves": [move for page in pages for move in page["moves"]],
        "steps": [step for page in pages for step in page["steps"]],
    }
    return joined, pages


class Counting:
    """The rules engine as the history module sees it, counting the moves it applies."""

    def __init__(self) -> None:
        self.applied = 0
        self.new_games = 0

    def new_game(self, ruleset: Ruleset) -> State:
        self.new_games += 1
        return engine.new_game(ruleset)

    def apply(self, state: State, move: Any) -> Any:
        self.applied += 1
        return engine.apply(state, move)


@pytest.fixture
def counting(monkeypatch: pytest.MonkeyPatch) -> Counting:
    counter = Counting()
    counted = {"apply": counter.apply, "new_game": counter.new_game}
    monkeypatch.setattr(history_module, "engine", SimpleNamespace(**{**vars(engine), **counted}))
    return counter


@pytest.fixture(scope="module")
def long_game() -> list[str]:
    moves = random_moves(11)
    assert len(moves) > 1000
    return moves


# --------------------------------------------------------------------------- GameHistory


@pytest.mark.parametrize("limit", [1, 7, 500, 1000])
def test_the_pages_add_up_to_the_old_history(long_game: list[str], limit: int) -> None:
    game = GameHistory("g", CLASSIC)
    game.extend(long_game)
    expected = old_history("g", CLASSIC, long_game)
    steps: list[Any] = []
    moves: list[str] = []
    start: int | None = 0
    while start is not None:
        page = json.loads(game.page(start, limit))
        assert (page["id"], page["ruleset"], page["version"]) == ("g", "classic", len(long_game))
        assert (page["start"], page["limit"]) == (start, limit)
        assert [step["version"] for step in page["steps"]] == list(
            range(start, min(start + limit, len(long_game) + 1))
        )
        assert page["moves"] == [step["move"] for step in page["steps"] if step["version"]]
        steps += page["steps"]
        moves += page["moves"]
        start = page["next"]
    assert steps == expected["steps"]
    assert moves == expected["moves"] == long_game


def test_a_history_extended_bit_by_bit_equals_one_made_at_once(long_game: list[str]) -> None:
    game = GameHistory("g", CLASSIC)
    for end in (0, 1, 2, 50, 51, 400, len(long_game)):
        game.extend(long_game[:end])
        assert game.version == end and len(game) == end + 1
    whole = GameHistory("g", CLASSIC)
    whole.extend(long_game)
    assert game.page(0, 1000) == whole.page(0, 1000)
    assert game.page(1000, 1000) == whole.page(1000, 1000)
    assert game.is_over


def test_extend_applies_only_the_new_moves(long_game: list[str], counting: Counting) -> None:
    game = GameHistory("g", CLASSIC)
    game.extend(long_game[:10])
    assert counting.applied == 10
    game.extend(long_game[:10])
    game.extend(tuple(long_game[:10]))
    assert counting.applied == 10
    game.extend(long_game[:25])
    assert counting.applied == 25
    cache = HistoryCache()
    cache.get("g", CLASSIC, long_game[:30])
    assert cache.get("g", CLASSIC, long_game[:30]).version == 30
    assert counting.applied == 25 + 30 and counting.new_games == 2


def test_moves_that_do_not_continue_the_history_are_refused(long_game: list[str]) -> None:
    game = GameHistory("g", CLASSIC)
    game.extend(long_game[:20])
    game.extend(long_game[:19])  # the first of its moves: nothing to do
    assert game.version == 20
    changed = long_game[:30]
    changed[5] = "t0" if changed[5] != "t0" else "t1"
    with pytest.raises(ValueError, match="do not continue"):
        game.extend(changed)
    assert game.version == 20
    # The cache starts such a game afresh (a game id reused over a new database).
    cache = HistoryCache()
    cache.get("g", CLASSIC, long_game[:20])
    other = random_moves(5, limit=12)
    assert cache.get("g", CLASSIC, other).version == 12
    assert cache.steps == 13


def test_an_illegal_move_leaves_the_steps_before_it() -> None:
    game = GameHistory("g", CLASSIC)
    with pytest.raises(ValueError):
        game.extend(["t3", "0a+99"])
    assert game.version == 1
    assert json.loads(game.page(0, 10))["next"] is None


def test_page_boundaries(long_game: list[str]) -> None:
    moves = long_game[:40]
    game = GameHistory("g", CLASSIC)
    game.extend(moves)

    def page(start: int, limit: int, version: int | None = None) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(game.page(start, limit, version))
        return value

    first = page(0, 1)
    assert [s["version"] for s in first["steps"]] == [0] and first["moves"] == []
    assert first["next"] == 1
    assert page(1, 1)["moves"] == [moves[0]] and page(1, 1)["next"] == 2
    assert page(0, 40)["next"] == 40 and page(40, 40)["next"] is None
    assert [s["version"] for s in page(40, 40)["steps"]] == [40]
    assert page(0, 41)["next"] is None and len(page(0, 41)["steps"]) == 41
    assert page(39, 1000)["moves"] == moves[38:]
    # Beyond the last step: a page without steps, and no next.
    for start in (41, 42, 10**6):
        beyond = page(start, 5)
        assert beyond["steps"] == [] and beyond["moves"] == [] and beyond["next"] is None
        assert beyond["version"] == 40 and beyond["start"] == start
    # A page of an earlier version (what a request saw) ignores the steps since.
    then = page(0, 1000, version=30)
    assert then["version"] == 30 and len(then["steps"]) == 31 and then["moves"] == moves[:30]
    # A page of a later version than the history's, if the history has its steps (the
    # cache replays only as far as the page asked for goes).
    later = page(0, 10, version=99)
    assert later["version"] == 99 and later["next"] == 10 and len(later["steps"]) == 10
    with pytest.raises(ValueError, match="beyond"):
        game.page(0, 1000, version=99)
    with pytest.raises(ValueError):
        game.page(-1, 5)
    with pytest.raises(ValueError):
        game.page(0, 0)


def test_concurrent_extends_of_one_game_agree(long_game: list[str]) -> None:
    cache = HistoryCache()
    barrier = threading.Barrier(4)
    errors: list[BaseException] = []

    def extend(end: int) -> None:
        try:
            barrier.wait()
            for stop in range(0, end, 37):
                cache.get("g", CLASSIC, long_game[:stop])
            cache.get("g", CLASSIC, long_game[:end])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=extend, args=(n,)) for n in (300, 600, 600, 900)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    game = cache.get("g", CLASSIC, long_game[:900])
    whole = GameHistory("g", CLASSIC)
    whole.extend(long_game[:900])
    assert game.page(0, 1000) == whole.page(0, 1000)
    assert cache.steps == 901 and len(cache) == 1


# --------------------------------------------------------------------------- HistoryCache


def test_the_cache_forgets_the_least_recently_used_games(counting: Counting) -> None:
    moves = random_moves(3, limit=10)
    cache = HistoryCache(max_steps=30)
    cache.get("a", CLASSIC, moves)
    cache.get("b", CLASSIC, moves)
    assert cache.steps == 22 and "a" in cache and "b" in cache
    cache.get("a", CLASSIC, moves)  # a is used again: b is now the oldest
    cache.get("c", CLASSIC, moves)
    assert "b" not in cache and "a" in cache and "c" in cache
    assert cache.steps == 22 <= cache.max_steps
    # Growing a held game counts its new steps, and may push out another.
    more = random_moves(3, limit=20)
    cache.get("a", CLASSIC, more)
    assert cache.steps == 21 and list(cache._games) == ["a"]
    # A game longer than the whole bound is kept while it is the one asked for.
    longest = random_moves(3, limit=50)
    cache.get("d", CLASSIC, longest)
    assert list(cache._games) == ["d"] and cache.steps == 51
    applied = counting.applied
    cache.get("d", CLASSIC, longest)
    assert counting.applied == applied
    # A forgotten game is replayed again when asked for.
    cache.get("b", CLASSIC, moves)
    assert counting.applied == applied + 10 and list(cache._games) == ["b"]
    with pytest.raises(ValueError):
        HistoryCache(max_steps=0)


# --------------------------------------------------------------------------- ETags


def test_etags_name_the_game_version_and_page() -> None:
    tag = etag("abc_D-9", 12, 0, 500)
    assert tag.startswith('"') and tag.endswith('"') and "abc_D-9" in tag
    assert len({tag, etag("abc_D-9", 13, 0, 500), etag("abc_D-9", 12, 1, 500)}) == 3
    assert etag("abc_D-9", 12, 0, 499) != tag and etag("abc_D-8", 12, 0, 500) != tag
    odd = etag('a "b",c', 1, 0, 1)
    assert odd.count('"') == 2 and " " not in odd and "," not in odd
    assert etag_matches(tag, tag) and etag_matches(f"W/{tag}", tag)
    assert etag_matches(f'"x", W/"y",{tag}', tag) and etag_matches(f"  {tag}  ", tag)
    assert etag_matches("*", tag)
    for header in (None, "", '"x"', tag[1:-1], f'"x" "y" {tag}', f'"x";{tag}', "W/", "W/x"):
        assert not etag_matches(header, tag), header


# --------------------------------------------------------------------------- the endpoint


def test_the_pages_of_a_stored_game_add_up_to_the_old_history(
    database_url: str, serve: Serve
) -> None:
    game_id, moves = store_finished_game(database_url)
    with serve() as client:
        joined, pages = all_pages(client, game_id)
        assert len(pages) == 3 and [p["start"] for p in pages] == [0, 500, 1000]
        assert all(page["limit"] == 500 for page in pages)
        assert joined == old_history(game_id, CLASSIC, moves)
        joined, pages = all_pages(client, game_id, limit=1000)
        assert len(pages) == 2 and joined == old_history(game_id, CLASSIC, moves)


def test_a_repeat_request_is_not_modified(
    database_url: str, serve: Serve, counting: Counting, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, moves = store_finished_game(database_url)
    with serve() as client:
        path = f"/api/games/{game_id}/history"
        first = client.get(path)
        assert first.status_code == 200
        assert first.headers["content-type"] == "application/json"
        assert first.headers["cache-control"] == "no-cache"
        tag = first.headers["etag"]
        assert tag == etag(game_id, len(moves), 0, 500)
        # Replayed only as far as the page goes, and the other pages' moves when asked for.
        assert counting.applied == 499
        all_pages(client, game_id)
        assert counting.applied == len(moves)
        # A repeat without the tag replays nothing: the page is joined from kept steps.
        again = client.get(path)
        assert again.content == first.content and again.headers["etag"] == tag
        assert counting.applied == len(moves)
        # With the tag, the answer comes from the game's version alone: it touches neither
        # the cache nor storage (a finished game's room is kept).
        service = client.app.state.service  # type: ignore[attr-defined]

        def untouchable(*args: Any) -> Any:
            raise AssertionError("a 304 must not need this")

        monkeypatch.setattr(service.histories, "get", untouchable)
        monkeypatch.setattr(service.storage, "load_game", untouchable)
        for header in (tag, f"W/{tag}", f'"other", {tag}', "*"):
            answer = client.get(path, headers={"If-None-Match": header})
            assert answer.status_code == 304, header
            assert answer.content == b""
            assert answer.headers["etag"] == tag and answer.headers["cache-control"] == "no-cache"
        monkeypatch.undo()
        # Another page, or a tag of another page, is a 200.
        other = client.get(path, params={"start": 500}, headers={"If-None-Match": tag})
        assert other.status_code == 200 and other.headers["etag"] != tag
        assert other.json()["start"] == 500


def test_a_new_move_changes_the_etag(client: TestClient) -> None:
    made = new_game(client, HUMAN, HUMAN, HUMAN, HUMAN)
    tokens = [link["token"] for link in made["links"]]
    path = f"/api/games/{made['id']}/history"
    first = client.get(path)
    assert first.json()["version"] == 0 and len(first.json()["steps"]) == 1
    tag = first.headers["etag"]
    query = "&".join(f"token={token}" for token in tokens)
    with client.websocket_connect(f"/ws/games/{made['id']}?{query}") as ws:
        player = Player(ws)
        for expected in (1, 2, 3):
            assert player.move()["type"] == "update"
            assert client.get(path, headers={"If-None-Match": tag}).status_code == 200
            fresh = client.get(path)
            assert fresh.json()["version"] == expected == player.version
            assert fresh.headers["etag"] != tag
            assert fresh.json()["moves"] == player.game["moves"]
            assert fresh.json()["steps"][-1]["position"] == player.game["position"]
            tag = fresh.headers["etag"]
            assert client.get(path, headers={"If-None-Match": tag}).status_code == 304
    assert client.get(path, params={"start": 4}).json()["steps"] == []


@pytest.mark.parametrize(
    ("params", "where"),
    [
        ({"start": -1}, "query.start"),
        ({"start": "two"}, "query.start"),
        ({"limit": 0}, "query.limit"),
        ({"limit": 1001}, "query.limit"),
        ({"limit": "all"}, "query.limit"),
    ],
)
def test_bad_page_parameters_are_refused(
    client: TestClient, params: dict[str, Any], where: str
) -> None:
    game = new_game(client, HUMAN, HUMAN, HUMAN, HUMAN)["id"]
    response = client.get(f"/api/games/{game}/history", params=params)
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail.startswith(f"{where}: "), detail


def test_the_page_limits_and_an_unknown_game(client: TestClient) -> None:
    game = new_game(client, HUMAN, HUMAN, HUMAN, HUMAN)["id"]
    path = f"/api/games/{game}/history"
    assert client.get(path, params={"limit": 1}).json()["next"] is None
    assert client.get(path, params={"limit": 1000}).status_code == 200
    beyond = client.get(path, params={"start": 1})
    assert beyond.status_code == 200 and beyond.json()["steps"] == []
    assert beyond.json()["next"] is None and beyond.json()["version"] == 0
    missing = client.get("/api/games/nothere/history", headers={"If-None-Match": "*"})
    assert missing.status_code == 404 and "nothere" in missing.json()["detail"]


def test_finished_rooms_are_kept_for_their_history(database_url: str, serve: Serve) -> None:
    finished = [store_finished_game(database_url, seed)[0] for seed in (1, 2)]
    with serve() as client:
        service = client.app.state.service  # type: ignore[attr-defined]
        calls = []
        load = service.storage.load_game

        def counted(game_id: str) -> Any:
            calls.append(game_id)
            return load(game_id)

        service.storage.load_game = counted
        for _ in range(3):
            for game_id in finished:
                assert client.get(f"/api/games/{game_id}/history").status_code == 200
        assert calls == finished
