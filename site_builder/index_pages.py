"""The index pages of a language: chapters, removed rules and the glossary."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, TypedDict

from markupsafe import Markup
from rulesarchive.corpus.model import Heading, Rule
from rulesarchive.corpus.numbers import parent_of, rule_sort_key
from rulesarchive.differ.glossary import term_key
from rulesarchive.differ.language import GlossaryLine
from rulesarchive.differ.lineage import Line
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.render import Context, Job, Memoised
from rulesarchive.site_builder.vocabulary import vocabulary_json

if TYPE_CHECKING:
    from rulesarchive.site_builder.pages import LanguagePages


class _Chapter(TypedDict):
    """A chapter on the list of chapters."""

    heading: Heading
    href: str


class _Section(TypedDict):
    """A section on the list of chapters, with its chapters."""

    heading: Heading
    chapters: list[_Chapter]


class _ChapterRule(TypedDict):
    """A rule on its chapter's page, with its sub-rules."""

    rule: Rule
    href: str
    text_html: Markup
    examples_html: list[Markup]
    children: list[_ChapterRule]


class IndexPages:
    """The index pages of a language."""

    def __init__(self, site: LanguagePages) -> None:
        self.site = site
        self._printed_in: dict[str, set[int]] | None = None

    def jobs(self) -> Iterator[Job | Memoised]:
        """Yield the chapter index, each chapter, the removed rules, the glossary pages and the
        words the search page corrects misspellings by."""
        yield self.chapters()
        for heading in self.site.data.headings:
            if len(heading.number) == 3:
                yield self.site.memoised(  # all a chapter shows is its language's releases
                    paths.chapter_page(self.site.language, heading.number),
                    self.site.releases_memo,
                    partial(self.chapter, heading.number, heading.title),
                )
        yield self.glossary_index()
        yield self.removed_rules()
        words = paths.search_words(self.site.language)
        yield self.site.memoised(
            words,
            self.site.releases_memo,
            lambda: self.site.data_file(words, vocabulary_json(self.site.data, self.site.newest)),
        )
        for term in self.site.data.glossary:
            yield self.memoised_term(term)
        for slug, (old, term) in self.site.renamed_terms.items():
            yield self.renamed_stub(slug, old, term)

    def chapters(self) -> Job:
        """Sections and chapters of the newest release."""
        page = f"{self.site.language}/chapters/index.html"
        sections: list[_Section] = []
        for heading in self.site.data.headings:
            if len(heading.number) == 1:
                sections.append({"heading": heading, "chapters": []})
            elif len(heading.number) == 3 and sections:
                href = paths.relative(page, paths.chapter_page(self.site.language, heading.number))
                sections[-1]["chapters"].append({"heading": heading, "href": href})
        return self.site.page(
            "chapters.html", page, title=self.site.t["chapters_title"], sections=sections
        )

    def chapter(self, chapter: str, title: str) -> Job:
        """The rules of one chapter in the newest release, rules with their sub-rules nested,
        their references linked, and each glossary term at its first use in a rule with its
        sub-rules (linked once a sub-rule too, as its own page does, chapter 702 would carry
        some 4,000 links, mostly to 'creature' and 'ability')."""
        page = paths.chapter_page(self.site.language, chapter)
        rules: list[_ChapterRule] = []
        newest = self.site.newest
        seen: set[str] = set()
        for line in sorted(self.site.current_by_chapter.get(chapter, ()), key=_line_order):
            parent = parent_of(line.rule.number)
            child = bool(rules) and parent is not None and rules[-1]["rule"].number == parent
            if not child:
                seen = set()
            item: _ChapterRule = {
                "rule": line.rule,
                "href": self.site.line_href(page, line),
                "text_html": self.site.refs.html(page, line.rule.printed_text, newest, seen),
                "examples_html": [
                    self.site.refs.html(page, example, newest, seen)
                    for example in line.rule.printed_examples
                ],
                "children": [],
            }
            (rules[-1]["children"] if child else rules).append(item)
        return self.site.page(
            "chapter.html",
            page,
            title=f"{chapter}. {title}",
            chapter=chapter,
            rules=rules,
            releases=self._chapter_in_releases(page, chapter),
        )

    def _chapter_in_releases(self, page: str, chapter: str) -> list[Context]:
        """The releases printing a chapter of this number, newest first, each linked to the
        chapter in the release read whole."""
        if self._printed_in is None:  # the chapters of each release, from its rules' numbers
            self._printed_in = {}
            for line in self.site.data.lines:
                for stretch in line.stretches:
                    held = self._printed_in.setdefault(stretch.rule.number[:3], set())
                    held.update(range(stretch.first, stretch.last + 1))
        releases = self.site.data.releases
        return [
            {
                "release": releases[index],
                "href": paths.relative(page, paths.document_page(releases[index])) + f"#{chapter}",
            }
            for index in sorted(self._printed_in.get(chapter, ()), reverse=True)
        ]

    def glossary_index(self) -> Job:
        """The current glossary with its definitions (searchable), then the removed terms."""
        page = f"{self.site.language}/glossary/index.html"
        current, removed = [], []
        for term in sorted(self.site.data.glossary, key=lambda term: term.key):
            _first, last, entry = term.stretches[-1]
            view = {
                "entry": entry,
                "slug": self.site.term_slugs[term],
                "href": paths.relative(page, self._glossary_path(term)),
            }
            if last == self.site.newest:
                current.append(
                    view | {"text_html": self.site.refs.html(page, entry.printed_text, last)}
                )
            else:
                removed.append(view)
        return self.site.page(
            "glossary_index.html",
            page,
            title=self.site.t["glossary_title"],
            current=current,
            removed=removed,
        )

    def removed_rules(self) -> Job:
        """Every rule no longer printed, as it last read (searchable), in rule order."""
        page = f"{self.site.language}/removed.html"
        gone = sorted(
            (line for line in self.site.data.lines if line.last < self.site.newest),
            key=lambda line: (rule_sort_key(line.rule.number), line.last),
        )
        rules = [
            {
                "line": line,
                "href": self.site.line_href(page, line),
                "last": self.site.data.releases[line.last],
                "successors": self.site.successors(page, line),
                "text_html": self.site.refs.html(page, line.rule.printed_text, line.last),
            }
            for line in gone
        ]
        return self.site.page(
            "removed.html", page, title=self.site.t["removed_rules_title"], rules=rules
        )

    def renamed_stub(self, slug: str, old: str, term: GlossaryLine) -> Job:
        """The page of a term's old name `old` (its page before the term was renamed):
        redirects to the term's page, so an old link keeps working."""
        page = paths.glossary_page(self.site.language, slug)
        target = self._glossary_path(term)
        name = term.stretches[-1][2].term
        return self.site.page(
            "number.html",
            page,
            canonical=self.site.base_url + target if self.site.base_url else "",
            title=name,
            said=self.site.t["term_renamed"].format(old=old, term=name),
            target=paths.relative(page, target),
        )

    def _glossary_path(self, term: GlossaryLine) -> str:
        return paths.glossary_page(self.site.language, self.site.term_slugs[term])

    def memoised_term(self, term: GlossaryLine) -> Memoised:
        """A glossary term's page known by its language's releases, or, for a term the newest
        release did not change, by less (`_since_last_change`)."""
        unchanged = term.stretches[-1][0] < self.site.newest
        return self.site.memoised(
            self._glossary_path(term),
            (self.site.releases_memo, term.key),
            partial(self.glossary_term, term),
            finer=partial(self._since_last_change, term) if unchanged else None,
        )

    def _since_last_change(self, term: GlossaryLine) -> tuple[object, ...]:
        """What the page of a term the newest release did not change is made from: its
        versions as the releases up to its last change say, each linked at its release (not
        the newest, so with version anchors), and its text as the newest release links it,
        if it is current (else the release that dropped it says all the page shows). See
        `RulePages.memoised_rule`."""
        data = self.site.data
        first, last, entry = term.stretches[-1]
        if last < self.site.newest:
            return ("gone", data.prefix[last + 1], term.key)
        text = self.site.refs.html(self._glossary_path(term), entry.printed_text, last)
        return ("current", data.prefix[first], first, term.key, text)

    def glossary_term(self, term: GlossaryLine) -> Job:
        """One glossary term and its history, newest first, each change as a word diff."""
        entry = term.stretches[-1][2]
        page = self._glossary_path(term)
        history = []
        for position, (first, _last, version) in enumerate(term.stretches):
            before = term.stretches[position - 1] if position else None
            typography = before is not None and before[2].text == version.text
            renamed = before is not None and term_key(before[2].term) != term_key(version.term)
            if before is not None and not typography:
                diff = self.site.refs.links.word_diff(before[2].text, version.text)
                text = self.site.refs.diff_html(page, diff, first, before[1])
            else:
                text = self.site.refs.html(page, version.printed_text, first)
            history.append(
                {
                    "release": self.site.data.releases[first],
                    "entry": version,
                    "text_html": text,
                    "diff": before is not None and not typography,
                    "first": before is None,
                    "typography": typography and not renamed,
                    "renamed": (
                        self.site.t["term_renamed_kind"].format(
                            old=before[2].term, term=version.term
                        )
                        if before is not None and renamed
                        else ""
                    ),
                }
            )
        return self.site.page(
            "glossary_term.html",
            page,
            title=entry.term,
            entry=entry,
            text_html=self.site.refs.html(page, entry.printed_text, term.stretches[-1][1]),
            current=term.stretches[-1][1] == self.site.newest,
            history=list(reversed(history)),
        )


def _line_order(line: Line) -> tuple[int, int, int, str]:
    return rule_sort_key(line.rule.number)
