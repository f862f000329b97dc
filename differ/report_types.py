"""The JSON forms the reports print (`--format json`, the API's `to_json()`), as TypedDicts.

Those of diffs, histories, translation reports and comparisons are the shipped JSON Schemas
(exports/schemas) written for a type checker; tests hold the two to the same keys.
(No `from __future__ import annotations`: the key sets a TypedDict keeps at run time,
`__required_keys__`, are read from its annotations unevaluated otherwise.)
"""

from typing import NotRequired, TypedDict

from rulesarchive.corpus.model import Flag
from rulesarchive.differ.kinds import (
    GlossaryKind,
    Kind,
    ParagraphKind,
    Place,
    ProblemKind,
    ShiftLevel,
    TranslationStatus,
)


class ReleaseLabel(TypedDict):
    """The fields that name a release in every report."""

    language: str
    effective_date: str
    set_code: str
    set_name: str


class _StoredReleaseJson(ReleaseLabel):
    flags: list[Flag]
    source: str
    sha256: str
    encoding: str


class RulesReleaseJson(_StoredReleaseJson):
    """A release of the CR as `releases --format json` prints it."""

    rule_count: int
    glossary_count: int


class DocReleaseJson(_StoredReleaseJson):
    """A release of a tournament document (`doc`) as `releases --format json` prints it."""

    doc: str
    section_count: int


# One release as `releases --format json` prints it.
ReleaseJson = RulesReleaseJson | DocReleaseJson


class RuleViewJson(ReleaseLabel):
    """One rule as `rule NUMBER --format json` prints it."""

    number: str
    text: str
    examples: list[str]
    normalised_text: str
    normalised_examples: list[str]


class HeadingJson(TypedDict):
    """A heading of a release (export.schema.json, document.schema.json)."""

    number: str
    title: str
    id: NotRequired[str]  # the heading's permanent id (a CR's)


class RuleJson(TypedDict):
    """A rule of a release with its permanent id (export.schema.json, document.schema.json)."""

    number: str
    id: str
    text: str
    examples: list[str]
    normalised_text: NotRequired[str]
    normalised_examples: NotRequired[list[str]]
    english_id: NotRequired[str]  # a translated rule's English rule


class EntryJson(TypedDict):
    """A glossary entry of a release (export.schema.json, document.schema.json)."""

    term: str
    text: str
    normalised_text: NotRequired[str]
    id: NotRequired[str]  # the term's permanent id (not of an entry that does not read as one)


class PhraseJson(TypedDict):
    """One changed phrase: what it said and what it says now."""

    old: str
    new: str


class ParagraphJson(TypedDict):
    """A paragraph of a tournament section added, removed or reworded."""

    kind: ParagraphKind
    old: str
    new: str
    phrases: list[PhraseJson]


class ChangeJson(TypedDict):
    """A rule's (or a heading's) change in a diff; a tournament section's lists paragraphs."""

    kind: Kind
    heading: bool
    old_number: str | None
    new_number: str | None
    moved: bool
    old_text: str
    new_text: str
    phrases: list[PhraseJson]
    old_examples: list[str]
    new_examples: list[str]
    example_phrases: list[PhraseJson]
    fixes: list[str]
    paragraphs: NotRequired[list[ParagraphJson]]


class MoveJson(TypedDict):
    """A number that moved."""

    old: str
    new: str


class SweepJson(TypedDict):
    """One edit made across many rules and glossary entries."""

    old: str
    new: str
    rules: list[str]
    glossary: list[str]


class SplitJson(TypedDict):
    """Rules split (one old to many new) or merged (many to one)."""

    old: list[str]
    new: list[str]


class GlossaryChangeJson(TypedDict):
    """A glossary entry's change in a diff."""

    kind: GlossaryKind
    old_term: str | None
    new_term: str | None
    old_text: str
    new_text: str
    phrases: list[PhraseJson]
    fixes: list[str]


