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

The engine is built profile-guided (GCC's -fprofile-generate, then -fprofile-use): built
once instrumented, trained for a few seconds on the playouts of every named ruleset
(:mod:`pachisi.profile_training`, in a subprocess that loads the instrumented build), and
built again with the branch and call counts, which makes its loops 20-40% faster.
``PACHISI_BUILD_PGO=0`` skips that (one plain build, half the time: the developer loop).
If any part of it fails, the engine is built plainly and the build says why.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError, LinkError
from setuptools.modified import newer_group

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


PGO = not DEBUG and os.environ.get("PACHISI_BUILD_PGO", "1") != "0"
PGO_EXTENSION = "pachisi.fast._core"
TRAINING_SECONDS = 600

# Run in a fresh interpreter: load the instrumented build as pachisi.fast._core (wherever
# the build put it) and the package's Python from src/, then play the training workload.
TRAIN = """
import importlib.util, sys
sys.path.insert(0, sys.argv[1])
spec = importlib.util.spec_from_file_location("pachisi.fast._core", sys.argv[2])
module = importlib.util.module_from_spec(spec)
sys.modules["pachisi.fast._core"] = module
spec.loader.exec_module(module)
from pachisi.profile_training import train
train()
"""


JOBS = int(os.environ.get("PACHISI_BUILD_JOBS", "2"))
"""Cython's threads, and the extensions compiled at once (the engine's profile-guided
build beside the players')."""


class ProfileGuidedBuild(build_ext):
    """build_ext that builds the engine profile-guided (see the module doc), the
    extensions side by side on ``JOBS`` threads unless ``--parallel`` says otherwise."""

    def finalize_options(self) -> None:
        if self.parallel is None and JOBS > 1:
            self.parallel = JOBS
        super().finalize_options()

    def build_extension(self, ext: Extension) -> None:
        built = self.get_ext_fullpath(ext.name)
        stale = self.force or newer_group([*ext.sources, *ext.depends], built)
        if not PGO or ext.name != PGO_EXTENSION or not stale:
            super().build_extension(ext)
            return
        compile_args, link_args = list(ext.extra_compile_args), list(ext.extra_link_args)
        profiles = tempfile.mkdtemp(prefix="pachisi-pgo-")
        # Both builds compile every source again, even where the object looks up to date.
        force, self.force = self.force, True
        try:
            ext.extra_compile_args = [
                *compile_args, "-fprofile-generate", f"-fprofile-dir={profiles}",
                "-fprofile-update=single",
            ]  # fmt: skip
            ext.extra_link_args = [*link_args, "-fprofile-generate"]
            super().build_extension(ext)
            self._train(ext)
            ext.extra_compile_args = [
                *compile_args, "-fprofile-use", f"-fprofile-dir={profiles}",
                "-fprofile-partial-training", "-Wno-missing-profile",
            ]  # fmt: skip
            ext.extra_link_args = link_args
            super().build_extension(ext)
        except (CompileError, LinkError, OSError, subprocess.SubprocessError) as error:
            print(f"pachisi: the profile-guided build failed ({error}); building plainly")
            ext.extra_compile_args, ext.extra_link_args = compile_args, link_args
            super().build_extension(ext)
        finally:
            self.force = force
            ext.extra_compile_args, ext.extra_link_args = compile_args, link_args
            shutil.rmtree(profiles, ignore_errors=True)

    def _train(self, ext: Extension) -> None:
        built = Path(self.get_ext_fullpath(ext.name)).resolve()
        src = Path(__file__).resolve().parent / "src"
        print(f"pachisi: training the instrumented engine ({built.name})")
        subprocess.run(
            [sys.executable, "-c", TRAIN, str(src), str(built)],
            check=True,
            timeout=TRAINING_SECONDS,
        )


def extension(name: str, source: str) -> Extension:
    return Extension(
        name,
        [source],
        extra_compile_args=[*COMPILE_ARGS, "-Wno-unused-function", "-Wno-unreachable-code"],
        optional=True,
    )


setup(
    cmdclass={"build_ext": ProfileGuidedBuild},
    ext_modules=cythonize(
        [
            extension(name, source)
            for name, source in EXTENSIONS.items()
            if ONLY is None or name == ONLY
        ],
        compiler_directives=DIRECTIVES,
        include_path=["src"],
        nthreads=JOBS,
    ),
)
