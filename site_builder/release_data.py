"""Each release's rules as data for the compare page and for machines: one file per release.

A release is written whole when it is the first of its year (a keyframe) and otherwise as
what changed since the release before: the order of its numbers, the rules that differ from
the previous release's rule of the same number (and what that release printed under those
numbers and the ones that went), and the same for the glossary. Twenty-eight
keyframes and small steps weigh a fifth of 150 whole copies. The file is a script (so the
compare page loads it from file:// too) whose second line is the JSON.
"""

from __future__ import annotations

import json

from rulesarchive.corpus.model import Document, Release, Rule
from rulesarchive.differ.language import Language
from rulesarchive.differ.release_report import release_label
from rulesarchive.site_builder import paths

PREFIX = "window.RULESARCHIVE_RELEASES=window.RULESARCHIVE_RELEASES||{};"


def data_path(release: Release) -> str:
    """Return the data file of a release."""
    folder = paths.data_folder(release.kind, release.language)
    return f"{folder}/{release.effective_date.isoformat()}.js"


def moves_path(data: Language) -> str:
    """Return the file of a kind's renumberings in a language (see `moves_script`)."""
    return f"{paths.data_folder(data.releases[0].kind, data.language)}/moves.js"


# Years a whole release covers with its steps: a yearly one made the site 11 MB bigger; a
# release is at most three years of steps (about 15 small files) from the one written whole.
KEYFRAME_YEARS = 3


def is_keyframe(release: Release, previous: Release | None) -> bool:
    """Tell whether a release is written whole: the first of the archive, or of its three
    years (1998-2000, 2001-2003, ...)."""
    return (
        previous is None
        or previous.effective_date.year // KEYFRAME_YEARS
        != release.effective_date.year // KEYFRAME_YEARS
    )


def release_script(
    release: Release, document: Document, previous: tuple[Release, Document] | None
) -> str:
    """Return a release's data file: whole, or as the steps from the release before."""
    data: dict[str, object] = {**release_label(release), "base": None}
    # By number, the last rule printed under it (at the place of the first).
    rules = {rule.number: rule for rule in document.rules}
    glossary = {entry.term: entry.text for entry in document.glossary}
    if previous is None or is_keyframe(release, previous[0]):
        data["rules"] = [[number, rule.text, list(rule.examples)] for number, rule in rules.items()]
        data["glossary"] = [[term, text] for term, text in glossary.items()]
    else:
        before_release, before = previous
        old_rules = {rule.number: rule for rule in before.rules}
        old_glossary = {entry.term: entry.text for entry in before.glossary}
        data["base"] = before_release.effective_date.isoformat()
        data["numbers"] = list(rules)
        data["changed"] = changed = {
            number: [rule.text, list(rule.examples)]
            for number, rule in rules.items()
            if not _same_words(old_rules.get(number), rule)
        }
        # What the release before printed under the numbers that changed or went: with it,
        # comparing a release with the one before needs this file alone, not its keyframe.
        data["was"] = {
            number: [rule.text, list(rule.examples)]
            for number, rule in old_rules.items()
            if number in changed or number not in rules
        }
        data["terms"] = list(glossary)
        data["glossary_changed"] = {
            term: text for term, text in glossary.items() if old_glossary.get(term) != text
        }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    key = json.dumps(release.effective_date.isoformat())
    return f"{PREFIX}window.RULESARCHIVE_RELEASES[{key}]=\n{text};\n"


def _same_words(old: Rule | None, new: Rule) -> bool:
    """Tell whether a rule's text and examples are those of the rule before (what a step keeps)."""
    return old is not None and old.text == new.text and old.examples == new.examples


def moves_script(data: Language) -> str:
    """Each release's alignment with the one before, as the compare page follows rules.

    For each release, the rules of the release before that did not stay under their number:
    `[old, new]` for a rule renumbered, `[old, null]` for a rule removed.
    """
    steps: dict[str, list[list[str | None]]] = {}
    for release, diff in zip(data.releases, data.diffs, strict=True):
        if diff is None:
            continue
        steps[release.effective_date.isoformat()] = [
            [change.old_number, change.new_number]
            for change in diff.changes
            if change.old_number and change.old_number != change.new_number
        ]
    key = json.dumps(data.language)
    body = json.dumps(steps, separators=(",", ":"))
    prefix = "window.RULESARCHIVE_MOVES=window.RULESARCHIVE_MOVES||{};"
    return f"{prefix}window.RULESARCHIVE_MOVES[{key}]={body};"
