"""The Python API: an archive's releases, rules, diffs, histories, checks and translations as
typed objects.

Every answer comes from the library (rulesarchive.library), the same service the command line
calls: each result's `to_json()` is exactly what the matching command prints with
`--format json`, and `to_text()` what it prints as text (the command line prints these).
"""

from __future__ import annotations

import datetime as dt
import warnings
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

import rulesarchive.answers as answers
from rulesarchive.corpus.derived import DerivedData
from rulesarchive.corpus.lookup import release_in_force
from rulesarchive.corpus.model import DocKind, GlossaryEntry
from rulesarchive.corpus.model import Release as StoredRelease
from rulesarchive.corpus.store import ArchiveError, NotFound, UnknownRelease, UnknownRule
from rulesarchive.differ import release_report
from rulesarchive.differ.release_report import json_text
from rulesarchive.library import Library, read_scraped_history
from rulesarchive.system.lazy import lazy_module

if TYPE_CHECKING:
    from rulesarchive.answers.checks import Check, CheckHistory
    from rulesarchive.answers.comparison import Comparison
    from rulesarchive.answers.history import History
    from rulesarchive.answers.rule_text import RuleText
    from rulesarchive.answers.translations import Compared, Translation
    from rulesarchive.differ.report_types import (
        ReleaseJson,
    )

# The reports of diffs, histories, checks and translations, loaded when first printed: a rule
# or the list of releases prints without the differ's word diffing.
if TYPE_CHECKING:  # the modules themselves, for their types
    from rulesarchive.differ import glossary as glossary_terms
    from rulesarchive.differ import history as histories
    from rulesarchive.differ import lineage, report
else:
    report = lazy_module("rulesarchive.differ.report")
    histories = lazy_module("rulesarchive.differ.history")
    glossary_terms = lazy_module("rulesarchive.differ.glossary")
    lineage = lazy_module("rulesarchive.differ.lineage")


def __getattr__(name: str) -> Any:
    """The answers' classes, imported when first named (see rulesarchive.answers)."""
    if name in answers.__all__:
        return getattr(answers, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Archive",
    "ArchiveError",
    "Check",
    "CheckHistory",
    "Compared",
    "Comparison",
    "History",
    "NotFound",
    "Release",
    "RuleText",
    "Translation",
    "UnknownRelease",
    "UnknownRule",
    "json_text",
]

ReleaseRef = str | dt.date | StoredRelease | None


class Release(StoredRelease):
    """A stored release (a corpus.model.Release) that prints as `releases --format json`.

    The model's dataclass with a method more: no fields of its own, so not made a dataclass
    again (which would cost every start building its methods anew).
    """

    __slots__ = ()

    @classmethod
    def of(cls, release: StoredRelease) -> Release:
        """Return the API form of a model release."""
        return cls(**{f.name: getattr(release, f.name) for f in fields(release)})

    def to_json(self) -> ReleaseJson:
        """Return the object `rulesarchive releases --format json` prints for this release."""
        return release_report.release_summary(self)


