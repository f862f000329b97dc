"""Where a release's changelog lists each change: one page, or one page per section when long.

A changelog of many changes (2009-07-11 renumbered the whole rules) is split: its first page
sums up the sections and links to one page per section of rules ("1" for 100-199, ...), plus
one page for the renumbering and one for the glossary.
"""

from __future__ import annotations

from rulesarchive.corpus.model import Release
from rulesarchive.differ.classify import ReleaseDiff
from rulesarchive.differ.kinds import GlossaryKind, Kind
from rulesarchive.site_builder import paths

FOLDED = (Kind.TYPOGRAPHY, Kind.TRUNCATION, Kind.UNCHANGED)
GLOSSARY_FOLDED = (GlossaryKind.TYPOGRAPHY, GlossaryKind.TRUNCATION, GlossaryKind.UNCHANGED)
SPLIT_AT = 200  # changes shown in full beyond which a changelog is split by section


def is_split(diff: ReleaseDiff | None) -> bool:
    """Tell whether a release's changelog is split into one page per section."""
    if diff is None:
        return False
    return sum(change.kind not in FOLDED for change in diff.changes) > SPLIT_AT


def part_of(number: str) -> str:
    """Return the part (section) of the changelog a rule number is listed in."""
    return number[:1]


def part_page(release: Release, part: str) -> str:
    """Return the page of one part of a split changelog ('1'..'9', 'renumbering', 'glossary')."""
    return paths.release_page(release).replace("/index.html", f"/{part}/index.html")


def change_page(release: Release, diff: ReleaseDiff | None, number: str) -> str:
    """Return the page and anchor where a release's changelog lists a rule's change."""
    page = part_page(release, part_of(number)) if is_split(diff) else paths.release_page(release)
    return f"{page}#rule-{number}"
