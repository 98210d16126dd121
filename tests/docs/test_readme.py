"""README.md stays a newcomer's front page (issue 47).

It has at most :data:`MAX_LINES` lines, starts with the two commands (play, and run the test
suite) in one ``sh`` block, holds no pasted benchmark run, and every relative link in it
leads to a file of the repository (and, into a Markdown page, to one of its headings).
Measurements live on docs/performance.md, and their history in the changelog and git.

Each check is a function from the README's text to its problems, so that the tests below
can also show each one finding what it is meant to find.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MAX_LINES = 250

PLAY = "scripts/setup && .venv/bin/pachisi serve"
TEST = "scripts/setup dev && .venv/bin/python -m pytest -n 2 --dist worksteal"
COMMANDS_WITHIN = 40
"""The two commands' block must begin within this many lines of the top."""

PROMPT = re.compile(r"^\$ \S")
"""A shell prompt with a command after it, as a pasted terminal session shows it."""
BENCH_HEADER = re.compile(r"^#\s*python \d+\.\d+(\.\d+)?, \w+")
"""The first line the benchmarks print: ``# python 3.11.7, x86_64, ...``."""
BENCH_VERDICT = re.compile(r"^#\s*(targets at batch|issue \d+ targets)")
"""The headers of bench/fast.py's verdict tables."""
COMMIT = re.compile(r"(?<![\w/.#-])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w/-])")
"""An abbreviated or full commit hash: 7 to 40 lowercase hex digits, with a digit and a
letter among them (so neither a word nor a number)."""
RATE = re.compile(r"\b(playouts|actions|steps|throws|games|commands|decisions|po)/s\b")
FIGURE = re.compile(r"\d[\d,]*(\.\d+)?")
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
FENCE = re.compile(r"^(```|~~~)")


def pasted_runs(text: str) -> list[str]:
    """Where the text shows a command's output as pasted from a terminal, or the lines a
    benchmark prints: its header, its verdicts, a table of rates."""
    lines = text.splitlines()
    problems: list[str] = []
    for number, line in enumerate(lines, 1):
        if BENCH_HEADER.match(line):
            problems.append(f"line {number}: a benchmark's header: {line.strip()!r}")
        if BENCH_VERDICT.match(line):
            problems.append(f"line {number}: a benchmark's verdict table: {line.strip()!r}")
        if PROMPT.match(line):
            following = number
            while lines[following - 1].rstrip().endswith("\\") and following < len(lines):
                following += 1  # the command goes on over continuation lines
            after = lines[following].strip() if following < len(lines) else ""
            if after and not FENCE.match(after) and not PROMPT.match(after):
                problems.append(f"line {number}: a command with its output pasted: {line!r}")
        if RATE.search(line):
            below = lines[number : number + 3]
            if sum(len(FIGURE.findall(row)) >= 2 for row in below) >= 2:
                problems.append(f"line {number}: a table of rates: {line.strip()!r}")
    return problems


def commit_hashes(text: str) -> list[str]:
    """The commit hashes the text names, with their lines."""
    return [
        f"line {number}: {found.group()}"
        for number, line in enumerate(text.splitlines(), 1)
        for found in COMMIT.finditer(line)
    ]


def the_commands(text: str) -> list[str]:
    """What is wrong with the two commands: both must be in the first ``sh`` block, which
    must begin near the top."""
    lines = text.splitlines()
    starts = [n for n, line in enumerate(lines) if line.strip() in ("```sh", "```bash")]
    if not starts:
        return ["no sh block"]
    start = starts[0]
    end = next((n for n in range(start + 1, len(lines)) if FENCE.match(lines[n])), len(lines))
    block = [line.split("#", 1)[0].strip() for line in lines[start + 1 : end]]
    problems = [
        f"the first sh block lacks {command!r}" for command in (PLAY, TEST) if command not in block
    ]
    if start >= COMMANDS_WITHIN:
        problems.append(f"the first sh block begins on line {start + 1}, not near the top")
    return problems


def slug(heading: str) -> str:
    """A heading's anchor as GitHub and the documentation site make it: lower case, the
    Markdown and punctuation left out, spaces as hyphens."""
    text = re.sub(r"[`*]|<[^>]*>", "", heading).strip().lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """The anchors of a Markdown text's headings (outside code blocks)."""
    found: set[str] = set()
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced and (heading := re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)):
            found.add(slug(heading.group(1)))
    return found


