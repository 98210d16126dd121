"""Saving a file so that it is never lost: the path checked first, the text written atomically.

``pachisi play`` checks where it will save the game record before the first throw
(:func:`check_save_path`) and writes it with :func:`save_text`: a temporary file in the
same directory, flushed and synced, then renamed over the target, with Ctrl-C held back
meanwhile, so the target holds either its old contents or the whole new text.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import threading
from collections.abc import Iterator
from types import FrameType

__all__ = [
    "SavePathError",
    "check_save_path",
    "save_bytes",
    "save_text",
    "sigint_held",
]


class SavePathError(ValueError):
    """A path the game record could not be saved to; raised before the game starts."""


def check_save_path(path: str) -> None:
    """Refuse a path the record could not be saved to: :class:`SavePathError` naming why.

    The test is the save itself in small: a temporary file is created (and removed) in
    the target's directory, so permissions, read-only file systems and the like all count,
    even for root, whom permission bits do not stop.
    """
    if not path:
        raise SavePathError("the path to save the game to is empty")
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    if os.path.isdir(target):
        raise SavePathError(f"{path}: is a directory, not a file to save the game to")
    if os.path.lexists(target) and not os.path.isfile(target):
        raise SavePathError(f"{path}: is not a regular file to save the game to")
    if not os.path.exists(folder):
        raise SavePathError(f"{path}: no such directory to save the game in")
    if not os.path.isdir(folder):
        raise SavePathError(f"{path}: {folder} is not a directory")
    if os.path.exists(target) and not os.access(target, os.W_OK):
        raise SavePathError(f"{path}: the file is read-only")
    try:
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".pachisi-", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise SavePathError(f"{path}: cannot write in {folder}: {exc.strerror}") from None


def save_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` atomically and durably.

    The text goes to a temporary file in the same directory, which is flushed, synced
    and then renamed over the target, so the target holds either its old contents or all
    of ``text``, never a part; on any failure the temporary file is removed. Ctrl-C is
    held back until the file is in place (in the main thread), then raised. A symbolic
    link is followed: the file it points to is replaced, not the link.
    """
    save_bytes(path, text.encode("utf-8"))


def save_bytes(path: str, data: bytes) -> None:
    """:func:`save_text` for bytes (a picture, for one)."""
    target = os.path.realpath(path)
    folder, name = os.path.split(target)
    with sigint_held():
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            # mkstemp makes the file private (0600); a record is an ordinary file.
            os.chmod(tmp, _file_mode(target))
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _sync_directory(folder)


def _file_mode(target: str) -> int:
    """The permission bits of the file being replaced, or the usual ones for a new file."""
    try:
        return os.stat(target).st_mode & 0o7777
    except OSError:
        umask = os.umask(0o022)
        os.umask(umask)
        return 0o666 & ~umask


def _sync_directory(folder: str) -> None:
    """Make the rename itself durable where the system allows a directory to be synced."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def sigint_held() -> Iterator[None]:
    """Hold back Ctrl-C while the block runs; raise ``KeyboardInterrupt`` after it if one
    came. Only the main thread may set signal handlers, and a handler the program set
    itself is left alone; in both cases the block simply runs unprotected."""
    in_main = threading.current_thread() is threading.main_thread()
    if not in_main or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    caught: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if caught:
        raise KeyboardInterrupt
