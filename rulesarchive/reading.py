"""What the reading commands print (`diff`, `changelog`, `history`), made by the library.

The click commands print these; the quick path (rulesarchive.launch) calls them directly for
a plain command line, so a first `changelog` or `history` costs the library but not click.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple  # the library imports typing anyway

from rulesarchive.defaults import DIFF_FORMATS

if TYPE_CHECKING:
    from rulesarchive.corpus.store import Archive


def diff_output(archive: Archive, old: str, new: str, language: str, output: str) -> str:
    """Return what `diff OLD NEW` prints: the changes between two releases."""
    from rulesarchive.corpus.lookup import find_release
    from rulesarchive.differ.cache import cached_release_diff, diff_folder
    from rulesarchive.differ.report import diff_data

    old_release = find_release(archive, old, language)
    new_release = find_release(archive, new, language)
    folder = diff_folder(archive.root)
    result = cached_release_diff(folder, old_release, new_release, archive.load)
    return _diff_output(diff_data(old_release, new_release, result), output)


class Changelog(NamedTuple):
    """What `changelog` prints of a release in each format, and the release's date."""

    date: str  # YYYY-MM-DD, its folder's name
    texts: dict[str, str]  # by format: text, markdown, json


def changelog_outputs(archive: Archive, reference: str | None, language: str) -> Changelog:
    """Return what `changelog [RELEASE]` prints in each format: a release against the one
    before it."""
    from rulesarchive.corpus.lookup import find_release, previous_release
    from rulesarchive.corpus.store import ArchiveError
    from rulesarchive.differ.cache import cached_release_diff, diff_folder
    from rulesarchive.differ.references import check_language, mark_fixes
    from rulesarchive.differ.report import diff_data

    release = find_release(archive, reference, language)
    before = previous_release(archive, release)
    if before is None:
        raise ArchiveError(f"{release.key} is the oldest {language} release: nothing to compare")
    fixes = check_language(archive, language, until=release).fixes[-1]
    diff = cached_release_diff(diff_folder(archive.root), before, release, archive.load)
    result = mark_fixes(diff, fixes)
    data = diff_data(before, release, result, fixes)
    texts = {output: _diff_output(data, output) for output in DIFF_FORMATS}
    return Changelog(release.effective_date.isoformat(), texts)


def keep_newest_changelogs(archive: Archive, languages: list[str]) -> None:
    """Keep what `changelog` prints of each language's newest release (after an ingest)."""
    from rulesarchive.kept import KeptChangelog, archive_state

    for language in languages:
        state = archive_state(str(archive.root))  # before the work, as a command names it
        changelog = changelog_outputs(archive, None, language)
        KeptChangelog(archive.root, language, changelog.date, state).keep(changelog.texts)


def history_output(
    archive: Archive,
    number: str,
    language: str,
    output: str,
    reference: str | None = None,
    every_release: bool = False,
) -> str:
    """Return what `history RULE` prints: every version of a rule (see rule_index)."""
    from rulesarchive.corpus.lookup import find_release
    from rulesarchive.corpus.present import release_label
    from rulesarchive.differ.report import history_data, history_text
    from rulesarchive.differ.rule_index import rule_history

    release = find_release(archive, reference, language) if reference else None
    data = history_data(rule_history(archive, number.rstrip("."), language, release))
    if output == "json":
        from rulesarchive.quick import json_text

        return json_text(data)
    releases = None
    if every_release:
        releases = [release_label(release) for release in archive.releases(language)]
    return history_text(data, releases)


def _diff_output(data: dict, output: str) -> str:
    from rulesarchive.differ.report import diff_text
    from rulesarchive.quick import json_text

    if output == "json":
        return json_text(data)
    return diff_text(data, markdown=output == "markdown")
