"""Files written all or nothing: a reader sees the old file or the new, never part of one.

The one temp-file-then-rename of the package: the archive's files and the code version's memo
(corpus.derived, which the store builds on) are written here.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from rulesarchive.system.lazy import lazy_module

if TYPE_CHECKING:
    import tempfile
else:  # a command that writes nothing does not import it (~10 ms of imports)
    tempfile = lazy_module("tempfile")


def _current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


UMASK = _current_umask()  # the process's, read once: new files and folders get its modes


def write_file_atomically(path: Path, data: bytes) -> None:
    """Write a file all or nothing, durably, with the modes the umask gives new files."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".incoming-")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fchmod(file.fileno(), 0o666 & ~UMASK)  # mkstemp makes 0600
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    fsync_folder(path.parent)


def fsync_folder(path: Path) -> None:
    """Make a folder's new and renamed entries durable (where a folder can be synced)."""
    if not hasattr(os, "O_DIRECTORY"):  # Windows: a folder cannot be opened to be synced
        return
    handle = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)
