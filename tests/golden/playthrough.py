"""Golden playthroughs: a seeded random game written out step by step (OpenSpiel style).

Each file records, at every step, the position string, then either the chance outcomes with
their exact probabilities and the throw made, or the legal actions and the action played.
A second implementation of the rules (such as a compiled engine) can be diffed against these
files line by line. Regenerate after an intended rules change with:

    .venv/bin/python -m tests.golden.playthrough
"""

from __future__ import annotations

import random
from pathlib import Path

from pachisi.notation import write_position
from pachisi.rules import cowries, engine
from pachisi.rules.ruleset import NAMED, parse_ruleset
from pachisi.rules.state import CHANCE

HERE = Path(__file__).resolve().parent
SEEDS = (1, 2)
MAX_STEPS = 8000
"""A safety net: every game here ends well before, with a win or a draw (R-DEADLOCK,
R-FROZEN)."""
EXTRA = (("wikipedia-full+stacking=none", 1), ("classic+stacking=none+kill_before_home=seat", 1))
"""Games beyond the named rulesets': seeded random games that end in an R-FROZEN draw."""


def playthrough(ruleset_text: str, seed: int) -> str:
    """The playthrough text of one seeded random game."""
    ruleset = parse_ruleset(ruleset_text)
    rng = random.Random(seed)
    state = engine.new_game(ruleset)
    lines = [
        f"# pachisi playthrough: ruleset={ruleset} seed={seed}",
        "# regenerate: .venv/bin/python -m tests.golden.playthrough",
    ]
    for _ in range(MAX_STEPS):
        lines.append(f"position {write_position(state)}")
        if state.is_over:
            outcome = engine.outcome(state)
            lines.append(f"result {outcome}")
            break
        if engine.current_player(state) == CHANCE:
            outcomes = engine.chance_outcomes(state)
            lines.append("chance " + " ".join(f"{k}:{p}" for k, p in outcomes))
            k = cowries.throw(rng, ruleset.cowries, ruleset.p_mouth_up)
            lines.append(f"throw {k}")
            state, _ = engine.apply_chance(state, k)
        else:
            actions = engine.legal_actions(state)
            lines.append("actions " + " ".join(str(a) for a in actions))
            action = actions[rng.randrange(len(actions))]
            lines.append(f"play {action}")
            state, _ = engine.apply_action(state, action)
    else:
        lines.append("result step-limit")
    return "\n".join(lines) + "\n"


def golden_files() -> list[tuple[Path, str, int]]:
    """(file, ruleset, seed) for every golden playthrough."""
    games = [(name, seed) for name in NAMED for seed in SEEDS] + list(EXTRA)
    return [(HERE / f"{name}-seed{seed}.txt", name, seed) for name, seed in games]


if __name__ == "__main__":
    for path, name, seed in golden_files():
        path.write_text(playthrough(name, seed))
        print("wrote", path.relative_to(HERE.parent.parent))
