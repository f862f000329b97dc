"""What an ingest prepares for the commands after it: the new releases' diffs, their reference
check, the line index.

Every reader of a release added at the end needs its diff from the release before (its
changelog, the site's rebuild, its rules' histories) and the changelog and the site its
reference check: worked out once here, while the user waits for the ingest anyway, and kept.
Only for a few releases added at the end of their language, and the check only where a kept
check is there to extend; a bulk ingest leaves all that to the first reader, which works the
diffs out on every core.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesarchive.corpus.model import Release
from rulesarchive.corpus.store import Archive
from rulesarchive.differ.cache import cached_release_diff, diff_folder
from rulesarchive.differ.rule_index import update_line_index

MOST_DIFFED = 3  # releases added at the end of a language whose diffs an ingest works out


def prepare_after_ingest(archive: Archive, added: Sequence[Release]) -> list[str]:
    """Cache the diffs of the releases just added at the end, then extend the language's kept
    reference check and the line index.

    Return the languages whose newest changelog is now cheap to make: its diff cached, its
    check kept (when there was a check to extend).
    """
    ready = []
    for language in sorted({release.language for release in added}):
        releases = archive.releases(language)
        if any(r.language == language and r not in releases[-MOST_DIFFED:] for r in added):
            continue  # more than a few, or some before the end: left to the first reader
        for index in range(max(len(releases) - MOST_DIFFED, 1), len(releases)):
            before, release = releases[index - 1], releases[index]
            if release in added or before in added:  # one inserted: its successor's diff too
                cached_release_diff(diff_folder(archive.root), before, release, archive.load)
        from rulesarchive.differ import references  # not for a bulk ingest

        if language == "en":
            extended = references.extend_kept_check(archive, MOST_DIFFED)
        else:
            extended = references.extend_kept_translation_check(archive, language, MOST_DIFFED)
        if extended and len(releases) > 1:
            ready.append(language)
    update_line_index(archive)
    return ready
