"""Diffs between releases, kept on disk by the releases' content hashes and the differ's code."""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
from functools import cache
from pathlib import Path

from rulesarchive.corpus.model import Document, Release
from rulesarchive.differ.classify import ReleaseDiff, diff_documents

from rulesarchive import differ

log = logging.getLogger(__name__)


def cached_diff(
    folder: Path | None, old: Release, new: Release, before: Document, after: Document
) -> ReleaseDiff:
    """Return the diff of two releases, from `folder` when it holds one made by this code."""
    if folder is None:
        return diff_documents(before, after)
    pair = f"{_code_fingerprint()}:{old.content_sha256}:{new.content_sha256}"
    path = folder / f"{hashlib.sha256(pair.encode()).hexdigest()[:32]}.pickle"
    if path.exists():
        try:
            with path.open("rb") as handle:
                found = pickle.load(handle)
            log.info("diff %s -> %s: from the cache", old.key, new.key)
            return found
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, TypeError):
            log.info("diff %s -> %s: cached copy unreadable, diffing afresh", old.key, new.key)
    log.info("diff %s -> %s: diffing (not in the cache)", old.key, new.key)
    diff = diff_documents(before, after)
    folder.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.incoming")
    with temporary.open("wb") as handle:
        pickle.dump(diff, handle, protocol=pickle.HIGHEST_PROTOCOL)
    temporary.replace(path)
    return diff


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
