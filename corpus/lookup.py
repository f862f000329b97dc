"""Find a release from what a user types: a date, a file date or a set code."""

from __future__ import annotations

import datetime as dt
import logging
import re
from typing import TYPE_CHECKING

from rulesarchive.corpus.model import Release
from rulesarchive.corpus.store import Archive, ArchiveError, UnknownRelease, no_releases
from rulesarchive.system.lazy import lazy_module

# Read only for a date that is no release's effective date (a catalogue file date, or a day
# between releases): a command naming a release by its date or set code does not load it.
if TYPE_CHECKING:
    from rulesarchive.corpus import catalogue
else:
    catalogue = lazy_module("rulesarchive.corpus.catalogue")

log = logging.getLogger(__name__)


def find_release(archive: Archive, reference: str | None, language: str = "en") -> Release:
    """Return the release named by effective date, file date or set code; newest if None.

    A date between two releases names the release in force that day (with a warning).
    """
    releases = _stored(archive, language)
    if reference is None:
        return releases[-1]
    try:
        date = dt.date.fromisoformat(reference)
    except ValueError:
        if re.fullmatch(r"\d{4}-\d{1,2}-\d{1,2}", reference):
            raise ArchiveError(f"{reference} is not a valid date (give YYYY-MM-DD)") from None
        matches = [release for release in releases if release.set_code.upper() == reference.upper()]
        if matches:
            return matches[-1]
        raise UnknownRelease(f"no {language} release with set code {reference!r}") from None
    for release in releases:
        if release.effective_date == date:
            return release
    entry = catalogue.entry_for(date)
    if entry is not None:
        for release in releases:
            if release.effective_date == entry.effective_date:
                return release
    release = release_in_force(archive, date, language)
    log.warning(
        "no %s release effective %s: taking the one in force that day, %s (%s)",
        language,
        reference,
        release.effective_date,
        release.set_name or release.set_code,
    )
    return release


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
