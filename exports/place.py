"""Exports are built beside their destination and renamed into place: all or nothing."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from rulesarchive.exports import ExportError


@contextmanager
def staged(dest: Path, ours: Callable[[Path], bool], what: str) -> Iterator[Path]:
    """Yield a fresh path beside `dest` to build in; put it in place of `dest` once built.

    `dest` is replaced only if absent or `ours` (a previous export, `what`): nothing else is
    ever overwritten. If the build fails, what was built is removed and `dest` is left as it was.
    """
    if (dest.exists() or dest.is_symlink()) and not ours(dest):
        raise ExportError(f"{dest}: exists and is not {what}; give another DEST")
    dest.parent.mkdir(parents=True, exist_ok=True)
    path = dest.with_name(f".{dest.name}.incoming")
    _remove(path)
    try:
        yield path
    except BaseException:
        _remove(path)
        raise
    _replace(path, dest)


def _replace(path: Path, dest: Path) -> None:
    """Put a finished file or folder in place of `dest`; the old one survives any failure before."""
    if not dest.is_dir() or dest.is_symlink():
        path.replace(dest)
        return
    retired = dest.with_name(f".{dest.name}.retired")
    _remove(retired)
    dest.rename(retired)
    try:
        path.rename(dest)
    except OSError:
        retired.rename(dest)
        raise
    _remove(retired)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
