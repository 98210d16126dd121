"""The package's layering, as a contract (docs/architecture.md).

Every module under ``src/pachisi`` is parsed (never imported) and its imports, at module level
and inside functions alike, are collected; imports under ``if TYPE_CHECKING:`` are left out,
since they never run. Two things must hold of the resulting graph:

- no import cycle between modules;
- no module imports a module of a higher layer.

Layers, lowest first (a module may import its own layer and any lower one):

0. ``pachisi.rules`` - the pure rules core; with it, two helpers that import nothing of the
   package: ``pachisi.savefile`` (writing a file whole) and ``pachisi.progress`` (a terminal
   progress bar, also shown by training in ``pachisi.ai.learned``);
1. core on top of the rules: ``pachisi.notation``, ``pachisi.game``, ``pachisi.render``;
2. ``pachisi.fast`` - the compiled engine, checked against the rules - and
   ``pachisi.arguments``, the checks at its Python boundary;
3. ``pachisi.ai`` - the players;
4. services: everything else (``cli``, ``web``, ``env``, ``tournament``, ``review``, ...).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "pachisi"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("pachisi.rules", "pachisi.savefile", "pachisi.progress"),
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


def _runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` except the bodies of ``if TYPE_CHECKING:`` blocks."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The longest known module that ``name`` (a module or a name inside one) denotes."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package modules that module ``name`` imports when it runs."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    if path.suffix == ".pyx":
        return found
    for node in _runtime_nodes(ast.parse(path.read_text(), str(path))):
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


def import_graph() -> dict[str, set[str]]:
    """Module -> the package modules it imports at run time."""
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def checked_graph() -> dict[str, set[str]]:
    """The import graph without the :data:`KNOWN` imports."""
    return {a: {b for b in bs if (a, b) not in KNOWN} for a, bs in import_graph().items()}


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


def test_no_import_cycle() -> None:
    cycle = find_cycle(checked_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_upward_import() -> None:
    upward = upward_imports(checked_graph())
    lines = [f"{a} (layer {layer(a)}) imports {b} (layer {layer(b)})" for a, b in sorted(upward)]
    assert not upward, "imports from a lower layer to a higher one:\n" + "\n".join(lines)


def test_known_violations_still_exist() -> None:
    graph = import_graph()
    fixed = {(a, b) for a, b in KNOWN if b not in graph.get(a, set())}
    assert not fixed, f"fixed, delete from KNOWN in {__name__}: {sorted(fixed)}"


def test_the_checks_can_fail() -> None:
    graph = {"pachisi.rules.a": {"pachisi.ai.b"}, "pachisi.ai.b": {"pachisi.rules.a"}}
    assert upward_imports(graph) == {("pachisi.rules.a", "pachisi.ai.b")}
    assert find_cycle(graph) == ["pachisi.ai.b", "pachisi.rules.a", "pachisi.ai.b"]
    assert find_cycle({"pachisi.rules.a": set()}) is None
