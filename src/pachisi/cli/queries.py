"""The ``pachisi`` commands that answer at once, without playing a game: ``rules`` (the
named rulesets, one ruleset's switches, or what each switch changes), ``moves`` (the
legal actions or throws of a position) and ``hint`` (those actions ranked by a computer
player's judgement).
"""

from __future__ import annotations

import argparse
import json
import re
from typing import Any, Final

from pachisi.ai.evaluation import sides
from pachisi.ai.hints import hint
from pachisi.ai.players import make_player
from pachisi.cli.errors import CliError, one_line
from pachisi.describe import DESCRIPTIONS, describe_action, situation
from pachisi.notation import NotationError, read_position, write_position
from pachisi.rules import engine
from pachisi.rules.ruleset import ALIASES, NAMED, describe, parse_ruleset, resolve_name
from pachisi.rules.state import CHANCE, State

# --------------------------------------------------------------------------- rules


def rules_command(args: argparse.Namespace) -> int:
    if args.effects:
        return _effects(args.name, args.json)
    if args.name is None:
        return _list_rulesets(args.json)
    ruleset = parse_ruleset(args.name)
    rows = describe(ruleset)
    if args.json:
        # "writable": whether NAME+key=value gives this ruleset back; "note" says why not.
        switches = [{**row, "writable": not row["note"]} for row in rows]
        data = {"ruleset": str(ruleset), "name": ruleset.name, "switches": switches}
        print(json.dumps(data, indent=2))
        return 0
    print(f"Ruleset {ruleset.name}; canonical string: {ruleset}")
    # A value that the ruleset string cannot state (a switch another one turns off, or a
    # value that only follows a link) is marked [n] and explained under the table.
    notes = []
    shown = []
    for row in rows:
        cell = {**row, "differs": "*" if row["value"] != row["default"] else " "}
        if row["note"]:
            notes.append(f"{row['key']}: {row['note']}")
            cell["value"] = f"{row['value']} [{len(notes)}]"
        shown.append(cell)
    headers = {"key": "switch", "value": "value", "default": "default", "rule": "rule"}
    widths = {k: max(len(h), *(len(row[k]) for row in shown)) for k, h in headers.items()}
    line = "  ".join(h.ljust(widths[k]) for k, h in headers.items())
    print(f"  {line}")
    for row in shown:
        cells = "  ".join(row[k].ljust(widths[k]) for k in headers)
        print(f"{row['differs']} {cells}  {row['help']}".rstrip())
    print("* differs from the default (classic)")
    if notes:
        print(f"[n] cannot be written back: {ruleset}+key=value refuses that value, because")
        for number, note in enumerate(notes, 1):
            print(f"  [{number}] {note}")
    return 0


def _effects(name: str | None, as_json: bool) -> int:
    from pachisi.explore.effects import effects_text, ruleset_effects

    if name is None or "+" in name:
        raise CliError("--effects needs a named ruleset (pachisi rules lists them)")
    named = resolve_name(name)  # an unknown name is refused here, with the known ones
    if as_json:
        print(json.dumps(ruleset_effects(named), indent=2))
    else:
        print(effects_text(named))
    return 0


def _list_rulesets(as_json: bool) -> int:
    aliases: dict[str, list[str]] = {name: [] for name in NAMED}
    for alias, name in ALIASES.items():
        aliases[name].append(alias)
    entries = [
        {
            "name": name,
            "aliases": sorted(aliases[name]),
            "description": DESCRIPTIONS.get(name, ""),
            "canonical": str(ruleset),
        }
        for name, ruleset in NAMED.items()
    ]
    if as_json:
        print(json.dumps({"rulesets": entries}, indent=2))
        return 0
    width = max(len(name) for name in NAMED)
    print("Named rulesets (change a switch with NAME+key=value; see `pachisi rules NAME`):")
    for entry in entries:
        print(f"  {str(entry['name']).ljust(width)}  {entry['description']}")
        if entry["aliases"]:
            print(f"  {' ' * width}  aliases: {', '.join(entry['aliases'])}")
    return 0


# --------------------------------------------------------------------------- moves


_PIECES: Final = re.compile(r"[0-9]+(?:,[0-9]+)*(?:/[0-9]+(?:,[0-9]+)*)+")
"""A word that can only be the first field of a position string, the pieces."""