def links(text: str) -> list[str]:
    """The targets of the text's inline links, images and link definitions."""
    targets = [found.group(1) for found in LINK.finditer(text)]
    targets += [m.group(1) for line in text.splitlines() if (m := REFERENCE.match(line))]
    return targets


def broken_links(text: str, base: Path) -> list[str]:
    """Relative links that lead to no file under ``base``, or to no heading of the page."""
    problems = []
    for target in links(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            continue  # an address with a scheme: https:, mailto:
        path, _, fragment = target.partition("#")
        path = path.split("?", 1)[0]
        file = (base / path).resolve()
        if path and not file.exists():
            problems.append(f"{target}: no such file")
        elif fragment and (not path or file.suffix == ".md"):
            headings = anchors(file.read_text(encoding="utf-8") if path else text)
            if fragment not in headings:
                problems.append(f"{target}: {path or 'this page'} has no heading #{fragment}")
    return problems


def readme() -> str:
    return README.read_text(encoding="utf-8")


def test_the_readme_is_short() -> None:
    count = len(readme().splitlines())
    assert count <= MAX_LINES, f"README.md has {count} lines, more than {MAX_LINES}"


def test_the_readme_starts_with_the_two_commands() -> None:
    assert the_commands(readme()) == []


def test_ci_runs_the_readmes_test_command() -> None:
    steps = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    setup, run = TEST.split(" && ")
    assert setup in steps
    assert run in steps


def test_the_readme_holds_no_benchmark_run() -> None:
    assert pasted_runs(readme()) == [], "measurements belong on docs/performance.md"


def test_the_readme_names_no_commit() -> None:
    assert commit_hashes(readme()) == [], "history belongs in CHANGELOG.md and git"


def test_every_relative_link_of_the_readme_leads_somewhere() -> None:
    assert broken_links(readme(), ROOT) == []


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    run = (
        "Measured:\n\n```\n$ .venv/bin/python bench/fast.py --seconds 2 --rounds 3\n"
        "# python 3.11.7, x86_64, single core\n"
        "ruleset          batch  playouts/s   actions/s\n"
        "classic              1        9924     7483506\n"
        "classic             64       14149    10658224\n"
        "# targets at batch 4096: Ludii ~ 0.913 x the reference engine's playouts/s\n```\n"
    )
    found = pasted_runs(run)
    assert any("header" in p for p in found)
    assert any("verdict" in p for p in found)
    assert any("output pasted" in p for p in found)
    assert any("table of rates" in p for p in found)
    assert pasted_runs("```sh\n$ pachisi rules \\\n    classic\n$ pachisi rules\n```\n") == []
    assert pasted_runs("| feature | docs |\n|---|---|\n| fast | [p](docs/p.md) |\n") == []

    assert commit_hashes("The whole benchmark at 24c02d9, on a quiet machine.") == [
        "line 1: 24c02d9"
    ]
    assert commit_hashes("Since deadbeef, 1234567 games, #a1b2c3d4 and docs/f00ba12.md") == []

    assert the_commands(f"# x\n\n```sh\n{PLAY}  # play\n{TEST}\n```\n") == []
    assert the_commands(f"# x\n\n```sh\n{PLAY}\n```\n") == [f"the first sh block lacks {TEST!r}"]

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# Page\n\n## Public servers: limits\n")
    (tmp_path / "docs" / "code.md").write_text("# The `six_up_value` switch\n")
    text = (
        "## Here\n\n[ok](docs/page.md) [anchor](docs/page.md#public-servers-limits)"
        " [web](https://a.b/c) [code](docs/code.md#the-six_up_value-switch) [here](#here)\n"
        "[gone](docs/gone.md) [bad anchor](docs/page.md#nowhere) ![pic](docs/pic.png)"
        " [not here](#there)\n"
    )
    assert broken_links(text, tmp_path) == [
        "docs/gone.md: no such file",
        "docs/page.md#nowhere: docs/page.md has no heading #nowhere",
        "docs/pic.png: no such file",
        "#there: this page has no heading #there",
    ]
