"""Playing and measuring an exploration (issue 23): the same numbers however it is run."""

from __future__ import annotations

import json
from typing import Any

import pytest

import pachisi.explore.explorer
from pachisi.ai import make_player
from pachisi.cli import main
from pachisi.explore import Plan, explore, grid_variants
from pachisi.explore.run import first_mover
from pachisi.explore.settings import Settings
from pachisi.explore.tally import VariantResult
from pachisi.explore.variants import Variant, named_variants
from pachisi.rules import cowries, engine
from pachisi.rules.choices import FirstPlayer
from pachisi.rules.ruleset import get_ruleset, parse_ruleset
from pachisi.rules.state import CHANCE
from pachisi.simulate import simulate


def measure(variant: Variant, settings: Settings) -> VariantResult:
    return explore(Plan((variant,)), settings)[0]


def _first_seat_to_act(ruleset_text: str, seed: int, index: int) -> int:
    """The first seat that makes a decision in game ``index``, played out by the rules
    engine with random players: the seat that began (R-ORDER) acts before any other."""
    ruleset = parse_ruleset(ruleset_text)
    state = engine.new_game(ruleset)
    dice, choices = cowries.game_rngs(seed, index)
    bot = make_player("random")
    while True:
        if engine.current_player(state) == CHANCE:
            if state.stage.name != "THROW_OFF":
                return state.seat
            state, _ = engine.apply_chance(
                state, cowries.throw(dice, ruleset.cowries, ruleset.p_mouth_up)
            )
        else:
            state, _ = engine.apply_action(state, bot.choose(state, choices))


@pytest.mark.parametrize("ruleset", ["classic", "ludii", "classic+first_player=seat0"])
def test_r_order_the_first_mover_is_the_seat_that_begins_the_game(ruleset: str) -> None:
    r = parse_ruleset(ruleset)
    seats = [first_mover(r, 3, i) for i in range(40)]
    assert seats == [_first_seat_to_act(ruleset, 3, i) for i in range(40)]
    if r.first_player == FirstPlayer.SEAT0:  # V-FIRST-PLAYER-FIXED (ludii's too)
        assert set(seats) == {0}
    else:
        assert len(set(seats)) == 4


def test_the_measures_agree_with_simulate_on_the_same_games() -> None:
    variant = Variant("herklots-7", get_ruleset("herklots-7"))
    result = measure(variant, Settings(games=300, seed=9))
    summary = simulate(variant.ruleset, 300, 9, [make_player("random")] * 4, engine_name="fast")
    assert result.games == 300 and result.engine == "fast"
    assert result.throws.mean.value == pytest.approx(summary.mean_throws)
    assert result.actions.mean.value == pytest.approx(summary.mean_actions)
    assert result.captures.value == pytest.approx(summary.mean_captures)
    assert result.draws.value == pytest.approx(summary.draw_rate)
    assert [round(e.value * 300) for e in result.seat_wins] == list(summary.wins_by_seat)
    assert result.team_wins is not None and summary.wins_by_team is not None
    assert [round(e.value * 300) for e in result.team_wins] == list(summary.wins_by_team)
    assert result.fair_share == 0.5
    assert result.minutes.value == pytest.approx(
        (summary.mean_throws + summary.mean_actions) * 4 / 60
    )


def test_the_reference_engine_and_workers_give_the_same_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plan = grid_variants("capture_bonus=true,false", base="tylor-1879")
    settings = Settings(games=30, seed=4, skill_games=10)
    fast = explore(plan, settings)
    spread = explore(plan, Settings(games=30, seed=4, skill_games=10, workers=2))
    monkeypatch.setattr(pachisi.explore.explorer, "engine_for", lambda ruleset: "reference")
    reference = explore(plan, settings)
    for a, b, c in zip(fast, spread, reference, strict=True):
        assert a.engine == b.engine == "fast" and c.engine == "reference"
        for name in ("throws", "actions", "turns"):
            assert getattr(a, name) == getattr(b, name) == getattr(c, name)
        assert a.seat_wins == b.seat_wins == c.seat_wins
        assert a.first_mover == b.first_mover == c.first_mover
        assert a.comeback == b.comeback == c.comeback and a.comeback.value > 0
        assert a.skill == b.skill == c.skill and a.skill is not None


