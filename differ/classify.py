"""Say what kind of change each aligned pair of rules is, and gather a release's changes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import attrgetter

from rulesarchive.corpus.model import DocKind, Document, Rule
from rulesarchive.corpus.numbers import container
from rulesarchive.differ.align import Evidence, Pair, align_rules, renumbering
from rulesarchive.differ.changes import Change
from rulesarchive.differ.glossary import GlossaryChange, diff_glossaries
from rulesarchive.differ.headings import (
    ChapterRules,
    chapter_moves,
    chapters_by_title,
    diff_headings,
    heading_moves,
)
from rulesarchive.differ.kinds import GlossaryKind, Kind
from rulesarchive.differ.sections import (
    diff_paragraphs,
    headings,
    in_order,
    pair_by_section,
    pair_in_place,
    renumbered_units,
    section_moves,
    units,
)
from rulesarchive.differ.splits import Split, find_splits
from rulesarchive.differ.sweeps import Edited, Sweep, edit_key, find_sweeps, is_swept
from rulesarchive.differ.texts import (
    is_truncation,
    only_references,
    same_words,
    typography_key,
    wording_phrases,
    words_key,
)
from rulesarchive.differ.words import Diff, Phrase


@dataclass(frozen=True, slots=True)
class ReleaseDiff:
    """Every rule change between two documents, with the renumbering map and sweeps.

    Rules identical under the same number are only counted (`unchanged`); a rule that kept its
    text under a new number is a change of kind "unchanged" that has `moved`.
    """

    changes: tuple[Change, ...]
    renumbering: tuple[tuple[str, str], ...]
    sweeps: tuple[Sweep, ...] = field(default=())
    unchanged: int = 0
    splits: tuple[Split, ...] = ()
    merges: tuple[Split, ...] = ()
    glossary: tuple[GlossaryChange, ...] = ()
    headings: tuple[Change, ...] = ()  # sections and chapters added, removed, renamed, moved


def diff_documents(old: Document, new: Document) -> ReleaseDiff:
    """Align two documents and classify every rule; sweeps are found across the whole release.

    A tournament document's units are its sections' texts and parts, its headings their
    titles (see differ.sections): they are aligned, classified and swept as rules are.
    """
    old_units, new_units = units(old), units(new)
    old_headings, new_headings = headings(old), headings(new)
    cut_copies = new.kind == DocKind.CR
    moved: set[str] = set()
    went = {} if cut_copies else section_moves((old_headings, new_headings))
    if not cut_copies:  # what a section whose number moved holds is aligned, however it reads
        old_moved, new_moved = renumbered_units(old_units, new_units, went)
        moved = {unit.number for unit in (*old_moved, *new_moved)}
    old_rules, new_rules = set_aside_identical(
        [unit for unit in old_units if unit.number not in moved] if moved else old_units,
        [unit for unit in new_units if unit.number not in moved] if moved else new_units,
    )
    old_rules, new_rules, retyped = _set_aside_retyped(old_rules, new_rules)
    if moved:  # back in the documents' order
        old_kept = moved | {unit.number for unit in old_rules}
        new_kept = moved | {unit.number for unit in new_rules}
        old_rules = [unit for unit in old_units if unit.number in old_kept]
        new_rules = [unit for unit in new_units if unit.number in new_kept]
    chapters = chapters_by_title(old_headings, new_headings)
    by_section: list[Pair] = []
    if not cut_copies:  # a section's text and parts go with it, before any other pairing
        sectioned = pair_by_section(old_rules, new_rules, went)
        old_rules, new_rules, by_section = sectioned
    pairs = align_rules(old_rules, new_rules, (old_units, new_units), chapters)
    if not cut_copies:  # ... and before any split is looked for
        pairs = in_order([*pairs, *by_section], new_units)
        sections = diff_headings(old_headings, new_headings, renumbering(pairs))
        pairs = pair_in_place(pairs, sections)
    splits: list[Split] = []
    merges: list[Split] = []
    if any(pair.old is None or pair.new is None for pair in pairs):
        evidence = Evidence(old_units, new_units)
        pairs, splits, merges = find_splits(pairs, evidence)
    moves = renumbering(pairs)
    numbers = list(map(attrgetter("number"), old_units))
    number_map = dict(zip(numbers, numbers, strict=True)) | dict(moves)
    heading_changes = diff_headings(
        old_headings,
        new_headings,
        moves,
        _chapter_rules(old_units, pairs) if cut_copies else None,
    )
    number_map |= chapter_moves(moves) | dict(heading_moves(heading_changes))
    changes = [classify_pair(pair, number_map, cut_copies) for pair in pairs]
    glossary = diff_glossaries(old.glossary, new.glossary, number_map)
    sweeps = find_sweeps(_edited(changes, glossary))
    if sweeps:
        swept = {edit_key(Phrase(sweep.old, sweep.new)) for sweep in sweeps}
        changes = [_as_sweep(change, swept) for change in changes]
        glossary = [_as_glossary_sweep(change, swept) for change in glossary]
    if retyped:
        changes = _in_rule_order(changes, retyped, new_units)
    unchanged = len(new_units) - len(new_rules) - len(retyped)
    return ReleaseDiff(
        tuple(changes),
        tuple(moves),
        tuple(sweeps),
        unchanged,
        tuple(splits),
        tuple(merges),
        tuple(glossary),
        tuple(heading_changes),
    )


_EVERY_FIELD = attrgetter("number", "text", "examples", "original", "original_examples")


def set_aside_identical(old: Sequence[Rule], new: Sequence[Rule]) -> tuple[list[Rule], list[Rule]]:
    """Drop the rules found in both releases under the same number, to the letter.

    Most rules of a release are untouched; finding them with set operations, not rule by rule,
    is what makes a diff of neighbouring releases as quick as a plain text diff. Aligning the
    rest gives the same pairs as aligning everything: step 1 of align_rules pairs these first.
    """
    (old_fields, old_set), (new_fields, new_set) = _fields(old), _fields(new)
    if len(old_set) != len(old_fields) or len(new_set) != len(new_fields):
        return list(old), list(new)  # a rule printed twice: let the aligner pair the copies
    both = old_set & new_set
    return (
        [rule for rule, fields in zip(old, old_fields, strict=True) if fields not in both],
        [rule for rule, fields in zip(new, new_fields, strict=True) if fields not in both],
    )


_Fields = tuple[str, str, tuple[str, ...], str, tuple[str, ...]]
# Each release of a chain is compared with either neighbour: its rules' fields are kept for the
# last few releases, by identity (as the aligner keeps their word counts).
_FIELDS: dict[int, tuple[Sequence[Rule], list[_Fields], set[_Fields]]] = {}
_KEPT_FIELDS = 4


def _fields(rules: Sequence[Rule]) -> tuple[list[_Fields], set[_Fields]]:
    """Return every field of each rule, in order and as a set."""
    kept = _FIELDS.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1], kept[2]
    fields = list(map(_EVERY_FIELD, rules))
    kept = (rules, fields, set(fields))  # the rules are kept: their id stays theirs
    if len(_FIELDS) >= _KEPT_FIELDS:
        del _FIELDS[next(iter(_FIELDS))]
    _FIELDS[id(rules)] = kept
    return kept[1], kept[2]


_SAME_WORDS = attrgetter("number", "text", "examples")


def _set_aside_retyped(
    old: list[Rule], new: list[Rule]
) -> tuple[list[Rule], list[Rule], list[Change]]:
    """Take out the rules whose number and words are unchanged but whose printing changed.

    A release that changes its typography (2019-01-25 flattened every quote and dash) has a
    thousand of these: they need no aligning and no word diff, only their kind.
    """
    old_by_words = dict(zip(map(_SAME_WORDS, old), old, strict=True))
    if len(old_by_words) != len(old):
        return old, new, []
    retyped = []
    rest_new = []
    take = old_by_words.pop
    for rule, words in zip(new, map(_SAME_WORDS, new), strict=True):
        before = take(words, None)
        if before is None:
            rest_new.append(rule)
        else:  # not identical (set aside before), so the printing differs: typography
            retyped.append(
                Change(
                    Kind.TYPOGRAPHY,
                    before.number,
                    rule.number,
                    before.text,
                    rule.text,
                    (),
                    (),
                    before.examples,
                    rule.examples,
                )
            )
    if not retyped:
        return old, new, []
    return list(old_by_words.values()), rest_new, retyped


def _in_rule_order(
    aligned: list[Change], retyped: list[Change], rules: Sequence[Rule]
) -> list[Change]:
    """Merge the retyped changes into the aligned ones (both in the new release's order)."""
    position = dict(zip(map(attrgetter("number"), rules), range(len(rules)), strict=True))
    merged: list[Change] = []
    waiting = iter(retyped)
    upcoming = next(waiting, None)
    for change in aligned:
        if change.new_number is not None:  # a removed rule stays after its predecessor
            here = position[change.new_number]
            while upcoming is not None and position[upcoming.new_number] < here:
                merged.append(upcoming)
                upcoming = next(waiting, None)
        merged.append(change)
    if upcoming is not None:
        merged.append(upcoming)
        merged.extend(waiting)
    return merged


def classify_pair(
    pair: Pair, number_map: dict[str, str] | None = None, cut_copies: bool = True
) -> Change:
    """Classify one aligned pair (no sweep detection: that needs the whole release).

    `cut_copies`: a text may be a cut-short copy of the other (a scraped CR rule); a
    tournament document's paragraphs, list items and penalty tables end without a full stop
    and are printed whole, so a text ending sooner is worded otherwise.
    """
    old, new = pair.old, pair.new
    if old is None or new is None:
        rule = new or old
        assert rule is not None
        kind = Kind.ADDED if old is None else Kind.REMOVED
        text = (rule.text, "") if kind == Kind.REMOVED else ("", rule.text)
        examples = (rule.examples, ()) if kind == Kind.REMOVED else ((), rule.examples)
        return Change(
            kind,
            old.number if old else None,
            new.number if new else None,
            text[0],
            text[1],
            old_examples=examples[0],
            new_examples=examples[1],
        )
    if old.text == new.text and old.examples == new.examples:
        return Change(
            _same_words(old, new),
            old.number,
            new.number,
            old.text,
            new.text,
            old_examples=old.examples,
            new_examples=new.examples,
        )
    # Only a change in wording needs the word diff (typography and cut copies are listed).
    cut = cut_copies and is_truncation(typography_key(old.text), typography_key(new.text))
    worded = words_key(old.text) != words_key(new.text) and not cut
    diff = diff_paragraphs(old.text, new.text) if worded else ()
    kind = compare_texts(old, new, number_map or {}, diff, cut_copies)
    return Change(
        kind,
        old.number,
        new.number,
        old.text,
        new.text,
        phrases=wording_phrases(diff) if diff else (),
        diff=diff,
        old_examples=old.examples,
        new_examples=new.examples,
    )


def compare_texts(
    old: Rule, new: Rule, number_map: dict[str, str], diff: Diff, cut_copies: bool = True
) -> Kind:
    """Return the kind of change from one version of a rule to the next (diff: of their
    texts; `cut_copies`: see classify_pair)."""
    if old.text == new.text and old.examples == new.examples:
        return _same_words(old, new)
    if old.text == new.text or words_key(old.text) == words_key(new.text):
        return Kind.TYPOGRAPHY if same_words(old.examples, new.examples) else Kind.EXAMPLE
    if cut_copies and is_truncation(typography_key(old.text), typography_key(new.text)):
        return Kind.TRUNCATION
    if diff and not wording_phrases(diff):  # 2008-07-15's '409.1f?h' (a lost dash) -> '409.1f-h'
        return Kind.TYPOGRAPHY if same_words(old.examples, new.examples) else Kind.EXAMPLE
    if only_references(old.text, new.text, number_map):
        return Kind.REFERENCE
    return Kind.SUBSTANTIVE


def _same_words(old: Rule, new: Rule) -> Kind:
    """Kind of a pair whose normalised texts are equal: did the printed typography change?"""
    same_print = (
        old.printed_text == new.printed_text and old.printed_examples == new.printed_examples
    )
    return Kind.UNCHANGED if same_print else Kind.TYPOGRAPHY


def _chapter_rules(old: Sequence[Rule], pairs: Sequence[Pair]) -> ChapterRules:
    """How many rules each old chapter held, and how many of them stayed in it (under their
    number or another of the chapter; a rule no pair names was set aside as the same)."""
    left = {
        pair.old.number
        for pair in pairs
        if pair.old is not None
        and (pair.new is None or container(pair.new.number) != container(pair.old.number))
    }
    stayed = [rule.number for rule in old if rule.number not in left]
    return ChapterRules(
        Counter(container(rule.number) for rule in old), Counter(map(container, stayed))
    )


def _edited(changes: Sequence[Change], glossary: Sequence[GlossaryChange]) -> list[Edited]:
    """The rules and glossary entries whose wording changed, where sweeps are looked for."""
    edited = [
        Edited(change.new_number or "", change.diff)
        for change in changes
        if change.kind == Kind.SUBSTANTIVE
    ]
    edited += [
        Edited(change.new_term or "", change.diff, glossary=True)
        for change in glossary
        if change.kind == GlossaryKind.SUBSTANTIVE
    ]
    return edited


def _as_sweep(change: Change, swept: set[tuple[str, str]]) -> Change:
    """A change whose every edit belongs to a sweep is a sweep; one with others is not."""
    if change.kind != Kind.SUBSTANTIVE or not is_swept(change.diff, swept):
        return change
    return change._replace(kind=Kind.SWEEP)


def _as_glossary_sweep(change: GlossaryChange, swept: set[tuple[str, str]]) -> GlossaryChange:
    """The same for a glossary entry."""
    if change.kind != GlossaryKind.SUBSTANTIVE or not is_swept(change.diff, swept):
        return change
    return change._replace(kind=GlossaryKind.SWEEP)
