"""The bounds of the numbers the ``pachisi`` command accepts: games, seeds, workers, caps.

The argument parser checks every number against them; ``tournament`` hands
:data:`MAX_GAMES` on to its schedule as well.
"""

from __future__ import annotations

from typing import Final

MAX_GAMES: Final = 1_000_000
"""The most games one ``simulate`` run plays (some hours at the measured speeds)."""
MAX_SEED: Final = 2**64 - 1
"""The largest seed the commands accept."""
MAX_WORKERS: Final = 256
"""The most worker processes ``simulate --workers`` starts."""
MAX_CAP: Final = 10**9
"""The largest ``--max-turns`` or ``--max-steps`` of ``simulate``."""
MAX_PLAY_STEPS: Final = 200_000
"""The largest ``--max-steps`` of ``play``: its record must stay well inside the size a game
record may have (``pachisi.notation.MAX_RECORD_LENGTH``, at 2 to 20 characters a step)."""
