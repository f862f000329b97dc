"""Diffs between releases (and checks of whole languages), kept beside the archive by the
content they were worked out from and by the differ's code.

Beside each diff of two releases its report is kept (`read_report`): the data and the text
forms `rulesarchive diff` prints. Reading a report needs none of the differ's classes, so this
module imports them (and the cache's pickling) only where a diff is read or made: the command
line's quick path imports it to find a report.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from functools import cache

from rulesarchive import corpus, differ

TYPE_CHECKING = False  # not typing's: the quick path of the command line never imports typing
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import TypeVar

    from rulesarchive.corpus.model import Document, Release
    from rulesarchive.differ.classify import ReleaseDiff

    T = TypeVar("T")

# Part of every report's name: reports of another layout are never read. marshal's format may
# change between Python versions, so the version is part of the name too.
_REPORT_FORMAT = "report-1"


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
    Its report is kept beside it (made now when it is missing).
    """
    from rulesarchive.corpus.cache import cached
    from rulesarchive.differ.classify import diff_documents

    label = f"diff {old.key} -> {new.key}"
    diff = cached(folder, _diff_key(old, new), lambda: diff_documents(load(old), load(new)), label)
    if folder is not None:
        _keep_report(folder, old, new, diff)
    return diff


def has_cached_diff(folder: Path, old: Release, new: Release) -> bool:
    """Tell whether `folder` holds the diff of two releases made by this code."""
    from rulesarchive.corpus.cache import entry_path

    return entry_path(folder, _diff_key(old, new)).exists()


def _diff_key(old: Release, new: Release) -> str:
    return f"diff:{code_fingerprint()}:{old.content_sha256}:{new.content_sha256}"


def report_fields(
    language: str, effective_date: str, set_code: str, set_name: str, content_sha256: str
) -> tuple[str, ...]:
    """Return what names a release in a report's name: its label and its content.

    A release.json holds them under these keys (effective_date as YYYY-MM-DD).
    """
    return (language, effective_date, set_code, set_name, content_sha256)


def read_report(folder: str | Path, old: tuple[str, ...], new: tuple[str, ...]) -> dict | None:
    """Return the report kept beside the diff of two releases (named by `report_fields`).

    A dict: "data", the diff's JSON form (differ.report.diff_data), and "text" and "markdown",
    its renderings (differ.report.diff_text); None when there is none made by this code.
    """
    try:
        with open(_report_path(folder, old, new), "rb") as handle:
            report = marshal.load(handle)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    return report if isinstance(report, dict) else None


def _report_path(folder: str | Path, old: tuple[str, ...], new: tuple[str, ...]) -> str:
    # the corpus's code too: it names the releases in the report (corpus.present)
    parts = (_REPORT_FORMAT, sys.version, code_fingerprint(), _package_digest(corpus), *old, *new)
    name = hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]
    return os.path.join(folder, f"{name}.report")


def _release_fields(release: Release) -> tuple[str, ...]:
    date = release.effective_date.isoformat()
    return report_fields(
        release.language, date, release.set_code, release.set_name, release.content_sha256
    )


def _keep_report(folder: Path, old: Release, new: Release, diff: ReleaseDiff) -> None:
    """Write the report of a diff beside it unless it is there (atomically; best effort)."""
    path = _report_path(folder, _release_fields(old), _release_fields(new))
    if os.path.exists(path):
        return
    import json

    from rulesarchive.differ.report import diff_data, diff_text

    data = diff_data(old, new, diff)
    report = {
        "data": json.loads(json.dumps(data)),  # plain types (a change's kind is a StrEnum)
        "text": diff_text(data),
        "markdown": diff_text(data, markdown=True),
    }
    temporary = f"{path}.{os.getpid()}.incoming"
    try:
        os.makedirs(folder, exist_ok=True)
        with open(temporary, "wb") as handle:
            marshal.dump(report, handle)
        os.replace(temporary, path)
    except (OSError, ValueError):  # a report that cannot be kept is only made again next time
        try:
            os.unlink(temporary)
        except OSError:
            return


def cached_value(folder: Path | None, key: str, make: Callable[[], T], label: str = "") -> T:
    """Return what `make` returns, from `folder` when it holds a value this code made for `key`.

    For results worked out from whole releases (the reference check): `key` names their
    inputs (the releases' content hashes); the differ's code is added here.
    """
    from rulesarchive.corpus.cache import cached

    return cached(folder, f"value:{code_fingerprint()}:{key}", make, label)


def diff_folder(archive_root: Path) -> Path:
    """Return where an archive keeps its cached diffs."""
    from rulesarchive.corpus.cache import cache_folder

    return cache_folder(archive_root, "diffs")


@cache
def code_fingerprint() -> str:
    """Hash of the differ's code: what other code computed is never reused."""
    return _package_digest(differ)


@cache
def _package_digest(package) -> str:
    """Hash of the content of a package's own .py files (os, not pathlib: see the top)."""
    digest = hashlib.sha256()
    folder = os.path.dirname(package.__file__)
    for name in sorted(os.listdir(folder)):
        if name.endswith(".py"):
            with open(os.path.join(folder, name), "rb") as handle:
                digest.update(handle.read())
    return digest.hexdigest()[:16]
