"""Diffs between releases (and checks of whole languages), kept beside the archive by the
content they were worked out from and by the differ's code."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TypeVar

from rulesarchive.corpus.cache import cache_folder, cached, entry_path
from rulesarchive.corpus.model import Document, Release
from rulesarchive.differ.classify import ReleaseDiff, diff_documents

from rulesarchive import differ

T = TypeVar("T")


def cached_diff(
    folder: Path | None, old: Release, new: Release, before: Document, after: Document
) -> ReleaseDiff:
    """Return the diff of two releases, from `folder` when it holds one made by this code."""
    documents = {old.key: before, new.key: after}
    return cached_release_diff(folder, old, new, lambda release: documents[release.key])


def cached_release_diff(
    folder: Path | None, old: Release, new: Release, load: Callable[[Release], Document]
) -> ReleaseDiff:
    """Return the diff of two releases, reading their documents with `load` only to diff them.

    For a command that asks for one diff: reading two documents costs more than the cached diff.
    """
    label = f"diff {old.key} -> {new.key}"
    return cached(folder, _diff_key(old, new), lambda: diff_documents(load(old), load(new)), label)


def has_cached_diff(folder: Path, old: Release, new: Release) -> bool:
    """Tell whether `folder` holds the diff of two releases made by this code."""
    return entry_path(folder, _diff_key(old, new)).exists()


def _diff_key(old: Release, new: Release) -> str:
    return f"diff:{code_fingerprint()}:{old.content_sha256}:{new.content_sha256}"


def cached_value(folder: Path | None, key: str, make: Callable[[], T], label: str = "") -> T:
    """Return what `make` returns, from `folder` when it holds a value this code made for `key`.

    For results worked out from whole releases (the reference check): `key` names their
    inputs (the releases' content hashes); the differ's code is added here.
    """
    return cached(folder, f"value:{code_fingerprint()}:{key}", make, label)


def diff_folder(archive_root: Path) -> Path:
    """Return where an archive keeps its cached diffs."""
    return cache_folder(archive_root, "diffs")


@cache
def code_fingerprint() -> str:
    """Hash of the differ's code: what other code computed is never reused."""
    digest = hashlib.sha256()
    for path in sorted(Path(differ.__file__).parent.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