def test_a_comeback_is_a_win_by_a_side_that_did_not_lead_at_the_midpoint() -> None:
    # Recomputed here from the rules engine's own games: each game played twice, to its
    # end and to half its steps.
    from pachisi.ai.games import play_on

    ruleset = get_ruleset("tylor-1879")
    result = measure(Variant("tylor-1879", ruleset), Settings(games=30, seed=8))
    bot = make_player("random")
    won = counted = 0
    for i in range(30):
        dice, choices = cowries.game_rngs(8, i)
        _, game = play_on(engine.new_game(ruleset), dice, [bot] * 4, bot_rng=choices)
        dice, choices = cowries.game_rngs(8, i)
        half = (game.throws + game.actions) // 2
        mid, _ = play_on(engine.new_game(ruleset), dice, [bot] * 4, bot_rng=choices, max_steps=half)
        team = [sum(mid.pos[4 * s + k] for s in (t, t + 2) for k in range(4)) for t in (0, 1)]
        if game.winner is not None and team[0] != team[1]:
            counted += 1
            won += game.winner != team.index(max(team))
    assert (won, counted) == (round(result.comeback.value * counted), counted) and counted > 20


def test_greedy_beats_random_and_the_skill_games_play_both_sides() -> None:
    result = measure(named_variants()[0], Settings(games=10, seed=2, skill_games=100))
    assert result.skill is not None and result.skill.value > 0.8
    with pytest.raises(ValueError, match="pairs"):
        Settings(games=10, skill_games=3)


def test_learned_plays_greedy_only_where_its_network_was_trained() -> None:
    plan = grid_variants("blockade=false,true")  # classic's network never saw a blockade
    trained, untrained = explore(plan, Settings(games=10, seed=3, strong_games=6))
    assert trained.strong_player == "learned" and trained.strong is not None
    assert trained.strong.low <= trained.strong.value <= trained.strong.high
    assert untrained.strong_player is None and untrained.strong is None
    again = explore(plan, Settings(games=10, seed=3, strong_games=6, workers=2))[0]
    assert again.strong == trained.strong
    assert explore(plan, Settings(games=10, seed=3))[0].strong is None