def _read_positions(words: list[str]) -> list[State]:
    """The positions ``moves`` and ``hint`` were given, all read before any is handled.

    A single position may be one argument or its words unquoted: all the arguments read as
    one position first, as they always have. Failing that, each argument holding a blank is
    a position of its own, and a run of arguments without one holds the words of one
    position, or of several, each beginning at its pieces field (``0,0,0,0/...``). With
    several, the error for one that cannot be read names it by its number.
    """
    whole = " ".join(words)
    try:
        return [read_position(whole)]
    except NotationError:
        texts = _split_positions(words)
        if len(texts) == 1:
            raise
    states = []
    for number, text in enumerate(texts, start=1):
        try:
            states.append(read_position(text))
        except NotationError as exc:
            raise CliError(f"position {number} of {len(texts)}: {one_line(exc)}") from None
    return states


def _split_positions(words: list[str]) -> list[str]:
    """The position strings in ``words`` (see :func:`_read_positions`)."""
    groups: list[list[str]] = []
    in_words = False  # whether the last group is a run of words that may go on
    for word in words:
        if any(c.isspace() for c in word):
            groups.append([word])
            in_words = False
        elif in_words and not _PIECES.fullmatch(word):
            groups[-1].append(word)
        else:
            groups.append([word])
            in_words = True
    return [" ".join(group) for group in groups]


def _heading(number: int, count: int, state: State) -> None:
    """The line that begins the output for one of several positions."""
    if number > 1:
        print()
    print(f"Position {number} of {count}: {write_position(state)}")


def moves_command(args: argparse.Namespace) -> int:
    states = _read_positions(args.position)
    found = [_moves_data(state) for state in states]
    if args.json:
        print(json.dumps(found[0] if len(found) == 1 else found, indent=2))
        return 0
    for number, (state, data) in enumerate(zip(states, found, strict=True), start=1):
        if len(states) > 1:
            _heading(number, len(states), state)
        _print_moves(state, data)
    return 0


def _print_moves(state: State, data: dict[str, Any]) -> None:
    print(situation(state))
    if data["outcomes"]:
        print("   k  value  probability")
        for o in data["outcomes"]:
            print(f"  {o['k']:>2}  {o['value']:>5}  {o['probability']}")
    for a in data["actions"]:
        print(f"  {a['index']:>2}. {a['action']:<8} {a['description']}")


def _moves_data(state: State) -> dict[str, Any]:
    player = engine.current_player(state)
    result = engine.outcome(state)
    data: dict[str, Any] = {
        "position": write_position(state),
        "ruleset": str(state.ruleset),
        "to_move": "chance" if player == CHANCE else ("over" if result else "seat"),
        "seat": None if result else state.seat,
        "actions": [],
        "outcomes": [],
        "outcome": str(result) if result else None,
    }
    if player == CHANCE:
        table = state.ruleset.score_table
        data["outcomes"] = [
            {"k": k, "value": table[k], "probability": str(pr)}
            for k, pr in engine.chance_outcomes(state)
        ]
    else:
        data["actions"] = [
            {"index": i, "action": str(a), "description": describe_action(state, a)}
            for i, a in enumerate(engine.legal_actions(state), start=1)
        ]
    return data


def hint_command(args: argparse.Namespace) -> int:
    states = _read_positions(args.position)
    make_player(args.level)  # an unknown level is bad input (UnknownBotError), not a bug
    for number, state in enumerate(states, start=1):
        if not engine.legal_actions(state):
            which = f"position {number} of {len(states)}: " if len(states) > 1 else ""
            raise CliError(
                f"{which}no seat is to act in this position (a throw is due or the game is over)"
            )
    if args.json:
        found = [_hint_data(state, args.level, args.seed) for state in states]
        print(json.dumps(found[0] if len(found) == 1 else found, indent=2))
        return 0
    for number, state in enumerate(states, start=1):
        if len(states) > 1:
            _heading(number, len(states), state)
        # Each hint is printed as it is found: a search takes up to a second or two.
        _print_hint(state, _hint_data(state, args.level, args.seed))
    return 0


def _hint_data(state: State, level: str, seed: int) -> dict[str, Any]:
    ranked = hint(state, level, seed=seed)
    return {
        "position": write_position(state),
        "level": level,
        "seed": seed,
        "seat": state.seat,
        "actions": [
            {
                "action": str(r.action),
                "description": describe_action(state, r.action),
                "win": round(r.win, 4),
                "effort": r.effort,
            }
            for r in ranked
        ],
    }


def _print_hint(state: State, data: dict[str, Any]) -> None:
    print(situation(state))
    # Not "the chance to win": a draw counts as an equal share for every side.
    n = sides(state)
    who = f"seat {state.seat}'s side" if n == 2 else f"seat {state.seat}"
    print(
        f"hint by {data['level']}: expected score of {who} after each action "
        f"(a win counts 1, a draw 1/{n})"
    )
    for i, a in enumerate(data["actions"], start=1):
        print(f"  {i:>2}. {a['action']:<8} {100 * a['win']:5.1f}%  {a['description']}")
