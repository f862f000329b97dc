"""The shipped catalogues of known releases: for the CR, effective date, set and download
URLs; for the tournament documents (MTR, IPG), the archived copy of each file."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from functools import cache

from rulesarchive.corpus import DATA
from rulesarchive.corpus.model import DocKind


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """What is known of one release before its document is read."""

    effective_date: dt.date
    file_date: dt.date
    set_code: str
    set_name: str
    languages: tuple[str, ...]
    urls: tuple[str, ...]
    sha256: tuple[tuple[str, str], ...] = ()  # (url, sha256 of its bytes) where known


@cache
def load_catalogue() -> tuple[CatalogueEntry, ...]:
    """Return every catalogued release, oldest first."""
    text = (DATA / "releases.json").read_text(encoding="utf-8")
    return tuple(
        CatalogueEntry(
            effective_date=dt.date.fromisoformat(item["effective_date"]),
            file_date=dt.date.fromisoformat(item["file_date"]),
            set_code=item["set_code"],
            set_name=item["set_name"],
            languages=tuple(item["languages"]),
            urls=tuple(item["urls"]),
            sha256=tuple(sorted(item.get("sha256", {}).items())),
        )
        for item in json.loads(text)
    )


def entry_for(date: dt.date) -> CatalogueEntry | None:
    """Return the catalogue entry whose effective date (or file date) is this date."""
    entries = load_catalogue()
    for entry in entries:
        if entry.effective_date == date:
            return entry
    return next((entry for entry in entries if entry.file_date == date), None)


@dataclass(frozen=True, slots=True)
class PolicyFile:
    """One archived copy of a tournament document: where it is kept and its bytes' sha256.

    `file_date` is the date its archive gave it, not always the one the document prints.
    """

    kind: DocKind
    file_date: dt.date
    url: str
    sha256: str


@cache
def policy_files(kind: DocKind) -> tuple[PolicyFile, ...]:
    """Return the archived copies of one kind of tournament document, oldest first."""
    text = (DATA / "policy.json").read_text(encoding="utf-8")
    return tuple(
        PolicyFile(
            DocKind(item["kind"]),
            dt.date.fromisoformat(item["file_date"]),
            item["url"],
            item["sha256"],
        )
        for item in json.loads(text)
        if item["kind"] == kind.value
    )