@pytest.mark.parametrize(
    "bad",
    [
        {"games": 0},
        {"games": 5, "players": "expert"},
        {"games": 5, "pace": 0},
        {"games": 5, "skill_games": -2},
        {"games": 5, "strong_games": 5},
    ],
)
def test_bad_settings_are_refused(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Settings(**bad)  # type: ignore[arg-type]


def test_explore_writes_its_table_csv_and_json(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    out_csv, out_json = tmp_path / "e.csv", tmp_path / "e.json"  # type: ignore[operator]
    code = main(
        [
            "explore",
            "--grid",
            "stacking=all,none;pyada_use=free,attached",
            "--games",
            "40",
            "--seed",
            "7",
            "--skill-games",
            "10",
            "--csv",
            str(out_csv),
            "--json",
            str(out_json),
        ]
    )
    assert code == 0
    out = capsys.readouterr().out
    assert "classic+stacking=none" in out and "skipped classic+" in out
    rows = out_csv.read_text().splitlines()
    assert len(rows) == 3 and rows[0].startswith("variant,switch,choice,games,engine")
    document = json.loads(out_json.read_text())
    assert document["settings"]["seed"] == 7 and document["pachisi"]
    assert [v["variant"] for v in document["variants"]] == ["classic", "classic+stacking=none"]
    assert len(document["skipped"]) == 2 and all(s["reason"] for s in document["skipped"])
    first = document["variants"][0]
    assert first["games"] == 40 and sum(first["throws"]["histogram"]["counts"]) == 40
    assert 0 <= first["comeback_rate"]["low"] <= first["comeback_rate"]["high"] <= 1
    assert first["greedy_vs_random"]["low"] <= first["greedy_vs_random"]["value"]


@pytest.mark.parametrize(
    "args",
    [
        ["--grid", "nonsense=1"],
        ["--flip-from", "chess"],
        ["--grid", "stacking=all", "--named"],
        ["--games", "0"],
        ["--pace", "fast"],
        ["--skill-games", "3"],
        ["--strong-games", "5"],
    ],
)
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    args: list[str], tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    out_json = tmp_path / "e.json"  # type: ignore[operator]
    assert main(["explore", *args, "--json", str(out_json)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err
    assert not out_json.exists()


def test_explore_writes_a_self_contained_html_report_and_its_plots(
    tmp_path: pytest.TempPathFactory,
) -> None:
    page, plots = tmp_path / "r.html", tmp_path  # type: ignore[operator]
    args = ["explore", "--grid", "capture_bonus=true,false", "--games", "30", "--seed", "2"]
    assert main([*args, "--skill-games", "10", "--html", str(page), "--plots", str(plots)]) == 0
    text = page.read_text()  # type: ignore[attr-defined]
    assert text.startswith("<!doctype html>") and text.count("data:image/png;base64,") == 3
    assert "classic+capture_bonus=false" in text and "<td>" in text and 'src="http' not in text
    for name in ("length", "fairness", "skill"):
        assert (plots / f"{name}.png").read_bytes().startswith(b"\x89PNG")  # type: ignore[operator]


def test_captures_from_a_castle_and_of_stacks_are_read_from_the_rules_engines_events(
    tmp_path: pytest.TempPathFactory,
) -> None:
    from pachisi.ai.games import play_on
    from pachisi.rules.board import CASTLES, SQUARE_OF

    plan = grid_variants("stack_immune=false,true", base="classic")
    base, immune = explore(plan, Settings(games=30, seed=5, capture_games=20))
    # Counted again here from the state each capturing action was taken in: where its men
    # stood before they moved, and how many men it sent back.
    counts = [0, 0, 0]

    def seen(before: Any, events: list[Any]) -> None:
        movers = [e.piece for e in events if e.kind == "move"]
        for e in events:
            if e.kind == "capture":
                counts[0] += 1
                g = movers[-1] if movers else -1
                stood = before.pos[g] if g >= 0 else 0
                counts[1] += 0 < stood < 84 and SQUARE_OF[g >> 2][stood] in CASTLES
                counts[2] += len(e.pieces) > 1

    bot = make_player("random")
    for i in range(20):
        dice, choices = cowries.game_rngs(5, i)
        play_on(engine.new_game(plan.variants[0].ruleset), dice, [bot] * 4, bot_rng=choices,
                on_action=seen)  # fmt: skip
    assert base.capture_from_castle is not None and base.capture_of_stack is not None
    assert round(base.capture_from_castle.value * counts[0]) == counts[1] > 0
    assert round(base.capture_of_stack.value * counts[0]) == counts[2]
    # V-STACK-IMMUNE: a stack is never captured.
    assert immune.capture_of_stack is not None and immune.capture_of_stack.value == 0
    # Without replays there is no such figure.
    assert explore(plan, Settings(games=10, seed=5))[0].capture_from_castle is None


def test_draws_are_told_apart_by_the_rule_that_ended_them(monkeypatch: pytest.MonkeyPatch) -> None:
    # R-DEADLOCK and R-FROZEN, as the rules core's outcome names them, on both engines.
    plan = grid_variants("stacking=all,none", base="wikipedia-full")
    settings = Settings(games=16, seed=2)
    fast = explore(plan, settings)
    monkeypatch.setattr(pachisi.explore.explorer, "engine_for", lambda ruleset: "reference")
    reference = explore(plan, settings)
    for a, b in zip(fast, reference, strict=True):
        assert (a.deadlocks, a.frozen, a.draws) == (b.deadlocks, b.frozen, b.draws)
        games = settings.games
        assert round((a.deadlocks.value + a.frozen.value) * games) == round(a.draws.value * games)
    base, unstacked = fast
    assert base.frozen.value == 0 and base.deadlocks.value > 0.1  # kill-before-home
    assert unstacked.frozen.value > 0.4  # a man on its last square bars every entry
