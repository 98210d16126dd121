"""``python -m pachisi.cli``: the command run by :func:`pachisi.cli.main` directly, without
the console script's guard for a Ctrl-C while the command loads (:mod:`pachisi.__main__`).
"""

import sys

from pachisi.cli import main

if __name__ == "__main__":
    sys.exit(main())
