"""Derived data kept beside the archive: pickles named by a key, never a source of truth.

Layout: ARCHIVE/.cache/<kind>/<sha256 of the key, 32 hex digits>.pickle. A key names everything
the value was computed from (content hashes, the code that computed it), so a stale entry is
never found, only left behind. Writes are atomic; an unreadable entry is computed again.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
log = logging.getLogger(__name__)


def cache_folder(archive_root: Path, kind: str) -> Path:
    """Return where an archive keeps its derived data of one kind ('diffs', 'lines')."""
    return archive_root / ".cache" / kind


def cached(folder: Path | None, key: str, compute: Callable[[], T], label: str = "") -> T:
    """Return the value stored under `key` in `folder`, or compute, store and return it.

    `label` names the value in the log ('diff en/2024-11-08 -> en/2025-02-07').
    """
    if folder is None:
        return compute()
    path = folder / f"{hashlib.sha256(key.encode()).hexdigest()[:32]}.pickle"
    found = _read(path)
    if found is not None:
        log.info("%s: from the cache", label or key)
        return found
    log.info("%s: not in the cache, computing", label or key)
    value = compute()
    _write(path, value)
    return value


def _read(path: Path):
    try:
        with path.open("rb") as handle:
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
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
        temporary.replace(path)
    except OSError:
        with contextlib.suppress(OSError):  # a cache that cannot be written is only slower
            temporary.unlink(missing_ok=True)
