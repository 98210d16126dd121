"""Builds the compiled core: Cython sources to C, compiled by the machine's C compiler.

Everything else about the package is in pyproject.toml; setuptools reads this file only for
the extension modules. Two extensions:

- ``pachisi.fast._core``: the compiled engine (``src/pachisi/fast/_core.pyx`` and the parts
  it includes from ``src/pachisi/fast/kernels/``), one C file so that the compiler can
  inline across all of it;
- ``pachisi.ai._compiled``: the compiled players' expectimax, the learned encoder and
  network, and self-play (``src/pachisi/ai/_compiled.pyx``), which includes the engine's
  parts too, so that the compiler inlines the engine into the players and neither
  extension calls the other.

Both are ``optional``: where no C compiler works the build says so and goes on, and the
package installs without them (pachisi.fast then explains what is missing).
``PACHISI_BUILD_DEBUG=1`` compiles with -O0 -g and Cython's bounds checks, for a debugger.
"""

from __future__ import annotations

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("PACHISI_BUILD_DEBUG") == "1"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "initializedcheck": DEBUG,
    "nonecheck": False,
    # Python's floor division and modulo, as the reference engine computes them.
    "cdivision": False,
    "cdivision_warnings": False,
    "infer_types": True,
    "embedsignature": True,
}

# -ffp-contract=off: no fused multiply-adds, so that float sums (the greedy player's
# scores) round exactly as Python's, on every machine.
COMPILE_ARGS = ["-O0", "-g"] if DEBUG else ["-O3", "-fno-strict-aliasing"]
COMPILE_ARGS.append("-ffp-contract=off")

EXTENSIONS = {
    "pachisi.fast._core": "src/pachisi/fast/_core.pyx",
    "pachisi.ai._compiled": "src/pachisi/ai/_compiled.pyx",
}
# A developer rebuilding one extension: PACHISI_BUILD_ONLY=pachisi.fast._core.
ONLY = os.environ.get("PACHISI_BUILD_ONLY")


def extension(name: str, source: str) -> Extension:
    return Extension(
        name,
        [source],
        extra_compile_args=[*COMPILE_ARGS, "-Wno-unused-function", "-Wno-unreachable-code"],
        optional=True,
    )


setup(
    ext_modules=cythonize(
        [
            extension(name, source)
            for name, source in EXTENSIONS.items()
            if ONLY is None or name == ONLY
        ],
        compiler_directives=DIRECTIVES,
        include_path=["src"],
        nthreads=int(os.environ.get("PACHISI_BUILD_JOBS", "2")),
    ),
)
