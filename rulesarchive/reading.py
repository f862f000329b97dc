"""What the reading commands print (`diff`, `changelog`, `history`), made by the library.

The click commands print these; the quick path (rulesarchive.launch) calls them directly for
a plain command line, so a first `changelog` or `history` costs the library but not click.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: the quick path never imports typing
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


def changelog_output(archive: Archive, reference: str | None, language: str, output: str) -> str:
    """Return what `changelog [RELEASE]` prints: a release against the one before it."""
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
    return _diff_output(diff_data(before, release, result, fixes), output)


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