class DiffJson(TypedDict):
    """What `diff` and `changelog` print (exports/schemas/diff.schema.json); a tournament
    document's names its kind (`doc`)."""

    doc: NotRequired[str]
    old: ReleaseLabel
    new: ReleaseLabel
    counts: dict[str, int]
    changes: list[ChangeJson]
    renumbering: list[MoveJson]
    sweeps: list[SweepJson]
    splits: list[SplitJson]
    merges: list[SplitJson]
    glossary: list[GlossaryChangeJson]


class VersionJson(TypedDict):
    """One version of a rule in its history."""

    effective_date: str | None
    until: str | None
    releases: int
    set_code: str
    set_name: str
    number: str
    text: str
    examples: list[str]
    kind: Kind
    phrases: list[PhraseJson]
    example_phrases: list[PhraseJson]
    compared_with: str | None
    split_from: str | None
    merged_from: list[str]
    paragraphs: NotRequired[list[ParagraphJson]]


class HistoryJson(TypedDict):
    """What `history` prints (exports/schemas/history.schema.json)."""

    doc: NotRequired[str]
    rule: str
    numbers: list[str]
    versions: list[VersionJson]


class TranslatedRuleJson(TypedDict):
    """A translated rule's status against the English it translates."""

    number: str
    status: TranslationStatus
    stale_since: str | None
    english_number: str | None
    problems: list[str]
    english_base_number: str | None


class ShiftJson(TypedDict):
    """Translated numbers that translate English ones of other numbers."""

    level: ShiftLevel
    translated: list[str]
    english: list[str]


class TranslationJson(TypedDict):
    """What `translations LANG` prints (exports/schemas/translation.schema.json)."""

    language: str
    release: ReleaseLabel
    base_release: ReleaseLabel | None
    printed_date_release: ReleaseLabel | None
    counts: dict[str, int]
    rules: list[TranslatedRuleJson]
    shifts: list[ShiftJson]


# "in" names a key no class body can: these are written in the functional form.
ReferenceJson = TypedDict("ReferenceJson", {"rule": str, "cites": str, "in": Place})
ProblemJson = TypedDict(
    "ProblemJson",
    {
        "rule": str,
        "cites": str,
        "kind": ProblemKind,
        "suggestion": str | None,
        "guess": bool,
        "since": str,
        "in": Place,
    },
)


class LivedProblemJson(ProblemJson):
    """A problem with the release that fixed it (None: still open)."""

    fixed: str | None


class CheckJson(TypedDict):
    """What `check [RELEASE]` prints."""

    language: str
    release: ReleaseLabel
    references: list[ReferenceJson]
    problems: list[ProblemJson]


class CheckHistoryJson(TypedDict):
    """What `check [RELEASE] --all` prints."""

    language: str
    releases: list[ReleaseLabel]
    references: int
    problems: list[LivedProblemJson]


class FollowJson(TypedDict):
    """One translation's answer to one English change."""

    language: str
    release: ReleaseLabel | None
    base_release: ReleaseLabel | None
    english_releases_later: int | None
    status: TranslationStatus | None
    reworded: bool | None
    first_release: bool


class EnglishChangeJson(TypedDict):
    """An English change of the rule, and who followed it."""

    release: ReleaseLabel
    number: str
    kind: Kind
    follows: list[FollowJson]


class RenderingJson(TypedDict):
    """One translated release against the English rule."""

    release: ReleaseLabel
    base_release: ReleaseLabel
    english_number: str | None
    number: str | None
    status: TranslationStatus | None
    stale_since: str | None
    translates: str | None
    reworded: bool | None


class TrackJson(TypedDict):
    """One language's renderings of the rule, release by release."""

    language: str
    releases: list[RenderingJson]


class CompareJson(TypedDict):
    """What `compare RULE` prints (exports/schemas/compare.schema.json)."""

    rule: str
    release: ReleaseLabel
    numbers: list[str]
    changes: list[EnglishChangeJson]
    translations: list[TrackJson]
