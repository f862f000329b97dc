"""The rule pages of a language: a permanent page per line of descent, and the histories."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TypedDict

from markupsafe import Markup, escape
from rulesarchive.corpus.model import Release, Rule
from rulesarchive.corpus.numbers import cited_numbers, parent_of, rule_sort_key
from rulesarchive.differ.history import History, Version
from rulesarchive.differ.kinds import TranslationStatus
from rulesarchive.differ.lineage import Line
from rulesarchive.differ.report import history_data
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.changelog import FOLDED
from rulesarchive.site_builder.history_view import example_diffs, renumbered_positions
from rulesarchive.site_builder.render import LANGUAGE_NAMES, Context, Job, Memoised, memo
from rulesarchive.site_builder.translations import Counterpart

if TYPE_CHECKING:
    from rulesarchive.site_builder.pages import LanguagePages
    from rulesarchive.site_builder.refs import References


class RulePages:
    """The rule pages of a language."""

    def __init__(self, site: LanguagePages) -> None:
        self.site = site
        self.cited_by = self._cited_by()
        self._positions: dict[int, dict[str, int]] = {}  # release -> number -> its place
        # What the pages use of the pairing, by line id: read for a page's memo and its context.
        pairing, language = site.pairing, site.language
        self._translations = {
            line_id: [_seen(c) for c in counterparts]
            for line_id, counterparts in pairing.by_english.items()
            if language == "en"
        }
        self._english = {
            line_id: _seen(c)
            for (lang, line_id), c in pairing.by_translation.items()
            if lang == language
        }
        # Every translation of each English line, for the language switch.
        self._siblings = {
            line_id: tuple((c.language, c.line_id) for c in counterparts)
            for line_id, counterparts in pairing.by_english.items()
        }

    def jobs(self) -> list[Callable[[], Memoised]]:
        """Return the makers of every rule's page and of the history files, a chapter each.

        Makers, not jobs: the processes making the pages share them out as they go.
        """
        rules: list[Callable[[], Memoised]] = [
            partial(self.memoised_rule, line) for line in self.site.data.lines
        ]
        histories: list[Callable[[], Memoised]] = [
            partial(self._history_file, chapter, lines)
            for chapter, lines in self.history_bundles().items()
        ]
        return rules + histories

    def memoised_rule(self, line: Line) -> Memoised:
        """A rule's page known by what it is made from, so a page whose language gained no
        release (a translation, when English did) costs no context.

        All but two of its inputs come from the language's own releases, summed up in
        `releases_memo` (the lines of descent, glossary and reference targets are worked out
        from them alone): what the page uses of its counterparts in other languages (`Seen`;
        the pairing reads English and every translation) and the reference check's marks (the
        check reads English too). When a release is added, `_since_last_change` knows most
        pages by less.
        """
        others = memo(  # summed up once: both memos hold it
            self.site.salt,
            line.id,
            (
                self._counterparts(line),
                self._translated(line),
                self.site.reference_marks.get(line.id, ()),
                self._counterparts_stand(line),
            ),
        )
        finer = None
        if line.stretches[-1].first < self.site.newest:
            finer = partial(self._since_last_change, line, others)
        page = paths.rule_page(self.site.language, line)
        return self.site.memoised(
            page,
            (self.site.releases_memo, others),
            partial(self.rule, line),
            _modified(line, self.site.newest),
            finer,
            self._switches(page, line),
        )

    def _since_last_change(self, line: Line, others: str) -> tuple[object, ...]:
        """What the page of a rule the newest release did not change is made from.

        A rule gone before the newest release shows only what the releases up to the one
        that dropped it say (`prefix`): a line that ended never goes on (lineage follows the
        rules of the release before), what it cites and what cites it are lines of its last
        release, linked at their version there. But the glossary pages its terms link to,
        whose slugs are given out over every release (`terms_digest`). So a new release keeps
        those pages, and needs no glossary of the older releases to link their terms.

        A current rule shows its versions as the releases up to its last change say, every
        one linked at a release before the newest (so with version anchors); the rest is what
        it shows of the newest release (`_surroundings`). (A rule the newest release changed
        shows that change linked without anchors, which the next release adds: it has no
        finer memo.)
        """
        data = self.site.data
        if line.last != self.site.newest:
            gone = (data.prefix[line.last + 1], self.site.refs.terms_digest(line.last))
            return ("gone", gone, others)
        changed = line.stretches[-1].first
        page = paths.rule_page(self.site.language, line)
        surroundings = (self._surroundings(page, line), self.section(line))
        return ("current", data.prefix[changed], changed, surroundings, others)

    def _surroundings(
        self, page: str, line: Line
    ) -> tuple[
        tuple[str, list[str]],
        list[dict[str, str]],
        tuple[list[tuple[str, str]], list[tuple[str, str]]],
    ]:
        """What a current rule's page shows of the newest release but the rule: its text and
        examples linked there (references and glossary terms), its neighbours, what it cites
        and what cites it."""
        return self._link_rule(page, line), self._neighbours(page, line), self._citations(line)

    def section(self, line: Line) -> tuple[str, bool]:
        """Return the name of a rule's section as its last release prints it, and whether the
        rule is the one that name belongs to: the keyword or title its section rule holds
        ('Trample' for 702.19b, 702.19's own), else its chapter's title (the chapter's first
        rule's own), or its section's for the general rules opening a section."""
        data, at = self.site.data, line.last
        number = line.rule.number
        section = re.match(r"\d{3}\.\d+", number)
        holder = data.holder(section.group(), at) if section else None
        for stretch in holder.stretches if holder else ():
            if stretch.first <= at <= stretch.last:
                title = stretch.rule.printed_text.strip()
                if len(title) <= _TITLE_LENGTH and not title.endswith((".", "。", ":", "：")):
                    return title, holder is line
        headings = data.release_headings[at] if at < len(data.release_headings) else ()
        # A section's first chapter (100, 400, ...) holds its general rules ("400. General"):
        # the section's title ("4. Zones") names them.
        wanted = number[0] if number[1:3] == "00" else number[:3]
        title = next((h.title for h in headings if h.number == wanted), "")
        return title, number == f"{number[:3]}.1"

    def _history_file(self, chapter: str, lines: list[Line]) -> Memoised:
        path = paths.history_data(self.site.language, chapter)
        return self.site.memoised(
            path,
            (self.site.releases_memo, chapter),
            lambda: self.site.data_file(path, self.history_json(path, lines)),
        )

    def _citations(self, line: Line) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        rule = line.rule
        cites = []
        for number in cited_numbers(rule.text + " " + " ".join(rule.examples)):
            target = self.site.data.holder(number, line.last)
            cites.append((number, target.id if target else ""))
        cited_by = sorted(
            ((other.rule.number, other.id) for other in self.cited_by.get(line.id, ())),
            key=lambda pair: rule_sort_key(pair[0]),
        )
        return cites, cited_by

    def _counterparts_stand(self, line: Line) -> tuple[tuple[str, str], ...]:
        """What the links in the counterparts' texts lead to: the releases up to where each
        text stands (`prefix`), which releases added later leave alone."""
        seen = self._counterparts(line) or [c for c in [self._translated(line)] if c]
        stand = []
        for counterpart in seen:
            for references, index in self._where_texts_stand(counterpart):
                if references is not None and index is not None:
                    stand.append((references.data.language, references.data.prefix[index]))
        return tuple(stand)

    def _where_texts_stand(self, counterpart: Seen) -> list[tuple[References | None, int | None]]:
        """The references of a counterpart's two texts, and the releases they stand in: the
        translation's release, and the first English release printing the English it
        translates (its text is the same from there to its base release)."""
        translated = self.site.references_of(counterpart.language)
        english = self.site.references_of("en")
        shown = counterpart.shown
        at = translated.release_index.get(shown["release"].effective_date) if translated else None
        first = None
        line = english.data.by_id.get(counterpart.english_line_id) if english else None
        printed = shown["english"].printed_text
        for stretch in reversed(line.stretches if line else ()):
            if stretch.rule.printed_text == printed:
                first = stretch.first
                break
        return [(translated, at), (english, first)]

    def _counterpart_texts(self, page: str, counterpart: Seen) -> Context:
        """A counterpart's texts with their references linked where each stands."""
        (translated, at), (english, first) = self._where_texts_stand(counterpart)
        rule, english_rule = counterpart.shown["rule"], counterpart.shown["english"]

        def linked(references: References | None, index: int | None, text: str) -> Markup:
            if references is None or index is None:
                return escape(text)
            return references.anchored_html(page, text, index)

        return {
            "text": linked(translated, at, rule.printed_text),
            "examples": [linked(translated, at, e) for e in rule.printed_examples],
            "english_text": linked(english, first, english_rule.printed_text),
            "english_examples": [linked(english, first, e) for e in english_rule.printed_examples],
        }

    def _english_view(self, page: str, line: Line) -> Context | None:
        """On a translated rule's page: the English it translates, and whether it moved on."""
        translated = self._translated(line)
        if translated is None:
            return None
        return {
            "counterpart": translated.shown,
            "texts": self._counterpart_texts(page, translated),
            "href": paths.relative(page, f"en/r/{translated.english_line_id}/index.html"),
            "since_href": _relative_change(page, translated),
        }

    def _counterparts(self, line: Line) -> list[Seen]:
        """For an English rule: its translations."""
        return self._translations.get(line.id, [])

    def _translated(self, line: Line) -> Seen | None:
        """For a translated rule: its English counterpart and status."""
        return self._english.get(line.id)

    def _switches(self, page: str, line: Line) -> list[Switch]:
        """Links to the same rule in the other languages (the language switch); a language
        without it gets its chapter, or its home."""
        return self.site.switches(page, self._same_rule(line), line.rule.number[:3])

    def _same_rule(self, line: Line) -> dict[str, str]:
        """The page of the same rule in each other language that has it (from the site root)."""
        if self.site.language == "en":
            english = line.id
        else:
            translated = self._translated(line)
            if translated is None:
                return {}
            english = translated.english_line_id
        same = {"en": f"en/r/{english}/index.html"}
        for language, line_id in self._siblings.get(english, ()):
            same[language] = f"{language}/r/{line_id}/index.html"
        same.pop(self.site.language, None)
        return same

    def history_bundles(self) -> dict[str, list[Line]]:
        """Group the lines by the chapter of their last number (one history file per chapter)."""
        bundles: dict[str, list[Line]] = {}
        for line in self.site.data.lines:
            bundles.setdefault(line.rule.number[:3], []).append(line)
        return bundles

    def history_json(self, path: str, lines: list[Line]) -> str:
        """A chapter's rule histories as JSON (the file `path`): line id -> the keys of
        `history --format json`."""
        ids = [json.dumps(line.id, ensure_ascii=False) for line in lines]
        entries = (
            f"{key}: {self._entry(path, line)}" for key, line in zip(ids, lines, strict=True)
        )
        return "{" + ", ".join(entries) + "}"  # as json.dumps writes a dict

    def _entry(self, path: str, line: Line) -> str:
        """A line's entry in its chapter's history file, kept across builds for a rule the
        newest release did not change, by what its page's finer memo sums up of its releases
        (`_since_last_change`). A current rule's last version names the newest release and
        counts the releases since it changed: those two are put in a kept entry."""
        data, newest, links = self.site.data, self.site.newest, self.site.refs.links
        changed = line.stretches[-1].first
        page = paths.rule_page(self.site.language, line)  # the entry names it
        if changed == newest:
            return self._entry_made(line, live=False)
        if line.last < newest:
            key = links.key(page, "gone", data.prefix[line.last + 1])
            return links.kept_text(path, key, partial(self._entry_made, line, live=False))
        key = links.key(page, "current", data.prefix[changed], changed)
        entry = links.kept_text(path, key, partial(self._entry_made, line, live=True))
        until = json.dumps(data.releases[newest].effective_date.isoformat())
        return entry.replace(_UNTIL, until, 1).replace(_RELEASES, str(newest - changed + 1), 1)

    def _entry_made(self, line: Line, live: bool) -> str:
        history = History(line.rule.number, line.numbers, self.site.versions(line))
        # a template, not a history: a live entry's placeholders stand for the newest release
        entry: dict[str, Any] = {
            "id": line.id,
            "page": paths.rule_page(self.site.language, line),
            **history_data(history),
        }
        if live:
            entry["versions"][-1] |= {"until": _LIVE_UNTIL, "releases": _LIVE_RELEASES}
        return json.dumps(entry, ensure_ascii=False)

    def rule(self, line: Line) -> Job:
        """A rule's page: its current text, then its whole history, newest first."""
        page = paths.rule_page(self.site.language, line)
        releases = self.site.data.releases
        versions = self.site.versions(line)
        current = line.rule
        settled = next((v for v in reversed(versions) if v.kind not in FOLDED), versions[0])
        cite_pairs, cited_pairs = self._citations(line)
        lines = {
            other.id: other
            for other in self.site.data.lines_by_id(
                [i for _, i in cite_pairs if i] + [i for _, i in cited_pairs]
            )
        }
        cites = [
            {"number": n, "href": self.site.line_href(page, lines.get(i))} for n, i in cite_pairs
        ]
        switches = self._switches(page, line)
        text_html, examples_html = self._link_rule(page, line)
        is_current = line.last == self.site.newest
        section, owns_section = self.section(line)
        return self.site.page(
            "rule.html",
            page,
            modified=_modified(line, self.site.newest),
            title=f"{current.number} · {section}" if section else current.number,
            section=section,
            owns_section=owns_section,
            line_id=line.id,
            numbers=line.numbers,
            rule=current,
            text_html=text_html,
            examples_html=examples_html,
            neighbours=self._neighbours(page, line),
            current=is_current,
            last_release=None if is_current else releases[line.last],
            successors=None if is_current else self.site.successors(page, line),
            first_release=releases[line.first],
            settled={"effective_date": settled.effective_date, "set_name": settled.set_name},
            versions=self._version_views(page, versions),
            folded=FOLDED,
            cites=cites,
            cited_by=[
                {"number": n, "href": self.site.line_href(page, lines[i])} for n, i in cited_pairs
            ],
            data_href=paths.relative(
                page, paths.history_data(self.site.language, line.rule.number[:3])
            ),
            translations=[
                {
                    "counterpart": counterpart.shown,
                    "texts": self._counterpart_texts(page, counterpart),
                    "name": LANGUAGE_NAMES.get(counterpart.language, counterpart.language),
                    "href": paths.relative(
                        page, f"{counterpart.language}/r/{counterpart.line_id}/index.html"
                    ),
                    "since_href": _relative_change(page, counterpart),
                    "translates_this": _same_words(counterpart.shown["english"], current),
                }
                for counterpart in self._counterparts(line)
            ],
            english=self._english_view(page, line),
            across_href=self._across_href(page, line),
            switches=switches,
            reference_marks=self.site.reference_marks.get(line.id, ()),
            description=_short(current.printed_text, 155),
            og_type="article",
        )

    def _across_href(self, page: str, line: Line) -> str:
        """Link to the English rule's page across its translations ('' when none has it)."""
        if self._translations.get(line.id):
            return paths.relative(page, paths.translations_page(line.id))
        english = self._english.get(line.id)
        return (
            paths.relative(page, paths.translations_page(english.english_line_id))
            if english
            else ""
        )

    def _link_rule(self, page: str, line: Line) -> tuple[str, list[str]]:
        """A rule's text and examples as HTML: references linked, glossary terms once each."""
        seen: set[str] = set()
        rule = line.rule
        text = self.site.refs.html(page, rule.printed_text, line.last, seen)
        examples: list[str] = [
            self.site.refs.html(page, ex, line.last, seen) for ex in rule.printed_examples
        ]
        return text, examples

    def _neighbours(self, page: str, line: Line) -> list[dict[str, str]]:
        """Links to the rule's parent and to the rules before and after it in its release."""
        number = line.rule.number
        order = self.site.data.numbers[line.last]
        if line.last not in self._positions:
            places = self._positions[line.last] = {}
            for place, held in enumerate(order):
                places.setdefault(held, place)  # the first, as tuple.index finds it
        position = self._positions[line.last].get(number, -1)
        wanted = [("parent", parent_of(number) or "")]
        if position >= 0:
            wanted.append(("previous", order[position - 1] if position > 0 else ""))
            wanted.append(("next", order[position + 1] if position + 1 < len(order) else ""))
        found = []
        for role, other in wanted:
            if not other:
                continue
            if "." in other:
                target = self.site.refs.rule_target(other, line.last)
            else:
                target = self.site.refs.chapter_target(other, line.last)
            if target:
                found.append({"role": role, "number": other, "href": paths.relative(page, target)})
        return found

    def _version_views(self, page: str, versions: tuple[Version, ...]) -> list[Context]:
        """A rule's versions, newest first, as HTML with references linked in their release."""
        views = []
        changed_examples = example_diffs(versions, self.site.refs.links.word_diff)
        renumbered = renumbered_positions(versions)
        # The old side of a diff is linked in the last release printing it, where the rules
        # it cites stood as it was superseded (not as it was first printed).
        until = {v.effective_date: v.until for v in versions}
        for position, version in enumerate(reversed(versions)):
            assert version.effective_date is not None  # a release's version has its date
            index = self.site.index_of[version.effective_date]
            last_printed = until.get(version.compared_with)
            before = self.site.index_of.get(last_printed, index - 1)  # type: ignore[arg-type]
            shown = version.kind not in FOLDED
            if version.diff and shown:
                text = self.site.refs.diff_html(page, version.diff, index, before)
            else:
                text = self.site.refs.html(page, version.text, index)
            if position in changed_examples and shown:
                examples = [
                    self.site.refs.diff_html(page, pieces, index, before)
                    for pieces in changed_examples[position]
                ]
            else:
                examples = [
                    self.site.refs.html(page, example, index) for example in version.examples
                ]
            views.append(
                {
                    "version": {  # what the page shows of it (not how long it lasted)
                        "effective_date": version.effective_date,
                        "set_name": version.set_name,
                        "number": version.number,
                        "kind": version.kind,
                        "diff": bool(version.diff),
                    },
                    "anchor": f"v{version.effective_date.isoformat()}",
                    "text_html": text,
                    "examples_html": examples,
                    "renumbered": position in renumbered,
                }
            )
        return views

    def _cited_by(self) -> dict[str, list[Line]]:
        cited: dict[str, list[Line]] = {}
        for line in self.site.data.lines:
            rule = line.rule
            for number in cited_numbers(rule.text + " " + " ".join(rule.examples)):
                target = self.site.data.holder(number, line.last)
                if target is not None and target is not line and target.last == line.last:
                    cited.setdefault(target.id, []).append(line)
        return cited


# Where a kept history entry of a current rule names the newest release and counts the releases
# since the rule changed: marks no rule text holds (JSON writes a NUL as \u0000).
# A section rule whose text is at most this long, without a closing stop, is a title
# ("702.19. Trample"); a longer one is a rule of its own ("704.5. The state-based actions ...").
_TITLE_LENGTH = 40

_LIVE_UNTIL, _LIVE_RELEASES = "\0until\0", "\0releases\0"
_UNTIL, _RELEASES = json.dumps(_LIVE_UNTIL), json.dumps(_LIVE_RELEASES)


def _modified(line: Line, newest: int) -> int:
    """The release whose change a rule's page shows last (its sitemap lastmod)."""
    return line.stretches[-1].first if line.last == newest else line.last + 1


class Shown(TypedDict):
    """What a rule page shows of a counterpart (`Seen.shown`)."""

    language: str
    rule: Rule
    release: Release
    english: Rule
    status: TranslationStatus
    stale_since: Release | None
    problems: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Seen:
    """What a rule page uses of a counterpart: what it shows, and where it links.

    Not its base release (the status page has it), which a new English release moves while
    most translated pages stay as they were: their memos are made of these, so a page cannot
    use what they leave out.
    """

    shown: Shown
    language: str
    line_id: str
    english_line_id: str
    change: str


def _same_words(english: Rule, rule: Rule) -> bool:
    """Whether a translation translates the English rule as its page prints it."""
    return (english.printed_text, english.printed_examples) == (
        rule.printed_text,
        rule.printed_examples,
    )


def _seen(counterpart: Counterpart) -> Seen:
    shown: Shown = {
        "language": counterpart.language,
        "rule": counterpart.rule,
        "release": counterpart.release,
        "english": counterpart.english,
        "status": counterpart.status,
        "stale_since": counterpart.stale_since,
        "problems": counterpart.problems,
    }
    return Seen(
        shown,
        counterpart.language,
        counterpart.line_id,
        counterpart.english_line_id,
        counterpart.change,
    )


def _relative_change(page: str, counterpart: Seen) -> str:
    if not counterpart.change:
        return ""
    target, anchor = counterpart.change.split("#")
    return f"{paths.relative(page, target)}#{anchor}"


class Switch(TypedDict):
    """One language's entry in a page's language switch (see `language_switch`)."""

    language: str
    name: str
    href: str
    current: bool
    path: str
    same: bool


def language_switch(
    language: str, href: str, current: bool, path: str, same: bool = True
) -> Switch:
    """One language's entry in a page's language switch (`path` from the site root; `same`:
    the same page in that language, not only the nearest it has)."""
    return {
        "language": language,
        "name": LANGUAGE_NAMES.get(language, language),
        "href": href,
        "current": current,
        "path": path,  # from the site root, for the absolute alternates in <head>
        "same": same,
    }


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"
