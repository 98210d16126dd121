"""Names a package exports but imports from their modules only on first use.

``pachisi``, ``pachisi.rules``, ``pachisi.fast`` and ``pachisi.web`` export their public
names this way, so that importing one of their submodules (which imports the package
first) loads nothing more: the ``pachisi`` command's start-up, and a compiled engine that
is loaded only by what plays on it, depend on that. This module imports nothing itself.
"""

from __future__ import annotations

# Not typing.TYPE_CHECKING: the package's __init__ imports this module, and importing
# typing would cost the command's start-up more than the rest of it (see pachisi/__init__).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Mapping, MutableMapping


def lazy_exports(
    package: str,
    homes: Mapping[str, str],
    names: Collection[str],
    namespace: MutableMapping[str, object],
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """A package's module ``__getattr__`` and ``__dir__``: ``homes`` maps each exported name
    to the module it is imported from when first asked for, and ``namespace`` (the package's
    ``globals()``) keeps it after that; ``names`` is the package's ``__all__``."""

    def __getattr__(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        import importlib

        value = getattr(importlib.import_module(home), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *names})

    return __getattr__, __dir__
