"""Write the effects file shipped with the package (src/pachisi/explore/data/effects.json)
from the JSON documents of ``pachisi explore`` runs, with the commands that made them.

    .venv/bin/pachisi explore --named --games 4000 --skill-games 1000 --strong-games 200 \\
        --seed 1 --workers 2 --json named.json
    .venv/bin/pachisi explore --flip-from classic --games 2000 --skill-games 400 --seed 1 \\
        --json flip-classic.json
    .venv/bin/pachisi explore --flip-from wikipedia-full --games 2000 --skill-games 400 \\
        --seed 1 --json flip-wiki.json
    .venv/bin/python bench/effects.py named.json flip-classic.json flip-wiki.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from pachisi.explore.effects import condense

COMMANDS = [
    "pachisi explore --named --games 4000 --skill-games 1000 --strong-games 200 --seed 1",
    "pachisi explore --flip-from classic --games 2000 --skill-games 400 --seed 1",
    "pachisi explore --flip-from wikipedia-full --games 2000 --skill-games 400 --seed 1",
]
TARGET = Path(__file__).resolve().parent.parent / "src/pachisi/explore/data/effects.json"


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    documents = [json.loads(Path(name).read_text()) for name in argv]
    TARGET.parent.mkdir(exist_ok=True)
    TARGET.write_text(json.dumps(condense(documents, COMMANDS), indent=1) + "\n")
    print(f"wrote {TARGET} ({TARGET.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
