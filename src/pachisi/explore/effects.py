"""Each switch's measured effect, as shipped with the package: what ``pachisi rules NAME
--effects`` shows.

The file ``explore/data/effects.json`` is written by ``bench/effects.py`` from the JSON of
``pachisi explore`` runs (the commands are in it and in docs/variants.md): every named
ruleset's own figures, and for the bases whose one-switch flips were measured
(``classic`` and ``wikipedia-full``), each flip's figures beside its base's.

>>> effects = load_effects()
>>> sorted(effects["flips"])
['classic', 'wikipedia-full']
>>> "classic" in effects["named"]
True
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from importlib import resources
from typing import Any, Final

__all__ = [
    "FIGURES",
    "condense",
    "effects_text",
    "flip_changes",
    "load_effects",
    "ruleset_effects",
]

FIGURES: Final = (
    ("throws", "throws", "{:.0f}"),
    ("minutes", "minutes", "{:.0f}"),
    ("draw_rate", "draws", "{:.1%}"),
    ("first_mover_edge", "first mover's edge", "{:+.1%}"),
    ("captures_per_game", "captures", "{:.1f}"),
    ("comeback_rate", "comebacks", "{:.1%}"),
    ("greedy_vs_random", "greedy beats random", "{:.1%}"),
    ("strong_vs_greedy", "learned beats greedy", "{:.1%}"),
)
"""The figures kept per variant: key, name shown, format of a value."""


def _figure(variant: dict[str, Any], key: str) -> dict[str, float] | None:
    if key == "throws":
        return variant["throws"]["mean"]  # type: ignore[no-any-return]
    value = variant.get(key)
    return value if isinstance(value, dict) else None


def condense(documents: Sequence[dict[str, Any]], commands: Sequence[str]) -> dict[str, Any]:
    """The effects file from the JSON documents of ``pachisi explore`` runs: a run of the
    named rulesets, and runs of one-switch flips (``--flip-from BASE``)."""
    named: dict[str, Any] = {}
    flips: dict[str, list[dict[str, Any]]] = {}
    settings: list[dict[str, Any]] = []
    for document in documents:
        settings.append(document["settings"])
        variants = document["variants"]
        kept = [
            {
                "variant": v["variant"],
                "switch": v["switch"],
                "choice": v["choice"],
                "games": v["games"],
                **{key: _figure(v, key) for key, _, _ in FIGURES},
            }
            for v in variants
        ]
        if any(v["switch"] for v in variants):
            flips[kept[0]["variant"]] = kept
        else:
            named.update({v["variant"]: v for v in kept})
    return {
        "pachisi": documents[0]["pachisi"] if documents else "",
        "commands": list(commands),
        "settings": settings,
        "named": named,
        "flips": flips,
    }


@functools.cache
def load_effects() -> dict[str, Any]:
    """The shipped effects file."""
    text = resources.files("pachisi.explore").joinpath("data/effects.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def ruleset_effects(name: str) -> dict[str, Any]:
    """What was measured of the named ruleset ``name``: ``own`` (its figures, or None) and
    ``flips`` (each flip of it against it; empty where its flips were not measured)."""
    effects = load_effects()
    return {
        "ruleset": name,
        "own": effects["named"].get(name),
        "flips": effects["flips"].get(name, []),
        "commands": effects["commands"],
    }


def flip_changes(name: str) -> list[dict[str, Any]]:
    """What each measured one-switch flip of the named ruleset ``name`` changes: per flip,
    its switch, choice and the figures whose interval does not meet the base's (with both
    values); empty where the flips of ``name`` were not measured."""
    flips = ruleset_effects(name)["flips"]
    if not flips:
        return []
    base = flips[0]
    out = []
    for flip in flips[1:]:
        changes = []
        for key, _, _ in FIGURES:
            a, b = base.get(key), flip.get(key)
            if a is not None and b is not None and (b["high"] < a["low"] or b["low"] > a["high"]):
                changes.append({"figure": key, "base": a["value"], "flip": b["value"]})
        out.append(
            {
                "switch": flip["switch"],
                "choice": flip["choice"],
                "games": flip["games"],
                "changes": changes,
            }
        )
    return out


def _shown(fmt: str, figure: dict[str, float] | None) -> str:
    if figure is None:
        return "-"
    return (
        f"{fmt.format(figure['value'])} [{fmt.format(figure['low'])}, {fmt.format(figure['high'])}]"
    )


def effects_text(name: str) -> str:
    """``pachisi rules NAME --effects``: the ruleset's measured figures, then what each
    one-switch flip of it changes, where those were measured."""
    found = ruleset_effects(name)
    lines = [f"Measured effects for {name} (random players unless said; 95% intervals):"]
    own = found["own"]
    if own is None:
        lines.append("  (no run of this ruleset is shipped)")
    else:
        lines.append(f"  {own['games']} games:")
        for key, label, fmt in FIGURES:
            if own.get(key) is not None:
                lines.append(f"    {label:<22} {_shown(fmt, own[key])}")
    flips = found["flips"]
    if not flips:
        lines.append("  One-switch flips: measured for classic and wikipedia-full only.")
    else:
        lines.append(
            f"  Each switch flipped alone ({flips[0]['games']} games each), against the base:"
        )
        formats = {key: (label, fmt) for key, label, fmt in FIGURES}
        for flip in flip_changes(name):
            changes = [
                f"{formats[c['figure']][0]} {formats[c['figure']][1].format(c['base'])} -> "
                f"{formats[c['figure']][1].format(c['flip'])}"
                for c in flip["changes"]
            ]
            said = "; ".join(changes) if changes else "no figure moved beyond its interval"
            lines.append(f"    {flip['switch']}={flip['choice']}: {said}")
    lines.append("  Measured with: " + " | ".join(found["commands"]))
    return "\n".join(lines)
