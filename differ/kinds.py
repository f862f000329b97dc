"""The kinds and statuses the differ's results carry, one enum each (each member its own string:
JSON and the templates print them as they are)."""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    """The kinds of change of a rule, in the order changelogs list them."""

    ADDED = "added"
    REMOVED = "removed"
    SUBSTANTIVE = "substantive"
    SWEEP = "sweep"
    REFERENCE = "reference"
    EXAMPLE = "example"
    TYPOGRAPHY = "typography"
    TRUNCATION = "truncation"
    UNCHANGED = "unchanged"


# What a changelog's `--kind` asks for beyond the kinds of change: the renumbering, with the
# splits and merges.
RENUMBERING = "renumbering"

# Kinds that change what a rule says (a translation of it may be outdated).
WORDING = frozenset({Kind.SUBSTANTIVE, Kind.SWEEP, Kind.REFERENCE, Kind.EXAMPLE, Kind.REMOVED})


class GlossaryKind(StrEnum):
    """What happened to a glossary entry between two releases."""

    ADDED = "added"
    REMOVED = "removed"
    RENAMED = "renamed"
    SUBSTANTIVE = "substantive"
    SWEEP = "sweep"
    REFERENCE = "reference"
    TYPOGRAPHY = "typography"
    TRUNCATION = "truncation"
    UNCHANGED = "unchanged"


class ParagraphKind(StrEnum):
    """What happened to one paragraph of a tournament document's section."""

    ADDED = "added"
    REMOVED = "removed"
    CHANGED = "changed"


class ProblemKind(StrEnum):
    """What is wrong with a citation (see differ.references)."""

    DANGLING = "dangling"
    STALE = "stale"
    SELF = "self"


class Place(StrEnum):
    """Where a citation stands."""

    TEXT = "text"
    EXAMPLE = "example"
    GLOSSARY = "glossary"


class TranslationStatus(StrEnum):
    """A translated rule against the English it translates, in the order reports count them."""

    CURRENT = "current"
    STALE = "stale"
    MISSING = "missing"
    EXTRA = "extra"


class ShiftLevel(StrEnum):
    """What a shift of translated numbers moves: a run of chapters, or rules within one."""

    CHAPTER = "chapter"
    RULE = "rule"
