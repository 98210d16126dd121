"""What bad input to an exploration raises: one class the command line reports in a line.

Light on purpose: ``pachisi.cli`` imports it for its list of user errors, and
``pachisi --help`` must not load the explorer itself.
"""

from __future__ import annotations

__all__ = ["ExploreError", "ExplorePlanError", "ResultsError"]


class ExploreError(ValueError):
    """An exploration cannot run as asked; the message says why."""


class ExplorePlanError(ExploreError):
    """A base ruleset or a grid that cannot be read; the message says which part."""


class ResultsError(ExploreError):
    """A results file that does not belong to this run, or cannot be read."""
