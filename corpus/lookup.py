"""Find a release from what a user types: a date, a file date or a set code."""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rulesarchive.corpus.model import Release
from rulesarchive.corpus.store import (
    Archive,
    ArchiveError,
    DamagedRelease,
    UnknownRelease,
    no_releases,
)
from rulesarchive.system.lazy import lazy_module
from rulesarchive.system.once import say_once

# Read only for a date that is no release's effective date (a catalogue file date, or a day
# between releases): a command naming a release by its date or set code does not load it.
if TYPE_CHECKING:
    from rulesarchive.corpus import catalogue
else:
    catalogue = lazy_module("rulesarchive.corpus.catalogue")

log = logging.getLogger(__name__)
_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}")  # what reads as a date, valid or not


def find_release(archive: Archive, reference: str | None, language: str = "en") -> Release:
    """Return the release named by effective date, file date or set code; newest if None.

    A date between two releases names the release in force that day (with a warning). A
    damaged release named so is an error (DamagedRelease): another release's text in its
    place would mislead whoever cites it. Asked for none, the newest sound one answers.
    """
    return find_releases(archive, [reference], language)[0]


def find_releases(
    archive: Archive, references: Sequence[str | None], language: str = "en"
) -> list[Release]:
    """Return the releases named, each as `find_release` does; a damaged one named is an
    error before any is looked up in the listing, which would warn of it first."""
    dates = [_named_date(archive, reference, language) for reference in references]
    return [
        _looked_up(archive, reference, date, language)
        for reference, date in zip(references, dates, strict=True)
    ]


def _named_date(archive: Archive, reference: str | None, language: str) -> dt.date | None:
    """Return the date a reference names (None for a set code, or for none); raise
    DamagedRelease if the release it names is damaged."""
    if reference is None:
        return None
    if not _DATE.fullmatch(reference):  # a set code (Python takes 20241108 for a date too)
        if problem := archive.set_code_damage(language, reference):
            raise DamagedRelease(f"{problem}: the release asked for is damaged")
        return None
    try:
        date = dt.date.fromisoformat(reference)
    except ValueError:
        raise ArchiveError(f"{reference} is not a valid date (give YYYY-MM-DD)") from None
    _refuse_damaged(archive, date, language)
    return date


def _looked_up(
    archive: Archive, reference: str | None, date: dt.date | None, language: str
) -> Release:
    """The release a reference names (`date`: the date it names, if any), from the listing."""
    if reference is None:
        return _stored(archive, language)[-1]
    if date is None:
        return archive.name(_by_set_code(archive, reference, language))
    return archive.name(_by_date(archive, date, language))


def _by_set_code(archive: Archive, code: str, language: str) -> Release:
    matches = [
        release
        for release in _stored(archive, language)
        if release.set_code.upper() == code.upper()
    ]
    if not matches:
        raise UnknownRelease(f"no {language} release with set code {code!r}")
    return matches[-1]


def _by_date(archive: Archive, date: dt.date, language: str) -> Release:
    releases = _stored(archive, language)
    for release in releases:
        if release.effective_date == date:
            return release
    entry = catalogue.entry_for(date)
    if entry is not None:
        for release in releases:
            if release.effective_date == entry.effective_date:
                return release
    release = release_in_force(archive, date, language)
    say_once(
        log,
        ("in force", archive.root, archive.kind, language, date, release.effective_date),
        "no %s release effective %s: taking the one in force that day, %s (%s)",
        language,
        date,
        release.effective_date,
        release.set_name or release.set_code,
    )
    return release


def _refuse_damaged(archive: Archive, date: dt.date, language: str) -> None:
    """Raise DamagedRelease if the release a date names (of that date, of that file date, in
    force that day) is stored but damaged; told by folder names, before any listing says it."""
    dates = archive.folder_dates(language)
    if date not in dates:  # a file date names its release (the catalogue read only then)
        entry = catalogue.entry_for(date)
        if entry is not None and entry.effective_date in dates:
            date = entry.effective_date
    earlier = [stored for stored in dates if stored <= date]
    if earlier and (problem := archive.damage(language, earlier[-1])):
        raise DamagedRelease(f"{problem}: the release asked for is damaged")


def previous_release(archive: Archive, release: Release) -> Release | None:
    """Return the release of the same language just before this one, or None."""
    earlier = [
        other
        for other in archive.releases(release.language)
        if other.effective_date < release.effective_date
    ]
    return earlier[-1] if earlier else None


def release_in_force(archive: Archive, date: dt.date, language: str = "en") -> Release:
    """Return the release in force on a date: the newest effective on or before it."""
    releases = _stored(archive, language)
    in_force = [release for release in releases if release.effective_date <= date]
    if not in_force:
        raise UnknownRelease(
            f"no {language} release effective {date}: the first is "
            f"{releases[0].effective_date} ({releases[0].set_name or releases[0].set_code})"
        )
    return in_force[-1]


def _stored(archive: Archive, language: str) -> list[Release]:
    releases = archive.releases(language)
    if not releases:
        raise UnknownRelease(no_releases(archive.root, language))
    return releases
