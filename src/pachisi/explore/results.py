"""An exploration's results file: every game played, streamed to disk as it is played,
so that an interrupted run resumes where it stopped and plays no game twice.

The file is JSON Lines. The first line is the header: the package's version, the settings
and the variants' rulesets. Each further line is one batch of one variant: its measured
games (``"kind": "games"``, a list of :class:`~pachisi.explore.tally.GameRecord`
fields per game, from game ``first`` on), or the result of a batch of skill games
(``"kind": "skill"`` or ``"strong"``: how many were played and won). A batch is written
whole and flushed to the disk as soon as it is played, in whatever order batches finish;
a last line cut short by an interruption is dropped when the file is read again, and a
resumed run plays exactly the games no line holds.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from pachisi.explore.errors import ResultsError
from pachisi.explore.settings import Settings
from pachisi.explore.tally import GameRecord, Tally

__all__ = ["ResultsError", "ResultsFile"]

FORMAT = "pachisi-explore/3"
"""The header's ``format``: a file of another format is refused, not misread."""


class ResultsFile:
    """The results file of one run, open for appending batches."""

    def __init__(self, path: str, stream: IO[str]) -> None:
        self.path = path
        self._stream = stream

    @classmethod
    def open(
        cls,
        path: str,
        settings: Settings,
        tallies: Sequence[Tally],
        version: str,
    ) -> ResultsFile:
        """Open ``path`` for this run: a new file gets the header; an existing one must be
        this run's (the same games and variants), and its batches are counted into
        ``tallies`` first (a cut-off last line is dropped from the file)."""
        file = Path(path)
        labels = [t.variant.label for t in tallies]
        if file.exists() and file.stat().st_size > 0:
            keep = _read_into(file, settings, tallies, labels)
            with file.open("r+", encoding="utf-8") as stream:
                stream.truncate(keep)
        else:
            header = {
                "format": FORMAT,
                "pachisi": version,
                "settings": settings.as_dict(),
                "variants": labels,
            }
            with file.open("w", encoding="utf-8") as stream:
                _write_line(stream, header)
        return cls(path, file.open("a", encoding="utf-8"))

    def games(
        self, tally: Tally, first: int, records: Sequence[GameRecord], seconds: float
    ) -> None:
        """Append a batch of measured games of ``tally``'s variant."""
        line = {
            "kind": "games",
            "variant": tally.variant.label,
            "first": first,
            "engine": tally.engine,
            "seconds": round(seconds, 4),
            "records": [list(r) for r in records],
        }
        _write_line(self._stream, line)

    def pairs(self, tally: Tally, kind: str, first: int, games: int, won: int) -> None:
        """Append a batch of skill (``skill``) or strong (``strong``) games."""
        line = {
            "kind": kind,
            "variant": tally.variant.label,
            "first": first,
            "games": games,
            "won": won,
            "player": tally.strong_player if kind == "strong" else "greedy",
        }
        _write_line(self._stream, line)

    def close(self) -> None:
        self._stream.close()


def _write_line(stream: IO[str], line: dict[str, Any]) -> None:
    stream.write(json.dumps(line, separators=(",", ":")) + "\n")
    stream.flush()
    os.fsync(stream.fileno())


def _read_into(file: Path, settings: Settings, tallies: Sequence[Tally], labels: list[str]) -> int:
    """Count the file's batches into ``tallies``; the length of its whole lines."""
    by_label = {t.variant.label: t for t in tallies}
    kept = 0
    with file.open("r", encoding="utf-8") as stream:
        lines = stream.readlines()
    for number, text in enumerate(lines, start=1):
        last = number == len(lines)
        try:
            if not text.endswith("\n"):
                raise ValueError("cut short")
            line = json.loads(text)
            if not isinstance(line, dict):
                raise ValueError("not an object")
        except ValueError:
            if last:
                break  # the batch being written when the run stopped: played again
            raise ResultsError(f"{file}: line {number} cannot be read") from None
        if number == 1:
            _check_header(file, line, settings, labels)
        else:
            try:
                _count(line, by_label)
            except (KeyError, TypeError, ValueError) as exc:
                raise ResultsError(f"{file}: line {number}: {exc}") from None
        kept += len(text.encode("utf-8"))
    return kept


def _check_header(
    file: Path, header: dict[str, Any], settings: Settings, labels: list[str]
) -> None:
    if header.get("format") != FORMAT:
        raise ResultsError(f"{file} is not a results file of pachisi explore")
    try:
        theirs = Settings(**_settings_fields(header["settings"]))
    except (KeyError, TypeError, ValueError):
        raise ResultsError(f"{file}: its settings cannot be read") from None
    if not settings.same_games(theirs):
        raise ResultsError(
            f"{file} holds another run's games (seed, players or caps differ); "
            "give a new file, or the same settings"
        )
    if header.get("variants") != labels:
        raise ResultsError(f"{file} holds another set of variants; give a new file")


def _settings_fields(data: dict[str, Any]) -> dict[str, Any]:
    renamed = {"pace_seconds": "pace"}
    return {renamed.get(k, k): v for k, v in data.items()}


def _count(line: dict[str, Any], by_label: dict[str, Tally]) -> None:
    """Add one batch line to its variant's tally; none of its games may be counted already."""
    tally = by_label[line["variant"]]
    kind = line["kind"]
    first = int(line["first"])
    if kind == "games":
        records = [GameRecord(*(int(x) for x in r)) for r in line["records"]]
        tally.cover(kind, first, len(records))
        tally.add(records)
        tally.seconds += float(line["seconds"])
    elif kind in ("skill", "strong"):
        games = int(line["games"])
        tally.cover(kind, first, games)
        tally.add_pairs(kind, games, int(line["won"]))
    else:
        raise ValueError(f"unknown kind {kind!r}")
