"""The library: the one service every view calls (the command line, the Python API, the site
build, the exports and what an ingest prepares).

It reads releases from the archive (corpus.store), hands documents to the differ (pure: values
in, results out), keeps what the differ works out in the derived store (corpus.derived) and
works out many diffs on every core: releases, diffs, changelogs, lines of descent and rule
histories, reference checks and translation reports are answered here, and only here.
"""

from __future__ import annotations

import contextlib
import copy
import datetime as dt
import hashlib
import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rulesarchive.corpus.derived import DerivedData, Kind, collection_paused, entry_key
from rulesarchive.corpus.lookup import find_releases, previous_release
from rulesarchive.corpus.model import (
    DocKind,
    Document,
    Flag,
    GlossaryEntry,
    Heading,
    Lines,
    Release,
    Rule,
    Section,
)
from rulesarchive.corpus.numbers import PART, nearest_numbers, typed_number
from rulesarchive.corpus.store import (
    Archive,
    ArchiveError,
    UnknownRelease,
    UnknownRule,
    no_releases,
)
from rulesarchive.diffs import Diffs
from rulesarchive.system.lazy import lazy_module

if TYPE_CHECKING:
    from rulesarchive.differ.classify import ReleaseDiff
    from rulesarchive.differ.history import History
    from rulesarchive.differ.language import GlossaryLine, HeadingLine, Language
    from rulesarchive.differ.lineage import Line, Trace
    from rulesarchive.differ.references import (
        LanguageCheck,
        Problem,
        Reference,
        ReleaseCheck,
        Snapshot,
    )
    from rulesarchive.differ.tournament_references import InForce
    from rulesarchive.differ.translation_align import TranslationAlignment
    from rulesarchive.differ.translation_compare import RuleTranslations, Track
    from rulesarchive.differ.translations import TranslationReport

# The differ's heavier parts, loaded by the first method that uses them (see system.lazy).
if TYPE_CHECKING:  # the modules themselves, for their types
    from rulesarchive import checks
    from rulesarchive import lines as kept_lines
    from rulesarchive.corpus import ids
    from rulesarchive.differ import glossary as glossary_terms
    from rulesarchive.differ import history as histories
    from rulesarchive.differ import (
        identity,
        lineage,
        references,
        sections,
        tournament_references,
        translation_align,
        translation_compare,
        translations,
    )
    from rulesarchive.differ import language as language_history
else:
    checks = lazy_module("rulesarchive.checks")
    glossary_terms = lazy_module("rulesarchive.differ.glossary")
    histories = lazy_module("rulesarchive.differ.history")
    language_history = lazy_module("rulesarchive.differ.language")
    lineage = lazy_module("rulesarchive.differ.lineage")
    references = lazy_module("rulesarchive.differ.references")
    translation_align = lazy_module("rulesarchive.differ.translation_align")
    translation_compare = lazy_module("rulesarchive.differ.translation_compare")
    translations = lazy_module("rulesarchive.differ.translations")
    identity = lazy_module("rulesarchive.differ.identity")
    sections = lazy_module("rulesarchive.differ.sections")
    tournament_references = lazy_module("rulesarchive.differ.tournament_references")
    kept_lines = lazy_module("rulesarchive.lines")
    ids = lazy_module("rulesarchive.corpus.ids")

log = logging.getLogger(__name__)

AHEAD_FROM = 8  # following more releases than this, their diffs are worked out on every core
MOST_AT_INGEST = 3  # releases added at the end of a language that an ingest prepares for
MAX_HISTORY_BYTES = 4 * 2**20  # a real scraped history of one rule is a few kilobytes

# Told of each release's document as a walk passes it: (index, release, document).
Seen = Callable[[int, Release, Document], None]


@dataclass(frozen=True, slots=True)
class Changelog:
    """A release against the one before it, with the citations each change put right."""

    old: Release
    new: Release
    result: ReleaseDiff  # changes that only put right a citation are `reference`
    fixes: dict[str, tuple[str, ...]]  # by rule number in `new`


