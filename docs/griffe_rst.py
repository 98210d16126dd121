"""A griffe extension for the API reference (mkdocs.yml): the docstrings' reST-style markup
as Markdown, so that mkdocstrings renders it rather than showing it.

- ``code`` becomes `code`;
- a role, :class:`~pachisi.rules.state.State` or :mod:`pachisi.rules`, becomes the name in
  code, linked to its entry in the reference when the reference has one (a role with ``~``
  shows the last part of the name only);
- a doctest (lines from ``>>>`` to the next blank line) becomes a ``pycon`` code block;
- a paragraph's closing ``::`` (reST's "a literal block follows") becomes ``:``.

Lines of an indented block (code in Markdown) are left as they are.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:mod|class|func|meth|data|attr|exc|obj|const):`(~?)([^`]+)`")
LITERAL = re.compile(r"``(.+?)``")


def _target(obj: griffe.Object, name: str) -> str | None:
    """The full name that ``name``, as written in ``obj``'s docstring, stands for, if known:
    a full name as it is, a relative one (``.record``) from ``obj``'s package, a short one
    (``State``, ``Game.push``) from what is in scope where ``obj`` is defined."""
    if name.startswith("pachisi."):
        return name
    if name.startswith("."):
        module = obj.module
        base = module.path if module.is_package else module.parent.path  # type: ignore[union-attr]
        rest = name[1:]
        while rest.startswith("."):
            base, rest = base.rpartition(".")[0], rest[1:]
        return f"{base}.{rest}"
    head, _, tail = name.partition(".")
    try:
        found = obj.resolve(head)
    except griffe.NameResolutionError:
        return None
    return f"{found}.{tail}" if tail else found


def _inline(obj: griffe.Object, line: str) -> str:
    def role(match: re.Match[str]) -> str:
        short, name = match.groups()
        text = name.rsplit(".", 1)[-1] if short else name.lstrip(".")
        target = _target(obj, name)
        if target is None or not target.startswith("pachisi."):
            return f"`{text}`"
        # An optional reference: a link where the reference documents the target, else text.
        return f'<autoref identifier="{target}" optional><code>{text}</code></autoref>'

    line = LITERAL.sub(lambda m: f"`{m.group(1)}`", ROLE.sub(role, line))
    return line[:-1] if line.endswith("::") and not line.lstrip().startswith("::") else line


def markdown(obj: griffe.Object, text: str) -> str:
    """``text``, the docstring of ``obj``, with its reST-style markup in Markdown."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    blank = True  # the previous line was blank (or there was none)
    indented = False  # inside an indented (code) block
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith(">>>"):
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i])
                i += 1
            margin = min(len(b) - len(b.lstrip()) for b in block)
            out += ["", "```pycon", *(b[margin:] for b in block), "```", ""]
            blank, indented = True, False
            continue
        if not stripped:
            out.append(line)
            blank = True
            i += 1
            continue
        indented = len(line) - len(stripped) >= 4 and (blank or indented)
        out.append(line if indented else _inline(obj, line))
        blank = False
        i += 1
    return "\n".join(out)


def _objects(obj: griffe.Object) -> Any:
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _objects(member)  # type: ignore[arg-type]


class RestToMarkdown(griffe.Extension):
    """Rewrites every docstring of a package once the package is loaded."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _objects(pkg):
            if obj.docstring is not None:
                obj.docstring.value = markdown(obj, obj.docstring.value)
