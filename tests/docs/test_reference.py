"""The API reference (docs/reference/) documents every public name, and only real ones.

A package's public API is its ``__all__``. ``pachisi`` and each of its subpackages must
define one; a package deeper down (``pachisi.ai.learned``, the web game's migrations) is
internal unless it defines one too. Each package with an ``__all__`` has a page,
``docs/reference/<name>.md`` (``pachisi.md`` for the top level, ``rules.md`` for
``pachisi.rules``), and every name of its ``__all__`` is on it, either as a mkdocstrings
directive (``::: pachisi.rules.ruleset.Ruleset``) or as a link to the entry that documents it
on another page (``[`Ruleset`][pachisi.rules.ruleset.Ruleset]``, for a name that several
packages export). Each directive and link must point at the very object that the package
exports under that name: the reference names the module that defines it, because the
lazily exported names are invisible to mkdocstrings' static analysis. The site's build
(tests/docs/test_site.py) checks that every link resolves.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "pachisi"
REFERENCE = ROOT / "docs" / "reference"

DIRECTIVE = re.compile(r"^::: *([\w.]+) *$", re.MULTILINE)
LINK = re.compile(r"\]\[(pachisi(?:\.\w+)+)\]")


def _name(init: Path) -> str:
    return ".".join(init.parent.relative_to(PACKAGE.parent).parts)


def _defines_all(init: Path) -> bool:
    tree = ast.parse(init.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.Assign | ast.AnnAssign)
        and any(
            isinstance(t, ast.Name) and t.id == "__all__"
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        )
        for node in tree.body
    )


def packages() -> dict[str, bool]:
    """Every package under src/pachisi, with whether its ``__init__`` defines ``__all__``."""
    return {_name(p): _defines_all(p) for p in sorted(PACKAGE.rglob("__init__.py"))}


PUBLIC = sorted(name for name, has_all in packages().items() if has_all)


def page_of(package: str) -> Path:
    """The reference page of ``package``."""
    return REFERENCE / f"{package.removeprefix('pachisi.') or 'pachisi'}.md"


def documented(text: str) -> list[str]:
    """The full names a reference page documents: its directives and its links to entries."""
    return [*DIRECTIVE.findall(text), *LINK.findall(text)]


def resolve(path: str) -> object:
    """The object at a full name: the longest importable module, then attributes."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            found = getattr(found, attribute)
        return found
    raise ModuleNotFoundError(path)


def test_top_level_and_subpackages_define_all() -> None:
    top = {name for name in packages() if name.count(".") <= 1}
    missing = sorted(name for name in top if not packages()[name])
    assert not missing, f"these packages define no __all__ (their public API): {missing}"
    assert "pachisi.rules" in PUBLIC and len(PUBLIC) >= 11


def test_every_reference_page_is_a_package() -> None:
    pages = {p.name for p in REFERENCE.glob("*.md")} - {"index.md"}
    strays = sorted(pages - {page_of(name).name for name in PUBLIC})
    assert not strays, f"reference pages of no public package: {strays}"


@pytest.mark.parametrize("package", PUBLIC)
def test_every_public_name_is_on_its_page(package: str) -> None:
    page = page_of(package)
    assert page.is_file(), f"{package} has no reference page: create {page.relative_to(ROOT)}"
    names = documented(page.read_text(encoding="utf-8"))
    module: ModuleType = importlib.import_module(package)
    by_name: dict[str, list[str]] = {}
    for path in names:
        by_name.setdefault(path.rpartition(".")[2], []).append(path)
    missing = [name for name in module.__all__ if name not in by_name]
    assert not missing, f"{page.relative_to(ROOT)} does not document {package}.{missing}"
    for name in module.__all__:
        exported = getattr(module, name)
        for path in by_name[name]:
            assert resolve(path) is exported, (
                f"{page.relative_to(ROOT)}: {path} is not the {name} that {package} exports"
            )


@pytest.mark.parametrize("package", PUBLIC)
def test_every_entry_exists(package: str) -> None:
    page = page_of(package)
    if not page.is_file():
        pytest.skip(f"{package} has no page (test_every_public_name_is_on_its_page fails)")
    for path in documented(page.read_text(encoding="utf-8")):
        resolve(path)


def _bound_at_top(init: Path) -> set[str]:
    """The names an ``__init__`` binds itself when it runs (not under ``TYPE_CHECKING``)."""
    bound: set[str] = set()
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign):
            bound |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            bound.add(node.target.id)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            bound |= {(a.asname or a.name).partition(".")[0] for a in node.names}
    return bound


def _init(package: str) -> Path:
    return PACKAGE.parent / package.replace(".", "/") / "__init__.py"


LAZY = [package for package in PUBLIC if "_HOMES" in _bound_at_top(_init(package))]
"""The packages that load their names on first use, from a ``_HOMES`` map."""


@pytest.mark.parametrize("package", LAZY)
def test_lazy_exports_name_their_homes(package: str) -> None:
    # Each name maps to its module: a name missing from the map, and not bound by the
    # package itself, is in __all__ but cannot be imported.
    module = importlib.import_module(package)
    unmapped = set(module.__all__) - set(module._HOMES) - _bound_at_top(_init(package))
    assert not unmapped, f"{package}: no _HOMES entry for {sorted(unmapped)}"
