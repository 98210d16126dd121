"""The package's layering, as a contract (docs/architecture.md).

Every module under ``src/pachisi`` is parsed (never imported) and its imports, at module level
and inside functions alike, are collected. Two things must hold:

- no import cycle between modules, whether in one package (``pachisi.rules.ruleset`` and
  ``pachisi.rules.ruleset_checks``) or across packages. Imports under ``if TYPE_CHECKING:``
  count here: they never run, but they are part of the design's dependency graph, and a
  cycle closed by one is a cycle of the design all the same (issue 47 broke the one that
  ``pachisi.rules.ruleset``, ``linked_switches`` and ``ruleset_checks`` made);
- no module imports a module of a higher layer; here only the imports that run count.

Layers, lowest first (a module may import its own layer and any lower one):

0. ``pachisi.rules`` - the pure rules core; with it, three helpers that import nothing of the
   package: ``pachisi._lazy`` (a package's names imported on first use),
   ``pachisi.savefile`` (writing a file whole) and ``pachisi.progress`` (a terminal
   progress bar, also shown by training in ``pachisi.ai.learned``);
1. core on top of the rules: ``pachisi.notation``, ``pachisi.game``, ``pachisi.render``;
2. ``pachisi.fast`` - the compiled engine, checked against the rules - and
   ``pachisi.arguments``, the checks at its Python boundary;
3. ``pachisi.ai`` - the players;
4. services: everything else (``cli``, ``web``, ``env``, ``tournament``, ``review``, ...).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "pachisi"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("pachisi.rules", "pachisi.savefile", "pachisi.progress", "pachisi._lazy"),
    ("pachisi.notation", "pachisi.game", "pachisi.render"),
    ("pachisi.fast", "pachisi.arguments"),
    ("pachisi.ai",),
)
"""Module prefixes of each layer, lowest first; a module matching none is a service."""

SERVICES = len(LAYERS)

KNOWN: frozenset[tuple[str, str]] = frozenset({})
"""Imports that break the contract today and are waiting for a fix: ``(importer, imported)``.

They are left out of both checks (so the cycle they close is too), and the test checks that
each one still exists, so an entry must be deleted once fixed.
"""


def module_name(path: Path) -> str:
    """The dotted module name of a source file under ``src``."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    """Every module of the package, by dotted name: its Python modules and its compiled ones
    (Cython ``.pyx``, which import nothing of the package's Python: they include C sources)."""
    return {module_name(p): p for p in sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.pyx")])}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _nodes(tree: ast.AST, type_checking: bool) -> Iterator[ast.AST]:
    """Every node of ``tree``; without ``type_checking``, not the bodies of
    ``if TYPE_CHECKING:`` blocks."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if not type_checking and isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _resolve(name: str, known: Collection[str]) -> str | None:
    """The longest known module that ``name`` (a module or a name inside one) denotes."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(
    name: str, path: Path, known: dict[str, Path], *, type_checking: bool = False
) -> set[str]:
    """The package modules that module ``name`` imports when it runs; with
    ``type_checking``, also those it imports under ``if TYPE_CHECKING:``."""
    if path.suffix == ".pyx":
        return set()
    return imports_in(name, path.name == "__init__.py", path.read_text(), known, type_checking)


def imports_in(
    name: str, is_package: bool, source: str, known: Collection[str], type_checking: bool
) -> set[str]:
    """The modules of ``known`` that the source of module ``name`` imports."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _nodes(ast.parse(source), type_checking):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from a import b`` may name the submodule a.b or a name defined in a.
            targets = [f"{base}.{alias.name}" for alias in node.names]
        for target in targets:
            resolved = _resolve(target, known)
            if resolved is not None and resolved != name:
                found.add(resolved)
    return found


def import_graph(*, type_checking: bool = False) -> dict[str, set[str]]:
    """Module -> the package modules it imports at run time (with ``type_checking``, also
    under ``if TYPE_CHECKING:``)."""
    known = modules()
    return {
        name: imports_of(name, path, known, type_checking=type_checking)
        for name, path in known.items()
    }


def checked_graph(*, type_checking: bool = False) -> dict[str, set[str]]:
    """The import graph without the :data:`KNOWN` imports."""
    graph = import_graph(type_checking=type_checking)
    return {a: {b for b in bs if (a, b) not in KNOWN} for a, bs in graph.items()}


def layer(name: str) -> int:
    """The layer index of a module (services = ``len(LAYERS)``)."""
    for index, prefixes in enumerate(LAYERS):
        if any(name == p or name.startswith(p + ".") for p in prefixes):
            return index
    return SERVICES


def upward_imports(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Every ``(importer, imported)`` pair where the imported module is in a higher layer."""
    return {
        (name, target)
        for name, targets in graph.items()
        for target in targets
        if layer(target) > layer(name)
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a chain ``a, b, ..., a``, or None when the graph has none."""
    white, grey, black = 0, 1, 2
    colour = dict.fromkeys(graph, white)
    for start in sorted(graph):
        if colour[start] != white:
            continue
        path = [start]
        iters = [iter(sorted(graph[start]))]
        colour[start] = grey
        while iters:
            nxt = next(iters[-1], None)
            if nxt is None:
                colour[path.pop()] = black
                iters.pop()
                continue
            if colour.get(nxt, black) == grey:
                return [*path[path.index(nxt) :], nxt]
            if colour.get(nxt, black) == white:
                colour[nxt] = grey
                path.append(nxt)
                iters.append(iter(sorted(graph[nxt])))
    return None


def test_no_import_cycle_even_through_type_checking_imports() -> None:
    cycle = find_cycle(checked_graph(type_checking=True))
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_upward_import() -> None:
    upward = upward_imports(checked_graph())
    lines = [f"{a} (layer {layer(a)}) imports {b} (layer {layer(b)})" for a, b in sorted(upward)]
    assert not upward, "imports from a lower layer to a higher one:\n" + "\n".join(lines)


def test_known_violations_still_exist() -> None:
    graph = import_graph(type_checking=True)
    fixed = {(a, b) for a, b in KNOWN if b not in graph.get(a, set())}
    assert not fixed, f"fixed, delete from KNOWN in {__name__}: {sorted(fixed)}"


def test_the_checks_can_fail() -> None:
    graph = {"pachisi.rules.a": {"pachisi.ai.b"}, "pachisi.ai.b": {"pachisi.rules.a"}}
    assert upward_imports(graph) == {("pachisi.rules.a", "pachisi.ai.b")}
    assert find_cycle(graph) == ["pachisi.ai.b", "pachisi.rules.a", "pachisi.ai.b"]
    assert find_cycle({"pachisi.rules.a": set()}) is None


def test_a_type_checking_import_closes_a_cycle_inside_a_package() -> None:
    # Two modules of one package: b imports a, and a imports b only for its annotations.
    known = {"pachisi.rules", "pachisi.rules.a", "pachisi.rules.b"}
    a = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pachisi.rules.b import B\n"
    b = "from pachisi.rules import a\n"
    for type_checking, cycle in [(False, None), (True, ["pachisi.rules.a", "pachisi.rules.b"])]:
        graph = {
            "pachisi.rules.a": imports_in("pachisi.rules.a", False, a, known, type_checking),
            "pachisi.rules.b": imports_in("pachisi.rules.b", False, b, known, type_checking),
        }
        found = find_cycle(graph)
        assert found == (None if cycle is None else [*cycle, cycle[0]])
