"""Importing the package costs nothing it does not need: ``import pachisi`` imports neither
Gymnasium nor PettingZoo, and ``import pachisi.env`` only registers the Gymnasium id."""

from __future__ import annotations

import subprocess
import sys

import gymnasium as gym

import pachisi.env


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    return set(out.split())


def test_import_pachisi_loads_no_rl_library() -> None:
    loaded = _loaded_after("import pachisi")
    assert not loaded & {"gymnasium", "pettingzoo", "pachisi.env"}


def test_import_pachisi_env_registers_and_loads_the_environments_on_use() -> None:
    loaded = _loaded_after("import pachisi.env")
    assert "gymnasium" in loaded
    assert not loaded & {"pettingzoo", "pachisi.env.pettingzoo_env"}
    spec = gym.spec(pachisi.env.ENV_ID)
    assert spec.entry_point == "pachisi.env.gymnasium_env:PachisiEnv"
    assert spec.vector_entry_point == "pachisi.env.vector_env:PachisiVectorEnv"
    assert pachisi.env.PachisiAECEnv.__module__ == "pachisi.env.pettingzoo_env"