class Archive:
    """A folder of releases, as `rulesarchive --archive DIR` reads it.

    Releases are named as on the command line: an effective date ('2024-11-08' or a
    datetime.date), a catalogue file date, a set code ('FDN'), or a Release; None is the newest.
    What is worked out is kept in the user's cache folder (`cache`, default the platform's or
    `RULESARCHIVE_CACHE`; `cache=False` keeps nothing). `doc` names the kind of document read:
    'cr' (the Comprehensive Rules), 'mtr' or 'ipg': releases, diffs, changelogs and histories
    are answered for each kind (a tournament document's sections and their parts stand where
    the CR's rules do: `history('3.9')`, `history('2.1/philosophy')`); citations are checked,
    and translations compared, for the CR only.
    """

    def __init__(
        self, root: Path | str = "archive", cache: Path | str | bool = True, doc: str = "cr"
    ) -> None:
        if cache is True:
            derived = DerivedData.default()
        else:
            derived = DerivedData(Path(cache) if cache else None)
        self.library = Library(root, derived, DocKind(doc))

    @property
    def root(self) -> Path:
        """The archive's folder."""
        return self.library.root

    def releases(self, lang: str | None = "en") -> list[Release]:
        """Return the releases of a language (None: all), oldest first."""
        return [Release.of(release) for release in self.library.releases(lang)]

    def release(self, reference: ReleaseRef = None, *legacy: str, lang: str = "en") -> Release:
        """Return one release, named by date or set code; the newest if None."""
        (lang,) = _keywords("release", legacy, lang=lang)
        return Release.of(self.library.find(reference, lang))

    def in_force(self, date: dt.date | str, *, lang: str = "en") -> Release:
        """Return the release in force on a date: the newest effective on or before it."""
        day = dt.date.fromisoformat(date) if isinstance(date, str) else date
        return Release.of(release_in_force(self.library.archive, day, lang))

    def rule(
        self, number: str, *legacy: ReleaseRef, release: ReleaseRef = None, lang: str = "en"
    ) -> RuleText:
        """Return a rule as a release (default the newest) prints it; raise UnknownRule."""
        release, lang = _keywords("rule", legacy, release=release, lang=lang)
        found = self.library.find(release, lang)
        return answers.RuleText(self.library.rule(number, found), Release.of(found))

    def rule_on(self, number: str, date: dt.date | str, *, lang: str = "en") -> RuleText:
        """Return a rule as the release in force on a date printed it."""
        return self.rule(number, release=self.in_force(date, lang=lang), lang=lang)

    def rule_by_id(self, line_id: str, *, release: ReleaseRef = None, lang: str = "en") -> RuleText:
        """Return the rule a permanent id (or a retired id) names, as a release (default the
        last printing it) prints it; raise UnknownRule when it names none there."""
        line = self.library.line(line_id, lang)
        releases = self.library.releases(lang)
        at = releases.index(self.library.find(release, lang)) if release is not None else line.last
        number = line.number_at(at)
        if number is None:
            raise UnknownRule(f"the rule {line_id} is not in {releases[at].key}")
        return self.rule(number, release=releases[at], lang=lang)

    def diff(
        self,
        old: ReleaseRef,
        new: ReleaseRef,
        *legacy: str,
        lang: str = "en",
        kinds: tuple[str, ...] = (),
        section: str | None = None,
    ) -> Comparison:
        """Return what changed, rule by rule, between any two releases (printing only the
        `kinds` of change and the `section` asked for, as `diff --kind --section`)."""
        (lang,) = _keywords("diff", legacy, lang=lang)
        before, after = self.library.find_all([old, new], lang)
        result = self.library.diff(before, after)
        return answers.Comparison(Release.of(before), Release.of(after), result, {}, kinds, section)

    def changelog(
        self,
        release: ReleaseRef = None,
        *legacy: str,
        lang: str = "en",
        kinds: tuple[str, ...] = (),
        section: str | None = None,
    ) -> Comparison:
        """Return a release's changes (default the newest) against the release before it;
        a change that only put right citations the check saw wrong is `reference`."""
        (lang,) = _keywords("changelog", legacy, lang=lang)
        found = self.library.changelog(self.library.find(release, lang))
        return answers.Comparison(
            Release.of(found.old), Release.of(found.new), found.result, found.fixes, kinds, section
        )

    def history(
        self, number: str, *legacy: str | ReleaseRef, release: ReleaseRef = None, lang: str = "en"
    ) -> History:
        """Return every version of a rule, named by its number in `release` (default newest;
        then a number no longer in use names the rule that held it last); raise UnknownRule.

        `history(number, lang, release)`, the old order, still works (deprecated)."""
        lang, release = _keywords("history", legacy, lang=lang, release=release)
        found = self.library.find(release, lang) if release is not None else None
        told = self.library.history(number, lang, found)
        return answers.History(told, tuple(self.library.releases(lang)))

    def history_of_id(self, line_id: str, *, lang: str = "en") -> History:
        """Return every version of the rule a permanent id names (a retired id, an alias,
        names the rule it was merged into)."""
        line = self.library.line(line_id, lang)
        releases = self.library.releases(lang)
        told = histories.History(
            line.rule.number, line.numbers, lineage.line_versions(line, releases)
        )
        return answers.History(told, tuple(releases))

    def glossary(
        self, *, release: ReleaseRef = None, lang: str = "en"
    ) -> tuple[GlossaryEntry, ...]:
        """Return a release's glossary (default the newest), in printed order."""
        return self.library.load(self.library.find(release, lang)).glossary

    def term(self, term: str, *, release: ReleaseRef = None, lang: str = "en") -> GlossaryEntry:
        """Return one glossary entry, the term matched as the glossary keys it ('Control,
        Controller' answers 'control'); raise UnknownRule when the release has none."""
        wanted = glossary_terms.term_key(term)
        for entry in self.glossary(release=release, lang=lang):
            if glossary_terms.term_key(entry.term) == wanted:
                return entry
        raise UnknownRule(f"no glossary term {term!r} in that {lang} release")

    def check(self, release: ReleaseRef = None, *legacy: str, lang: str = "en") -> Check:
        """Return every citation of a release (default the newest) and its problems."""
        (lang,) = _keywords("check", legacy, lang=lang)
        return answers.Check(self.library.check_release(self.library.find(release, lang)))

    def check_history(
        self, release: ReleaseRef = None, *legacy: str, lang: str = "en"
    ) -> CheckHistory:
        """Return every problem of every release up to one (default the newest), once each."""
        (lang,) = _keywords("check_history", legacy, lang=lang)
        found = self.library.find(release, lang)
        return answers.CheckHistory(self.library.check(lang).until(found))

    def translated_languages(self) -> list[str]:
        """Return the languages other than English the archive has releases of."""
        return self.library.translated_languages()

    def translation(
        self, lang: str, release: ReleaseRef = None, only_stale: bool = False
    ) -> Translation:
        """Compare a translated release (default the newest) with the English it translates
        (`only_stale`: list only its stale rules)."""
        found = self.library.find(release, lang) if release is not None else None
        return answers.Translation(self.library.translation(lang, found), only_stale)

    def compare(self, number: str, *, release: ReleaseRef = None) -> Compared:
        """Set an English rule (named by its number in `release`, default the newest) beside
        every translation of it, release by release, and each English change beside the
        first translated release that followed it."""
        found = self.library.find(release, "en") if release is not None else None
        return answers.Compared(self.library.compare_translations(number, found))

    def aliases(self, *, lang: str = "en") -> dict[str, str]:
        """Return the retired ids of a language's rules, each with the id it names now."""
        return self.library.aliases(lang)


def _keywords(method: str, legacy: tuple[Any, ...], **given: Any) -> tuple[Any, ...]:
    """Return the keyword arguments, in order, taking any the old call form gave by position
    (deprecated: one order everywhere, `number, *, release=None, lang="en"`)."""
    if not legacy:
        return tuple(given.values())
    if len(legacy) > len(given):
        raise TypeError(f"{method}() takes at most {len(given)} arguments after the first")
    names = list(given)
    warnings.warn(
        f"Archive.{method}: give {', '.join(names[: len(legacy)])} by keyword "
        f"({method}(..., {names[0]}=...)); by position is deprecated",
        DeprecationWarning,
        stacklevel=3,
    )
    return tuple(legacy) + tuple(given[name] for name in names[len(legacy) :])


def scraped_history(path: Path | str, number: str = "") -> History:
    """Read a scraped per-rule history (as `history --from-file FILE [RULE]`)."""
    return answers.History(read_scraped_history(Path(path), number))