class Library:
    """An archive and what is worked out from it (see the module's doc).

    `derived` keeps the worked-out data (by default the user's store; `DerivedData(None)`
    keeps nothing: every answer is worked out afresh). A store inside the archive's folder
    keeps nothing either: that folder holds nothing but releases.
    """

    def __init__(
        self, root: Path | str, derived: DerivedData | None = None, kind: DocKind = DocKind.CR
    ) -> None:
        """Open the archive in `root` for one kind of document: its releases, documents,
        diffs, changelogs, histories and reference checks."""
        chosen = derived if derived is not None else DerivedData.default()
        self.derived = chosen.outside(Path(root))
        self.archive = Archive(root, derived=self.derived, kind=kind)
        self.diffs = Diffs(self.archive)
        self._in_force: dict[str, InForce] = {}
        # the other kinds' archives, kept: each keeps its list of releases (read again only
        # when a release.json changed), which every citation's version in force reads
        self._others: dict[DocKind, Archive] = {}
        self._rule_numbers: dict[str, frozenset[str]] = {}  # by a document's content hash

    @property
    def root(self) -> Path:
        """The archive's folder."""
        return self.archive.root

    def of_kind(self, kind: DocKind) -> Library:
        """Return a library of another kind of document of the same archive and store."""
        return Library(self.root, self.derived, kind)

    @contextmanager
    def snapshot(self) -> Iterator[Library]:
        """Yield a library reading the archive as it is now: what is ingested meanwhile is
        not seen, a release replaced meanwhile is read as it was (see `Archive.snapshot`)."""
        with self.archive.snapshot() as frozen:
            view = copy.copy(self)
            view.archive, view.diffs = frozen, Diffs(frozen)
            yield view

    # Releases and documents

    def releases(self, language: str | None = None) -> list[Release]:
        """Return the releases of a language (None: every language), oldest first."""
        return self.archive.releases(language)

    def find(self, reference: str | dt.date | Release | None, language: str = "en") -> Release:
        """Return the release a user names: an effective date, a catalogue file date, a set
        code, a Release; the newest if None (raise ArchiveError if there is none)."""
        return self.find_all([reference], language)[0]

    def find_all(
        self, references: Sequence[str | dt.date | Release | None], language: str = "en"
    ) -> list[Release]:
        """Return the releases a user names, each as `find` does; a damaged one named is an
        error before the others are looked up (the listing would warn of it first)."""
        named = [
            reference.isoformat() if isinstance(reference, dt.date) else reference
            for reference in references
            if not isinstance(reference, Release)
        ]
        found = iter(find_releases(self.archive, named, language))
        return [
            self._stored(reference) if isinstance(reference, Release) else next(found)
            for reference in references
        ]

    def _stored(self, release: Release) -> Release:
        stored = self.archive.get(release.language, release.effective_date)
        if stored is None:
            raise UnknownRelease(f"no release {release.key} in {self.root}")
        return stored

    def load(self, release: Release) -> Document:
        """Return a release's document."""
        return self.archive.load(release)

    def original(self, release: Release) -> bytes:
        """Return the bytes a release was ingested from (its original file)."""
        return self.archive.original(release)

    def rule(self, number: str, release: Release) -> Rule:
        """Return a rule as a release prints it, the number as typed ('CR 702.19B'), or a
        tournament document's section or part, its paragraphs a line each ('3.9',
        '2.1/philosophy'); raise ArchiveError, naming the nearest numbers, if it has none."""
        if self.archive.kind == DocKind.CR:
            found = self.archive.rule(release, _typed(number))
        else:  # a section's own text or a part, as the differ reads them ('2.1/philosophy')
            address = self._address(number)
            units = sections.units(self.load(release))
            found = next((unit for unit in units if unit.number == address), None)
        if found is None:
            raise self._unknown(number, release)
        return found

    def _address(self, number: str) -> str:
        """A number as typed, as the documents of the archive's kind name it: 'CR 702.19B' is
        702.19b, '2.1/Additional Remedy' 2.1/additional-remedy."""
        if self.archive.kind == DocKind.CR:
            return _typed(number)
        return sections.address(number)

    def _unknown(
        self, number: str, release: Release, document: Document | None = None
    ) -> UnknownRule:
        """The error for a number a release does not print, naming the nearest it prints."""
        if self.archive.kind != DocKind.CR:
            return self._unknown_section(number, release, document or self.load(release))
        typed = typed_number(number)
        if typed is None:
            return UnknownRule(f"{number!r} is not a rule number (give one like 702.19b)")
        document = document or self.load(release)
        near = nearest_numbers(typed, [rule.number for rule in document.rules])
        hint = f"; nearest: {', '.join(near)}" if near else ""
        return UnknownRule(f"no rule {number} in {release.key} ({release.set_name}){hint}")

    def _unknown_section(self, number: str, release: Release, document: Document) -> UnknownRule:
        """The error for an address a tournament release does not print: its section's parts
        (a section with no text of its own), or the sections beside it."""
        address = sections.address(number)
        found = document.section(address.partition(PART)[0])
        name = f"{release.kind.upper()} {release.effective_date}"
        if isinstance(found, Section) and found.parts:
            parts = ", ".join(sections.section_parts(found))
            what = "no part" if PART in address else "no text of its own"
            return UnknownRule(f"section {found.number} of the {name} has {what}: {parts}")
        numbers = [section.number for section in document.sections]
        near = [n for n in numbers if n.partition(".")[0] == address.partition(".")[0]][:6]
        hint = f"; sections beside it: {', '.join(near)}" if near else ""
        return UnknownRule(f"no section {number} in the {name}{hint}")

    # Diffs and changelogs

    def missing_diffs(self, language: str) -> int:
        """Return how many of the language's consecutive diffs are not kept."""
        return len(self.diffs.missing(self.releases(language)))

    def make_diffs(self, language: str, here: bool = False) -> int:
        """Work out the language's diffs that are not kept, on every core (or in this process,
        `here`: for a process of its own beside other work); return how many."""
        releases = self.releases(language)
        return self.diffs.make_here(releases) if here else self.diffs.make_missing(releases)

    def diff(self, old: Release, new: Release) -> ReleaseDiff:
        """Return what changed between two releases of a language."""
        return self.diffs.get(old, new)

    def changelog(self, release: Release) -> Changelog:
        """Return a release against the one before it, citations put right marked."""
        before = previous_release(self.archive, release)
        if before is None:
            raise ArchiveError(
                f"{release.key} is the oldest {release.language} release: nothing to compare"
            )
        fixes: dict[str, tuple[str, ...]] = {}
        if self.archive.kind == DocKind.CR:  # the reference check reads CR citations only
            fixes = self.check(release.language).until(release).fixes[-1]
        return Changelog(
            before, release, references.mark_fixes(self.diff(before, release), fixes), fixes
        )

    # Lines of descent and histories

    def walk(
        self, releases: list[Release], start: int = 0
    ) -> Iterator[tuple[Document, ReleaseDiff | None]]:
        """Yield each release's document with its diff from the one before, oldest first.

        From `start` on: the first diff yielded is from `releases[start - 1]`.
        """
        previous: Document | None = None  # the release before's, once read
        for index in range(start, len(releases)):
            release = releases[index]
            document = self.load(release)
            diff = None
            if index > 0:  # the release before is read only when their diff is not kept
                documents = {release.key: document}
                if previous is not None:
                    documents[releases[index - 1].key] = previous
                diff = self.diffs.get(releases[index - 1], release, documents)
            yield document, diff
            previous = document

    def trace(self, language: str, most_new: int | None = None) -> Trace | None:
        """Return the lines of descent of a language's rules (named by their permanent ids),
        going on from those kept.

        Releases added at the end cost one diff each; one inserted before the kept ones means
        following every release again. None when more than `most_new` are left to follow.
        """
        releases = self.releases(language)
        trace = self._trace(releases, most_new)
        return None if trace is None else self._named(language, releases, trace)

    def _trace(self, releases: list[Release], most_new: int | None = None) -> Trace | None:
        """The trace of the releases as the differ names its lines (see `trace`)."""
        trace = kept_lines.kept_trace(self.derived, releases)
        count = trace.count
        if count == len(releases):
            return trace
        if most_new is not None and len(releases) - count > most_new:
            return None
        log.info("lines of descent: following %d releases", len(releases) - count)
        if len(releases) - count > AHEAD_FROM:
            self.diffs.make_missing(releases[max(count - 1, 0) :])
        with collection_paused():
            trace = lineage.extend_trace(trace, releases, self.walk(releases, start=count))
        kept_lines.keep_trace(self.derived, releases, trace, count)
        return trace

    def walk_and_trace(
        self,
        releases: list[Release],
        see: Seen,
        start: int = 0,
        diffs: list[ReleaseDiff | None] | None = None,
    ) -> Trace:
        """Walk the releases, showing each document to `see`, and return the trace of all.

        The kept trace of the first releases is extended over the rest and kept in its place:
        a walk after one new release follows one release, not the whole history again. `see`
        is shown every release from `start` on (and those before that the kept trace does not
        cover, when it is shorter), not necessarily from the first; each diff walked is noted
        in `diffs` (by release index), when given.
        """
        kept = kept_lines.kept_trace(self.derived, releases)
        first = min(start, kept.count)

        def steps() -> Iterator[tuple[Document, ReleaseDiff | None]]:
            walked = self.walk(releases, start=first)
            for index, (document, diff) in enumerate(walked, start=first):
                if diffs is not None:
                    diffs[index] = diff
                see(index, releases[index], document)
                if index >= kept.count:
                    yield document, diff

        trace = lineage.extend_trace(kept, releases, steps())
        kept_lines.keep_trace(self.derived, releases, trace, kept.count)
        return self._named(releases[0].language, releases, trace) if releases else trace

    def history(self, number: str, language: str = "en", release: Release | None = None) -> History:
        """Return every version of the rule numbered `number` in `release` (default: the
        newest; then a number no longer in use names the rule that held it last). The number
        is read as typed ('CR 702.19B'); raise ArchiveError, naming the nearest numbers, if no
        rule ever held it."""
        typed = self._address(number)
        releases = self.releases(language)
        if not releases:
            raise UnknownRelease(no_releases(self.root, language, self.archive.kind))
        at = releases.index(release) if release else len(releases) - 1
        lines = self._chapter_lines(language, releases, typed.partition(".")[0])
        try:
            return lineage.line_history(lines, releases, typed, at, release is None)
        except LookupError:
            raise self._unknown(number, releases[at]) from None

    def _chapter_lines(self, language: str, releases: list[Release], chapter: str) -> list[Line]:
        """The lines of descent that held a number of `chapter` in some release."""
        lines = kept_lines.chapter_lines(self.derived, releases, chapter)
        trace = None
        if lines is None:
            trace = self._trace(releases)
            assert trace is not None  # no limit given: always traced
            lines = kept_lines.chapter_lines(self.derived, releases, chapter)
            if lines is None:  # nothing can be kept: from the trace in memory
                lines = list(trace.lines)
        return identity.rename_lines(lines, self._line_ids(language, releases, trace))

    def compare_translations(self, number: str, release: Release | None = None) -> RuleTranslations:
        """Set the English rule numbered `number` in `release` (default: the newest; then a
        number no longer in use names the rule that held it last) beside every translation
        of it, release by release: which English change each followed, and when."""
        typed = _typed(number)
        english = self.releases("en")
        if not english:
            raise UnknownRelease(no_releases(self.root, "en"))
        at = english.index(release) if release else len(english) - 1
        lines = self._chapter_lines("en", english, typed.partition(".")[0])
        line = lineage.line_of(lines, typed, at, release is None)
        if line is None:
            raise self._unknown(number, english[at])
        tracks = [self._track(language, english) for language in self.translated_languages()]
        return translation_compare.compare_rule(line, english, tracks, at)

    def _track(self, language: str, english: list[Release]) -> Track:
        """A translated language's reports, release by release, and its rules' lines."""
        releases = self.releases(language)
        found = tuple(
            translation_compare.translated_release(self.translation(language, release), english)
            for release in releases
        )
        chapters: dict[str, list[Line]] = {}

        def holder(number: str, index: int) -> Line | None:
            chapter = number.partition(".")[0]
            if chapter not in chapters:
                chapters[chapter] = self._chapter_lines(language, releases, chapter)
            return next((ln for ln in chapters[chapter] if ln.number_at(index) == number), None)

        return translation_compare.Track(language, found, holder)

    def line_ids(self, language: str, releases: list[Release] | None = None) -> dict[str, str]:
        """Return the permanent id of each of a language's lines, by the trace's name for it.

        Lines first seen are minted an id, and the registry in the archive records it (when
        the archive can be written to; the ids are the same either way).
        """
        releases = releases if releases is not None else self.releases(language)
        return self._line_ids(language, releases, None)

    def line(self, line_id: str, language: str = "en") -> Line:
        """Return the line of descent an id names (or a retired id, an alias of it); raise
        ArchiveError when none does."""
        trace = self.trace(language)  # records the ids and aliases of lines first seen
        assert trace is not None  # no limit given: always traced
        target = self.aliases(language).get(line_id, line_id)
        found = next((line for line in trace.lines if line.id == target), None)
        if found is None:
            raise UnknownRule(f"no {language} rule has the id {line_id!r}")
        return found

    def aliases(self, language: str) -> dict[str, str]:
        """Return a language's retired ids, each with the id of the line it names now."""
        return self.archive.registry(language).resolved_aliases()

    def _named(self, language: str, releases: list[Release], trace: Trace) -> Trace:
        return identity.rename_trace(trace, self._line_ids(language, releases, trace))

    def _line_ids(
        self, language: str, releases: list[Release], trace: Trace | None
    ) -> dict[str, str]:
        recorded, text = self._registry_texts(language, Lines.RULES)
        key = self._ids_key(releases, text)
        kept = self.derived.get(key, kept_lines.KeptIds)
        if kept is not None and kept.registry == _digest(text) and recorded is not None:
            return kept.ids
        trace = trace or self._trace(releases)
        assert trace is not None  # no limit given: always traced
        made = identity.assign_ids(trace.lines, releases, ids.parse_registry(text))
        after = ids.render_registry(made.registry)
        kept = kept_lines.KeptIds(made.ids, _digest(after))
        self.derived.put_many((each, kept) for each in {key, self._ids_key(releases, after)})
        self._record(language, Lines.RULES, recorded, after)
        return made.ids

    def _ids_key(self, releases: list[Release], registry: str) -> str:
        return entry_key(Kind.LINES, "ids", kept_lines.trace_key(releases), _digest(registry))

    def gather(
        self,
        language: str,
        on_document: Seen | None = None,
        kept: bool = False,
        diffs_made: Callable[[], None] | None = None,
    ) -> Language:
        """Read every release of a language once, oldest first, diffing each with the one before.

        `on_document` sees each document as it passes (the site's per-release data files are
        written from it); only two documents are held at a time. With `kept`, what the last
        gathering read of the releases it shares with this one (their glossaries, numbers and
        headings) is taken from the derived store, with their diffs: their documents are not
        read, and `on_document` sees only the releases after them. `diffs_made` is called once
        the missing diffs are made on every core, before the walk, which takes one: the time
        to start work beside it.
        """
        releases = self.releases(language)
        self.diffs.make_missing(releases)
        if diffs_made is not None:
            diffs_made()
        keys = [entry_key(Kind.GATHERED, digest) for digest in lineage.release_digests(releases)]
        summary = (
            self.derived.latest(keys, language_history.DocumentSummary) if kept else None
        ) or language_history.DocumentSummary()
        start = summary.count
        diffs: list[ReleaseDiff | None] = [None] * len(releases)
        for index in range(1, start):
            diffs[index] = self.diff(releases[index - 1], releases[index])

        def see(index: int, release: Release, document: Document) -> None:
            if index >= start:
                summary.add(index, document)
            if on_document:
                on_document(index, release, document)

        trace = self.walk_and_trace(releases, see, start, diffs)
        if summary.count > start:
            self.derived.keep_latest(keys, summary, summary.count, start)
        gathered = summary.language(language, releases, diffs, list(trace.lines))
        gathered.aliases = self.aliases(language)
        # a tournament document has no glossary, and its headings are its sections' lines
        if self.archive.kind == DocKind.CR:
            gathered.glossary, gathered.glossary_aliases = self._named_glossary(
                language, releases, gathered.glossary
            )
            gathered.heading_lines, gathered.heading_aliases = self._named_headings(
                language, releases, gathered.heading_lines
            )
        return gathered

    def _named_glossary(
        self, language: str, releases: list[Release], terms: list[GlossaryLine]
    ) -> tuple[list[GlossaryLine], dict[str, str]]:
        """The glossary's lines with their permanent ids, and the retired ids (aliases)."""
        key = glossary_terms.term_key
        versions = [[(a, b, key(entry.term)) for a, b, entry in term.stretches] for term in terms]
        given, aliases = self._permanent(language, releases, Lines.GLOSSARY, versions)
        return [replace(term, id=i) for term, i in zip(terms, given, strict=True)], aliases

    def _named_headings(
        self, language: str, releases: list[Release], headings: list[HeadingLine]
    ) -> tuple[list[HeadingLine], dict[str, str]]:
        """The headings' lines with their permanent ids, and the retired ids (aliases)."""
        versions = [[(a, b, h.number) for a, b, h in line.stretches] for line in headings]
        given, aliases = self._permanent(language, releases, Lines.HEADINGS, versions)
        return [replace(line, id=i) for line, i in zip(headings, given, strict=True)], aliases

    def _permanent(
        self,
        language: str,
        releases: list[Release],
        lines: Lines,
        versions: list[list[tuple[int, int, str]]],
    ) -> tuple[list[str], dict[str, str]]:
        """Give lines (each its (first, last, number or key) stretches) their permanent ids
        from the archive's registry of the kind (recording ids first minted), and return them
        with the registry's aliases, each resolved to the id it names now."""
        dates = [release.effective_date for release in releases]
        names = [f"{dates[stretches[0][0]]}/{stretches[0][2]}" for stretches in versions]
        points = [
            [
                (dates[index], name)
                for first, last, name in stretches
                for index in range(first, last + 1)
            ]
            for stretches in versions
        ]
        recorded, text = self._registry_texts(language, lines)
        registry = ids.parse_registry(text, str(self.archive.ids_file(language, lines)))
        made = identity.assign_points(names, points, dates, registry)
        self._record(language, lines, recorded, ids.render_registry(made.registry))
        return [made.ids[name] for name in names], made.registry.resolved_aliases()

    def _registry_texts(self, language: str, lines: Lines) -> tuple[str | None, str]:
        """The text of a registry of ids the archive records (None: none yet), and the one to
        start from: that, else the package's."""
        recorded = self.archive.registry_text(language, lines)
        if recorded is not None:
            return recorded, recorded
        return None, ids.shipped_text(language, self.archive.kind, lines)

    def _record(self, language: str, lines: Lines, recorded: str | None, text: str) -> None:
        """Keep a registry of ids in the archive, if it changed and the archive can be written."""
        if text != recorded:
            with contextlib.suppress(ArchiveError):  # read-only: the same ids, not recorded
                if self.archive.save_registry(language, text, lines):
                    log.info("%s: recorded the ids", self.archive.ids_file(language, lines))

    # Reference checks

    def check(
        self,
        language: str = "en",
        gathered: Language | None = None,
        english: Language | None = None,
    ) -> LanguageCheck:
        """Check every citation of every release of a language, oldest first.

        English follows each citation through the lines of descent; a translation is checked
        against the English release it translates. `gathered` (and, for a translation, the
        gathered `english`) spares reading the documents again: what they say is the same.
        """
        releases = self.releases(language)
        if not releases:
            raise UnknownRelease(f"no {language} releases in the archive")
        if self.archive.kind != DocKind.CR:
            return tournament_references.follow_tournament(
                [self._check_tournament(release) for release in releases]
            )
        if language == "en":
            checked = self._check_english(releases, gathered)
            assert checked is not None  # with `fewest` 0, every release is checked
            return checked
        return self._check_translation(language, releases, gathered, english)

    def check_release(self, release: Release, checked: LanguageCheck | None = None) -> ReleaseCheck:
        """Return one release's references and their problems (`checked`: its language's
        check, when at hand)."""
        from rulesarchive.differ.references import Reference  # loaded by the check

        checked = (checked or self.check(release.language)).until(release)
        if self.archive.kind != DocKind.CR:
            _release, found, _problems = self._check_tournament(release)
            return references.ReleaseCheck(release, tuple(found), checked.at(release))
        found = self.derived.cached(  # what a release cites, named by its content
            entry_key(Kind.REFERENCES, release.content_sha256),
            lambda: references.release_references(self.load(release)),
            tuple[Reference, ...],
            f"references of {release.key}",
        )
        return references.ReleaseCheck(release, found, checked.at(release))

    def _check_tournament(
        self, release: Release
    ) -> tuple[Release, tuple[Reference, ...], tuple[Problem, ...]]:
        """Check one version of a tournament document: each citation against the version of
        the document it names in force on its date."""
        found = tournament_references.tournament_references(self.load(release))

        def in_force(kind: DocKind) -> InForce | None:
            if kind == self.archive.kind:
                return self._numbers_of(self.archive, release)
            return self.in_force(kind, release.effective_date)

        return release, found, tournament_references.check_tournament(release, found, in_force)

    def in_force(self, kind: DocKind, date: dt.date) -> InForce | None:
        """Return the English version of a kind of document in force on a date, with the
        numbers it holds (None: the archive has none of that kind yet on that date)."""
        archive = self.archive
        if kind != archive.kind:
            if kind not in self._others:
                self._others[kind] = Archive(self.root, derived=self.derived, kind=kind)
            archive = self._others[kind]
        dated = [r for r in archive.releases("en") if r.effective_date <= date]
        return self._numbers_of(archive, dated[-1]) if dated else None

    def _numbers_of(self, archive: Archive, release: Release) -> InForce:
        """Return the numbers a release holds (kept for the library's life: many versions of
        a tournament document cite one version of another)."""
        kept = self._in_force.get(release.key)
        if kept is None:
            numbers = tournament_references.document_numbers(archive.load(release))
            kept = self._in_force[release.key] = tournament_references.InForce(release, numbers)
        return kept

    def _check_english(
        self, releases: list[Release], gathered: Language | None = None, fewest: int = 0
    ) -> LanguageCheck | None:
        """Trace the English releases' lines of descent and check every citation along them."""
        if gathered is not None:
            glossaries = _glossaries(gathered)
            return checks.check_english(
                self.derived,
                releases,
                lambda start: references.snapshots(
                    gathered.lines, glossaries, gathered.release_headings, start
                ),
                fewest,
            )
        shared: dict[GlossaryEntry, GlossaryEntry] = {}

        def shots_from(start: int) -> list[Snapshot]:
            glossaries: list[tuple[GlossaryEntry, ...]] = [()] * start
            headings: list[tuple[Heading, ...]] = [()] * start

            def see(index: int, _release: Release, document: Document) -> None:
                if index >= start:
                    glossary = glossary_terms.checked_glossary(document.glossary)
                    glossaries.append(tuple(shared.setdefault(e, e) for e in glossary))
                    headings.append(document.headings)

            # the kept trace, extended: the releases before `start` are not read again
            trace = self.walk_and_trace(releases, see, start)
            return references.snapshots(list(trace.lines), glossaries, headings, start)

        return checks.check_english(self.derived, releases, shots_from, fewest)

    def _check_translation(
        self,
        language: str,
        releases: list[Release],
        gathered: Language | None = None,
        english: Language | None = None,
    ) -> LanguageCheck:
        english_releases = self.releases("en")
        rules: dict[str, Sequence[Rule]] = {}

        def english_rules(release: Release) -> Sequence[Rule]:
            if release.key not in rules:
                if english is not None:  # from the gathered lines, from this release on
                    since = english_releases.index(release)
                    blank = [()] * len(english_releases)
                    shots = references.snapshots(english.lines, blank, start=since)
                    for other, shot in zip(english_releases[since:], shots, strict=True):
                        rules.setdefault(other.key, [rule for _, rule in shot.rules])
                else:
                    rules[release.key] = self.load(release).rules
            return rules[release.key]

        def documents_from(start: int) -> Iterator[Document]:
            if gathered is None:
                yield from (self.load(release) for release in releases[start:])
                return
            glossaries = _glossaries(gathered)
            shots = references.snapshots(
                gathered.lines, glossaries, gathered.release_headings, start
            )
            for release, shot in zip(releases[start:], shots, strict=True):
                yield Document(
                    language,
                    release.effective_date,
                    rules=tuple(rule for _, rule in shot.rules),
                    glossary=shot.glossary,
                    excerpt=Flag.EXCERPT in release.flags,
                )

        return checks.check_translation(
            self.derived, language, releases, documents_from, english_releases, english_rules
        )

    # Translations

    def translated_languages(self) -> list[str]:
        """Return the languages other than English that have releases in the archive."""
        return sorted({release.language for release in self.releases()} - {"en"})

    def translation(self, language: str, release: Release | None = None) -> TranslationReport:
        """Compare a translated release (default the newest of its language) with its English
        base, following the English rules to the newest English release.

        Worked out from the archive as it is now: when a missing English release is ingested
        later, the base and the staleness follow with no other step. Kept by the translated
        release and every English release.
        """
        releases = self.releases(language)
        if not releases:
            raise UnknownRelease(f"no {language} releases in the archive")
        chosen = release or releases[-1]
        english = self.releases("en")
        inputs = hashlib.sha256(repr((chosen, english)).encode()).hexdigest()
        return self.derived.cached(
            entry_key(Kind.TRANSLATION, inputs),
            lambda: self._translation(chosen, english),
            translations.TranslationReport,
            f"translation of {chosen.key}",
        )

    def _translation(self, release: Release, english: list[Release]) -> TranslationReport:
        document = self.load(release)
        base = self._base(release, document, english)
        if base is None:
            return translations.compare_translation(release, document, None, None, [])
        base_document = self.load(base)
        # Kept: a new English release changes what is stale, not how the translation pairs up.
        pair = (release.content_sha256, base.content_sha256)
        alignment: TranslationAlignment = self.derived.cached(
            entry_key(Kind.ALIGNMENT, *pair),
            lambda: translation_align.align_translation(
                document.rules, base_document.rules, document.excerpt
            ),
            translation_align.TranslationAlignment,
            f"alignment of {release.key} with {base.key}",
        )
        structure = self.derived.cached(
            entry_key(Kind.STRUCTURE, *pair),
            lambda: translations.structure_problems(document, base_document, alignment),
            translations.Structure,
            f"structure of {release.key} against {base.key}",
        )
        later = []
        previous = base
        for newer in english[english.index(base) + 1 :]:  # documents read only to diff them
            later.append((newer, self.diffs.get(previous, newer, {base.key: base_document})))
            previous = newer
        printed = translations.printed_date_release(release, english)
        return translations.compare_translation(
            release, document, base, base_document, later, alignment, printed, structure
        )

    def _base(self, release: Release, document: Document, english: list[Release]) -> Release | None:
        """The English release a translation translates, kept by the contents and dates of
        the releases it is chosen from: a new English release rarely is one of them."""
        candidates = translations.base_candidates(release, english)
        key = entry_key(
            Kind.BASE,
            release.effective_date.isoformat(),
            release.content_sha256,
            *(f"{c.effective_date.isoformat()} {c.content_sha256}" for c in candidates),
        )

        def chosen() -> int:
            base = translations.base_release(release, document, candidates, self._rule_numbers_of)
            return -1 if base is None else candidates.index(base)

        index = self.derived.cached(key, chosen, int, f"English base of {release.key}")
        return None if index < 0 else candidates[index]

    def _rule_numbers_of(self, release: Release) -> frozenset[str]:
        """The rule numbers of a release, read once per process (the translations of a
        language choose among the same English releases)."""
        numbers = self._rule_numbers.get(release.content_sha256)
        if numbers is None:
            numbers = frozenset(rule.number for rule in self.load(release).rules)
            self._rule_numbers[release.content_sha256] = numbers
        return numbers

    # After an ingest

    def prepare(self, added: Sequence[Release]) -> list[str]:
        """After storing releases, prepare what every reader of them needs, where that is
        cheap (a few releases added at the end of their language): their diffs, the kept
        reference check extended over them, the lines of descent.

        Return the languages whose newest changelog is now cheap to make: its diff kept, its
        check kept (when there was a check to extend). A bulk ingest leaves all that to the
        first reader, which works the diffs out on every core.
        """
        ready: list[str] = []
        if self.archive.kind != DocKind.CR:
            return ready  # diffs, checks and lines of descent are the CR's only, so far
        added = [release for release in added if release.kind == DocKind.CR]
        for language in sorted({release.language for release in added}):
            releases = self.releases(language)
            if any(r.language == language and r not in releases[-MOST_AT_INGEST:] for r in added):
                continue  # more than a few, or some before the end: left to the first reader
            for index in range(max(len(releases) - MOST_AT_INGEST, 1), len(releases)):
                before, release = releases[index - 1], releases[index]
                if release in added or before in added:  # one inserted: its successor's too
                    self.diff(before, release)
            if self._extend_check(language, releases) and len(releases) > 1:
                ready.append(language)
            if not self.derived.has(kept_lines.trace_key(releases)):  # the check made it
                self.trace(language, MOST_AT_INGEST)
        return ready

    def _extend_check(self, language: str, releases: list[Release]) -> bool:
        """Extend the kept check over the releases added at the end, when one is kept that
        lacks at most a few (a check from nothing is left to the first command that needs
        it); True when the check of every release is kept now."""
        fewest = max(len(releases) - MOST_AT_INGEST, 1)
        if language == "en":
            return self._check_english(releases, fewest=fewest) is not None
        english = self.releases("en")
        if checks.kept_translation_count(self.derived, language, releases, english) < fewest:
            return False
        self._check_translation(language, releases)
        return True


def read_scraped_history(path: Path, number: str = "") -> History:
    """Read a scraped per-rule history file (see differ.history.parse_scraped_history)."""
    try:
        with path.open("rb") as handle:  # bounded: `--from-file /dev/zero` must not eat memory
            raw = handle.read(MAX_HISTORY_BYTES + 1)
        if len(raw) > MAX_HISTORY_BYTES:
            raise ValueError(f"{path}: over {MAX_HISTORY_BYTES // 2**20} MB, not a rule's history")
        text = raw.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: cannot read ({error})") from None
    return histories.parse_scraped_history(text, number, str(path))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _glossaries(data: Language) -> list[tuple[GlossaryEntry, ...]]:
    """Each release's glossary entries, from the glossary's lines, as the check reads them."""
    entries: list[list[GlossaryEntry]] = [[] for _ in data.releases]
    for term in data.glossary:
        for first, last, entry in term.stretches:
            for index in range(first, last + 1):
                entries[index].append(entry)
    return [glossary_terms.checked_glossary(release) for release in entries]


def _typed(number: str) -> str:
    """A number as typed ('CR 702.19B', 'rule 400.6.'), as the rules print it."""
    return typed_number(number) or number.strip()
