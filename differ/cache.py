"""Diffs between releases (and checks of whole languages), kept on disk by their inputs' content
hashes and the differ's code."""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TypeVar

from rulesarchive.corpus.model import Document, Release
from rulesarchive.differ.classify import ReleaseDiff, diff_documents

from rulesarchive import differ

T = TypeVar("T")


def cached_diff(
    folder: Path | None, old: Release, new: Release, before: Document, after: Document
) -> ReleaseDiff:
    """Return the diff of two releases, from `folder` when it holds one made by this code."""
    pair = f"{old.content_sha256}:{new.content_sha256}"
    return cached_value(folder, pair, lambda: diff_documents(before, after))


def cached_value(folder: Path | None, key: str, make: Callable[[], T]) -> T:
    """Return what `make` returns, from `folder` when it holds a value this code made for `key`.

    For results worked out from whole releases (the reference check): `key` names their
    inputs (the releases' content hashes); the differ's code is added here.
    """
    if folder is None:
        return make()
    name = hashlib.sha256(f"{_code_fingerprint()}:{key}".encode()).hexdigest()[:32]
    path = folder / f"{name}.pickle"
    if path.exists():
        try:
            with path.open("rb") as handle:
                return pickle.load(handle)
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, TypeError):
            pass  # unreadable: work it out afresh and replace it
    value = make()
    folder.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.incoming")
    with temporary.open("wb") as handle:
        pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
    temporary.replace(path)
    return value


def diff_folder(archive_root: Path) -> Path:
    """Return where an archive keeps its cached diffs."""
    return archive_root / ".cache" / "diffs"


@cache
def _code_fingerprint() -> str:
    """Hash of the differ's code: a diff cached by other code is never reused."""
    digest = hashlib.sha256()
    for path in sorted(Path(differ.__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
