"""Every refusal of a ruleset is listed, with an example, in docs/rules-notes.md (issue 47).

The section "Combinations that are refused" holds a table: an example, the message it is
refused with, and why. Each example is run here and must be refused with the documented
message (``…`` in the doc stands for text left out), and every refusal that the code can
give (:mod:`pachisi.rules.refusals`, where all the message templates live) must have a
row, so a new refusal cannot go undocumented.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from pachisi.rules import refusals
from pachisi.rules.refusals import Problem
from pachisi.rules.ruleset import (
    MAX_RULESET_LENGTH,
    RulesetError,
    get_ruleset,
    parse_ruleset,
    validate,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules-notes.md"
SECTION = "## Combinations that are refused"
INVALID_PREFIX = refusals.INVALID(problems="")


def _too_long() -> object:
    text = "classic" + "+extra_lap=false" * 125
    assert len(text) > MAX_RULESET_LENGTH
    return parse_ruleset(text)


def _empty() -> object:
    with pytest.raises(RulesetError) as blanks:
        parse_ruleset(" \t ")
    assert str(blanks.value) == refusals.EMPTY()
    return parse_ruleset("")


def _not_text() -> object:
    return parse_ruleset(6)  # type: ignore[arg-type]


def _bad_table() -> object:
    validate(dataclasses.replace(get_ruleset("classic"), score_table=(25, 10, 2, 3, 4, 1000, 6)))
    return None


WRITTEN_OUT: dict[str, Callable[[], object]] = {
    "`classic` then `+extra_lap=false` 125 times": _too_long,
    "an empty string, or only spaces and tabs": _empty,
    "from Python only: `parse_ruleset(6)`": _not_text,
    'from Python only: `validate(dataclasses.replace(get_ruleset("classic"), '
    "score_table=(25, 10, 2, 3, 4, 1000, 6)))`": _bad_table,
}
"""Examples that the table describes rather than quotes, and how to run them."""


def documented() -> list[tuple[str, str]]:
    """The table's rows: (example cell, message), the message without its backquotes."""
    text = DOC.read_text(encoding="utf-8")
    assert text.count(SECTION) == 1, f"{DOC.name} has no section {SECTION!r}"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if not line.startswith("| ") or line.startswith(("| Example", "|---")):
            continue
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        assert len(cells) == 3, line
        example, message, why = cells
        assert re.fullmatch(r"`[^`]+`", message), f"the message is one code span: {line}"
        assert why, line
        rows.append((example, message[1:-1]))
    return rows


ROWS = documented()


def refusal_message(example: str) -> str:
    """The message that the example is refused with."""
    literal = re.fullmatch(r"`([^`]+)`", example)
    run = WRITTEN_OUT[example] if literal is None else (lambda: parse_ruleset(literal[1]))
    with pytest.raises(RulesetError) as refused:
        run()
    message = str(refused.value)
    if literal is not None and re.fullmatch(r"[a-z0-9-]+", literal[1]):
        # A name alone is refused alike by the reader of names.
        with pytest.raises(RulesetError) as by_name:
            get_ruleset(literal[1])
        assert str(by_name.value) == message
    return message


def as_pattern(documented_message: str) -> re.Pattern[str]:
    """The documented message as a pattern: ``…`` stands for any text left out."""
    return re.compile(".*".join(re.escape(part) for part in documented_message.split("…")))


def kinds_of(message: str) -> list[str]:
    """The refusals whose template the message is: a problem of the checks of a whole
    ruleset after ``invalid ruleset:`` (every example names one), else a refusal of the
    text."""
    problem = message.removeprefix(INVALID_PREFIX)
    checked = problem != message
    return [
        name
        for name, refusal in refusals.refusals().items()
        if refusal is not refusals.INVALID
        and isinstance(refusal, Problem) == checked
        and refusal.pattern().fullmatch(problem)
    ]


def test_the_table_has_rows() -> None:
    assert len(ROWS) >= len(refusals.refusals()) - 1


@pytest.mark.parametrize(("example", "message"), ROWS, ids=[row[0][:60] for row in ROWS])
def test_every_documented_example_is_refused_with_its_documented_message(
    example: str, message: str
) -> None:
    got = refusal_message(example)
    assert as_pattern(message).fullmatch(got), f"{example}:\n  doc  {message}\n  got  {got}"
    assert len(kinds_of(got)) == 1, f"{example} is not one refusal: {kinds_of(got)}"


def test_every_refusal_of_the_code_has_a_row() -> None:
    covered = {kind for example, _ in ROWS for kind in kinds_of(refusal_message(example))}
    missing = set(refusals.refusals()) - covered - {"INVALID"}
    assert not missing, f"refusals with no row in {DOC.name} ({SECTION}): {sorted(missing)}"


def test_only_the_refusals_marked_so_are_documented_from_python() -> None:
    from_python = {
        kind
        for example, _ in ROWS
        if example.startswith("from Python only")
        for kind in kinds_of(refusal_message(example))
    }
    marked = {name for name, r in refusals.refusals().items() if r.from_python_only}
    assert from_python == marked


def test_v_blockade_with_v_stack_immune_and_coexisting_castles_is_accepted() -> None:
    # Refused until issue 47 as "leaves no capture rule", which was not true: a lone enemy
    # piece off the castles is still captured (R-CAPTURE); the table says so too.
    r = parse_ruleset("tylor-1879+blockade=true+castle_mode=coexist")
    assert r.blockade and r.stack_immune and r.castle_mode == "coexist"
    problems = [kind for kind in refusals.refusals().values() if isinstance(kind, Problem)]
    assert "capture rule" not in " ".join(problem.template for problem in problems)
    assert "`tylor-1879+blockade=true+castle_mode=coexist`" in DOC.read_text(encoding="utf-8")


def test_a_refusal_template_gives_its_own_pattern() -> None:
    assert refusals.GIVEN_TWICE.pattern().fullmatch(refusals.GIVEN_TWICE(key="pyada"))
    assert not refusals.IDLE_PYADA_SWITCH.pattern().fullmatch(refusals.PYADA_ENTRY_WITHOUT_PYADA())
