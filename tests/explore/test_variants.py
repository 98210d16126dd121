"""Which rulesets ``pachisi explore`` compares (issue 23): named, one-switch flips, grids."""

from __future__ import annotations

import pytest

from pachisi.explore.variants import (
    MAX_VARIANTS,
    ExplorePlanError,
    flip_choices,
    flip_variants,
    grid_variants,
    named_variants,
)
from pachisi.rules.ruleset import NAMED, SWITCHES, format_value, parse_ruleset


def test_named_variants_are_the_rules_references_named_rulesets() -> None:
    assert [v.label for v in named_variants()] == list(NAMED)
    assert all(v.ruleset == NAMED[v.label] for v in named_variants())


@pytest.mark.parametrize("base", ["classic", "wikipedia-full", "ludii+players=2"])
def test_a_flip_changes_one_switch_of_the_base_and_every_listable_choice_is_tried(
    base: str,
) -> None:
    start = parse_ruleset(base)
    plan = flip_variants(base)
    assert plan.variants[0].ruleset == start and plan.variants[0].switch is None
    tried = {(v.switch, v.choice) for v in plan.variants[1:]}
    refused = {text for text, _ in plan.skipped}
    for switch in SWITCHES:
        current = format_value(switch.key, getattr(start, switch.key))
        for choice in flip_choices(switch.key):
            if choice == current:
                continue
            # Every other choice is played or listed as refused by the rules core, with why.
            assert (switch.key, choice) in tried or f"{start}+{switch.key}={choice}" in refused
    for v in plan.variants[1:]:
        assert v.switch is not None
        assert format_value(v.switch, getattr(v.ruleset, v.switch)) == v.choice
        others = [s.key for s in SWITCHES if s.key not in (v.switch, "pyada_values")]
        # Only the flipped switch differs (cowries brings its own table and value sets).
        if v.switch not in ("cowries", "six_up_value"):
            assert all(getattr(v.ruleset, k) == getattr(start, k) for k in others)
        assert parse_ruleset(v.label) == v.ruleset
    assert all(why for _, why in plan.skipped)
    assert len({v.label for v in plan.variants}) == len(plan.variants)


def test_free_form_switches_are_not_flipped_but_named_choices_beside_sets_are() -> None:
    assert flip_choices("score_table") == ()
    assert flip_choices("p_mouth_up") == ()
    assert flip_choices("stacking") == ("all", "castles_only", "none")
    assert flip_choices("cowries") == ("6", "7")


def test_a_grid_is_every_combination_on_its_base() -> None:
    plan = grid_variants("stacking=all,none;capture_bonus=true,false;cowries=6,7")
    assert len(plan.variants) + len(plan.skipped) == 8
    labels = [v.label for v in plan.variants]
    assert labels[0] == "classic"
    assert "classic+cowries=7+stacking=none+capture_bonus=false" in labels
    assert all(parse_ruleset(v.label) == v.ruleset for v in plan.variants)


def test_a_grid_of_value_sets_separates_them_with_a_bar() -> None:
    plan = grid_variants("reroll_values=2,3|6,10,25", base="herklots-6")
    assert {tuple(sorted(v.ruleset.reroll_values)) for v in plan.variants} == {(2, 3), (6, 10, 25)}


def test_a_grid_point_the_rules_core_refuses_is_skipped_with_its_reason() -> None:
    # V-PYADA's sub-switches have no effect without pyada: the reader refuses them.
    plan = grid_variants("pyada_use=free,attached")
    assert [v.label for v in plan.variants] == ["classic"]
    [(text, why)] = plan.skipped
    assert text == "classic+pyada_use=attached" and "pyada" in why


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty grid"),
        ("stacking", "key=value"),
        ("stacking=", "key=value"),
        ("nonsense=1,2", "not a switch"),
        ("stacking=all;stacking=none", "twice"),
        ("capture_bonus=maybe", "capture_bonus"),
        ("cowries=6,8", "cowries"),
    ],
)
def test_a_bad_grid_is_refused_with_what_is_wrong(spec: str, message: str) -> None:
    with pytest.raises(ExplorePlanError, match=message):
        grid_variants(spec)


def test_a_grid_too_large_is_refused_before_anything_is_built() -> None:
    values = ",".join(str(v) for v in range(2, 13))  # 11 values, 4 axes: 14,641
    spec = ";".join(
        f"{key}={values}" for key in ("reroll_values", "entry_values", "pyada_values", "big_values")
    ).replace(",", "|")
    with pytest.raises(ExplorePlanError, match=f"at most {MAX_VARIANTS:,}"):
        grid_variants(spec)


def test_a_bad_base_is_refused() -> None:
    with pytest.raises(ExplorePlanError, match="base ruleset"):
        flip_variants("classic+nonsense=1")
    with pytest.raises(ExplorePlanError, match="base ruleset"):
        grid_variants("stacking=none", base="chess")
