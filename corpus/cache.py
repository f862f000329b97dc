"""Derived data kept beside the archive: pickles named by a key, never a source of truth.

Layout: ARCHIVE/.cache/<kind>/<sha256 of the key, 32 hex digits>.pickle. A key names everything
the value was computed from (content hashes, the code that computed it), so a stale entry is
never found, only left behind. Writes are atomic; an unreadable entry is computed again.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import gc
import hashlib
import logging
import os
import pickle
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)
# Part of every entry's name: entries written in another encoding are never found.
_ENCODING = "dataclass-calls-1"


def cache_folder(archive_root: Path, kind: str) -> Path:
    """Return where an archive keeps its derived data of one kind ('diffs', 'lines')."""
    return archive_root / ".cache" / kind


def cached(folder: Path | None, key: str, compute: Callable[[], T], label: str = "") -> T:
    """Return the value stored under `key` in `folder`, or compute, store and return it.

    `label` names the value in the log ('diff en/2024-11-08 -> en/2025-02-07').
    """
    if folder is None:
        return compute()
    path = entry_path(folder, key)
    found = _read(path)
    if found is not None:
        log.info("%s: from the cache", label or key)
        return found
    log.info("%s: not in the cache, computing", label or key)
    value = compute()
    _write(path, value)
    return value


def entry_path(folder: Path, key: str) -> Path:
    """Return the file that keeps the value stored under `key` in `folder`."""
    name = hashlib.sha256(f"{_ENCODING}:{key}".encode()).hexdigest()[:32]
    return folder / f"{name}.pickle"


def read_entry(path: Path) -> object | None:
    """Return the value kept in `path` (see `entry_path`), or None when absent or unreadable."""
    return _read(path)


def write_entry(path: Path, value: object) -> None:
    """Keep `value` in `path` atomically (a cache that cannot be written is only slower)."""
    _write(path, value)


def kept_progress(folder: Path, keys: list[str], kind: type[T]) -> T | None:
    """Return the work kept for the most steps, or None.

    For work that goes a step (a release) at a time: `keys[n]` names it after the first n
    steps, and what is kept under it is a `kind` whose `count` is n.
    """
    for count in range(len(keys) - 1, 0, -1):
        path = entry_path(folder, keys[count])
        if path.exists():
            with collection_paused():
                found = read_entry(path)
            if isinstance(found, kind) and getattr(found, "count", None) == count:
                return found
    return None


def keep_progress(folder: Path, keys: list[str], value: object, count: int, since: int) -> None:
    """Keep work done for `count` steps under `keys[count]`, in place of that of `since` steps."""
    with collection_paused():
        write_entry(entry_path(folder, keys[count]), value)
    if since and since != count:  # superseded: the work kept now answers everything it did
        with contextlib.suppress(OSError):  # a read-only cache: only left behind
            entry_path(folder, keys[since]).unlink(missing_ok=True)


@contextmanager
def collection_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many objects that form no cycles.

    Unpickling 50,000 tuples and dataclasses otherwise triggers collection after collection,
    each walking everything built so far: reading the lines of descent took three times as long.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _read(path: Path):
    try:
        with path.open("rb") as handle, collection_paused():
            return pickle.load(handle)
    except FileNotFoundError:
        return None
    except (OSError, pickle.UnpicklingError, EOFError, AttributeError, TypeError, ImportError):
        return None  # unreadable or made by other code: compute afresh and replace it


def _write(path: Path, value: object) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.incoming")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with temporary.open("wb") as handle:
            _Pickler(handle, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
        temporary.replace(path)
    except OSError:
        with contextlib.suppress(OSError):  # a cache that cannot be written is only slower
            temporary.unlink(missing_ok=True)


class _Pickler(pickle.Pickler):
    """Store each dataclass as a call of its class with its fields.

    Read back, that is one __init__ per object; pickle's default for slotted dataclasses looks
    up the fields again for every object, which made reading a language's lines of descent
    (57,000 objects) take most of a second.
    """

    def reducer_override(self, obj: object):
        cls: type = type(obj)
        names = _field_names(cls)
        if names is None:
            return NotImplemented
        return cls, tuple(getattr(obj, name) for name in names)


@functools.cache
def _field_names(cls: type) -> tuple[str, ...] | None:
    """Return the fields a dataclass's __init__ takes, in order; None for other classes."""
    if not dataclasses.is_dataclass(cls):
        return None
    fields = dataclasses.fields(cls)
    if not all(field.init for field in fields):
        return None
    return tuple(field.name for field in fields)
