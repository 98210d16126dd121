"""Runs the vendored axe-core in a Playwright page and reports serious or critical violations.

The pages' Content-Security-Policy refuses an injected script element, so the engine's source is
evaluated through the DevTools protocol (``page.evaluate``), which the policy does not govern."""

from __future__ import annotations

from pathlib import Path
from typing import Any

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
SERIOUS = ("serious", "critical")


def serious_violations(page: Any) -> list[dict[str, Any]]:
    """The axe violations of impact serious or critical on the page as it stands now."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    result = page.evaluate("async () => await window.axe.run(document)")
    return [v for v in result["violations"] if v.get("impact") in SERIOUS]


def assert_accessible(page: Any, what: str) -> None:
    """Fail, listing each rule id, the nodes' selectors and the help text, if axe finds any
    serious or critical violation on ``what`` (a page description for the message)."""
    found = serious_violations(page)
    lines = [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(" ".join(map(str, n["target"])) for n in v["nodes"])
        for v in found
    ]
    assert not found, f"{what}: {len(found)} serious accessibility violation(s):\n" + "\n".join(
        lines
    )
