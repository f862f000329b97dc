"""Exports are built beside their destination and put in its place in one step: all or nothing."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from rulesarchive.corpus.store import exchange_paths
from rulesarchive.exports import ExportError


@contextmanager
def staged(dest: Path, ours: Callable[[Path], bool], what: str) -> Iterator[Path]:
    """Yield a fresh path beside `dest` to build in; put it in place of `dest` once built.

    `dest` is replaced only if absent or `ours` (a previous export, `what`): nothing else is
    ever overwritten. If the build fails, what was built is removed and `dest` is left as it was.
    What a killed export left beside `dest` is cleaned first (an old export set aside and not
    yet replaced is put back). A destination that cannot be written is one ExportError.
    """
    try:
        _recover(dest)
        if (dest.exists() or dest.is_symlink()) and not ours(dest):
            raise ExportError(f"{dest}: exists and is not {what}; give another DEST")
        _make_parent(dest)
        path = _incoming(dest)
        _remove(path)
        path.touch()  # can be written here: else one line now, not a failure half-way
        path.unlink()
    except OSError as error:
        raise _unwritable(dest, error) from None
    try:
        yield path
    except OSError as error:  # a full disk, say
        _remove(path)
        raise _unwritable(dest, error) from None
    except BaseException:
        _remove(path)
        raise
    try:
        _replace(path, dest)
    except OSError as error:
        _remove(path)
        raise _unwritable(dest, error) from None


def _make_parent(dest: Path) -> None:
    """Make the folder `dest` goes in; a file where a folder of its path should be is an
    ExportError saying so (mkdir would say only "File exists")."""
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        folders = reversed([dest.parent, *dest.parent.parents])
        file = next((f for f in folders if f.exists() and not f.is_dir()), dest.parent)
        raise ExportError(f"{dest}: cannot be written ({file} is not a folder)") from None


def _incoming(dest: Path) -> Path:
    return dest.with_name(f".{dest.name}.incoming")


def _retired(dest: Path) -> Path:
    return dest.with_name(f".{dest.name}.retired")


def _recover(dest: Path) -> None:
    """Undo what an export killed while replacing `dest` left: put a set-aside export back if
    `dest` is missing, else delete it."""
    retired = _retired(dest)
    if retired.exists() or retired.is_symlink():
        if dest.exists() or dest.is_symlink():
            _remove(retired)
        else:
            retired.rename(dest)


def _replace(path: Path, dest: Path) -> None:
    """Put a finished file or folder in place of `dest`, in one step where the system can.

    A file is renamed over the old one. A folder is exchanged with the old one (Linux
    renameat2), which is then deleted; elsewhere the old folder is set aside first, and put
    back by the next export if this one is killed before the new one is in place.
    """
    if not dest.is_dir() or dest.is_symlink():
        path.replace(dest)
        return
    if exchange_paths(path, dest):
        _remove(path)  # the old export, now in the staging place
        return
    retired = _retired(dest)
    _remove(retired)
    dest.rename(retired)
    try:
        path.rename(dest)
    except OSError:
        retired.rename(dest)
        raise
    _remove(retired)


def _unwritable(dest: Path, error: OSError) -> ExportError:
    return ExportError(f"{dest}: cannot be written ({error.strerror or error})")


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
