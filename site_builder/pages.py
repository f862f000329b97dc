"""Turn one language's gathered history into page contexts, rendered through the templates."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import partial

from jinja2 import Environment
from markupsafe import Markup
from rulesarchive.corpus.model import Release
from rulesarchive.corpus.numbers import cited_numbers, parent_of, rule_sort_key
from rulesarchive.differ.align import compact_ranges
from rulesarchive.differ.classify import Change, ReleaseDiff
from rulesarchive.differ.glossary import GlossaryChange, term_key
from rulesarchive.differ.history import History, Version
from rulesarchive.differ.lineage import Line, line_versions
from rulesarchive.differ.report import history_data
from rulesarchive.differ.translations import TranslationReport
from rulesarchive.differ.words import diff_words
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.changelog import FOLDED, change_page, is_split, part_of, part_page
from rulesarchive.site_builder.condense import condense
from rulesarchive.site_builder.gather import GlossaryLine, Language
from rulesarchive.site_builder.history_view import example_diffs, renumbered_positions
from rulesarchive.site_builder.refs import References
from rulesarchive.site_builder.render import LANGUAGE_NAMES, Job, Page, code_version, messages
from rulesarchive.site_builder.translations import Counterpart, Pairing

SHOWN_FIRST = ("substantive", "added", "removed", "reference", "example")


class LanguagePages:
    """Every page of one language."""

    def __init__(
        self,
        env: Environment,
        data: Language,
        languages: list[str],
        pairing: Pairing | None = None,
        report: TranslationReport | None = None,
        english: Language | None = None,
        base_url: str = "",
    ) -> None:
        self.base_url = base_url  # absolute links (canonical, alternates) start with it
        self.version = (code_version(), tuple(languages), base_url)
        self.lastmod: dict[str, dt.date] = {}  # page -> when what it shows last changed
        self.pairing = pairing or Pairing()
        self.report = report  # of the newest release, for a translated language
        self.english = english  # for a translated language: where English changes are listed
        self.t = messages(data.language)
        self.env = env
        self.data = data
        self.language = data.language
        self.languages = languages
        self.newest = len(data.releases) - 1
        self.cited_by = self._cited_by()
        self._versions: dict[str, tuple[Version, ...]] = {}
        # Current terms take their slugs first: a term keeps its slug whatever came and went.
        newest_first = sorted(data.glossary, key=lambda term: term.stretches[-1][1] != self.newest)
        self.glossary_slugs = paths.glossary_slugs([term.key for term in newest_first])
        self.refs = References(
            data,
            {
                key: paths.glossary_page(data.language, slug)
                for key, slug in self.glossary_slugs.items()
            },
        )
        self.index_of = {release.effective_date: i for i, release in enumerate(data.releases)}
        self.current_by_chapter: dict[str, list[Line]] = {}
        for line in data.lines:
            if line.last == self.newest:
                self.current_by_chapter.setdefault(line.rule.number[:3], []).append(line)

    def versions(self, line: Line) -> tuple[Version, ...]:
        """Return a line's versions (worked out once per build)."""
        if line.id not in self._versions:
            self._versions[line.id] = line_versions(line, self.data.releases)
        return self._versions[line.id]

    # -- shared -----------------------------------------------------------------------------

    def render(self, template: str, path: str, root: str | None = None, **context) -> Page:
        """Render a template for the page at `path` (links relative to it unless `root`)."""
        context.setdefault("switches", [])
        context.setdefault("description", context.get("title", ""))
        context.setdefault("canonical", self.base_url + path if self.base_url else "")
        context.setdefault("alternates", [])
        context.setdefault("og_type", "website")
        html = self.env.get_template(template).render(
            root=paths.root_of(path) if root is None else root,
            language=self.language,
            lang_attr=self.language,
            t=messages(self.language),
            **context,
        )
        return Page(path, html)

    def line_href(self, page: str, line: Line | None) -> str:
        """Link from `page` to a line's rule page ('' for no line)."""
        return paths.relative(page, paths.rule_page(self.language, line)) if line else ""

    def jobs(self) -> Iterator[Job]:
        """Yield every file of the language as a job: its path, its inputs' fingerprint, how."""
        everything = self.data.prefix[-1]  # pages that show the language as a whole
        yield self._job(paths.language_home(self.language), everything, self.language_home)
        for index in range(len(self.data.releases)):
            page = paths.release_page(self.data.releases[index])
            inputs = (self.data.prefix[index], index == self.newest)
            yield self._job(page, inputs, partial(self.release, index), index)
            for part in self.release_parts(index):
                yield self._job(
                    part_page(self.data.releases[index], part),
                    inputs,
                    partial(self.release, index, part),
                )
        for line in self.data.lines:
            current = line.last == self.newest
            yield self._job(
                paths.rule_page(self.language, line),
                self._rule_inputs(line),
                partial(self.rule, line),
                line.stretches[-1].first if current else line.last + 1,
            )
        for chapter, lines in self.history_bundles().items():
            yield self._job(
                paths.history_data(self.language, chapter),
                [self._version_inputs(line) for line in lines],
                partial(self.history_json, lines),
            )
        for number in self.data.holders:
            periods = [
                (line.id, line.rule.number, first, last, last == self.newest)
                for line, first, last in self.number_periods(number)
            ]
            yield self._job(
                paths.number_page(self.language, number),
                (number, periods, self._labels(i for p in periods for i in p[2:4])),
                partial(self.number_stub, number),
            )
        for heading in self.data.headings:
            if len(heading.number) in (1, 3) and heading.number not in self.data.holders:
                yield self._job(
                    paths.number_page(self.language, heading.number),
                    heading.number,
                    partial(self.chapter_stub, heading.number),
                )
        yield self._job(f"{self.language}/chapters/index.html", everything, self.chapters)
        for heading in self.data.headings:
            if len(heading.number) == 3:
                yield self._job(
                    paths.chapter_page(self.language, heading.number),
                    everything,
                    partial(self.chapter, heading.number, heading.title),
                )
        yield self._job(f"{self.language}/glossary/index.html", everything, self.glossary_index)
        yield self._job(f"{self.language}/removed.html", everything, self.removed_rules)
        for term in self.data.glossary:
            inputs = (
                self.glossary_slugs[term.key],
                [(self._labels([first]), entry) for first, _, entry in term.stretches],
                term.stretches[-1][1] == self.newest,
                self.refs.html(
                    self._glossary_path(term),
                    term.stretches[-1][2].printed_text,
                    term.stretches[-1][1],
                ),
            )
            yield self._job(self._glossary_path(term), inputs, partial(self.glossary_term, term))
        if self.report is not None:
            yield self._job(
                f"{self.language}/translation.html",
                (everything, repr(self.report), self.english and self.english.prefix[-1]),
                self.translation,
            )
        yield self._job(f"{self.language}/compare.html", everything, self.compare)
        yield self._job(f"{self.language}/goto.html", everything, self.goto)

    def _job(
        self,
        path: str,
        inputs: object,
        render: Callable[[], Page | str],
        modified: int | None = None,
    ) -> Job:
        """Make a job; `modified`: the release whose changes the page shows last (sitemap)."""
        index = self.newest if modified is None else modified
        self.lastmod[path] = self.data.releases[index].effective_date
        digest = hashlib.sha1(repr((self.version, path, inputs)).encode()).hexdigest()
        return Job(path, digest, render)

    def _labels(self, indexes: Iterable[int]) -> list[tuple]:
        releases = self.data.releases
        return [
            (releases[i].effective_date, releases[i].set_code, releases[i].set_name)
            for i in indexes
        ]

    def _rule_inputs(self, line: Line) -> tuple:
        cites, cited_by = self._citations(line)
        translations = [self._shown(c) for c in self._counterparts(line)]
        translated = self._translated(line)
        current = line.last == self.newest
        page = paths.rule_page(self.language, line)
        return (
            self._version_inputs(line),
            self._linked_rule(page, line),
            self._neighbours(page, line),
            current,
            None if current else self._labels([line.last]),  # shown only for a removed rule
            cites,
            cited_by,
            translations,
            translated and self._shown(translated),
        )

    def _shown(self, c: Counterpart) -> tuple:
        """What a page shows of a counterpart (not its base: the status page has that)."""
        since = c.stale_since and self._label(c.stale_since)
        return (
            c.language,
            c.line_id,
            c.rule,
            self._label(c.release),
            c.english,
            c.status,
            since,
            c.problems,
            c.english_line_id,
            c.change,
        )

    @staticmethod
    def _label(release: Release) -> tuple:
        return (release.language, release.effective_date, release.set_code, release.set_name)

    def _version_inputs(self, line: Line) -> tuple:
        return (
            line.id,
            [(self._labels([s.first]), s.rule) for s in line.stretches],
            line.first > 0,
        )

    def _citations(self, line: Line) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        rule = line.rule
        cites = []
        for number in cited_numbers(rule.text + " " + " ".join(rule.examples)):
            target = self.data.holder(number, line.last)
            cites.append((number, target.id if target else ""))
        cited_by = sorted(
            ((other.rule.number, other.id) for other in self.cited_by.get(line.id, ())),
            key=lambda pair: rule_sort_key(pair[0]),
        )
        return cites, cited_by

    def _english_view(self, page: str, line: Line) -> dict | None:
        """On a translated rule's page: the English it translates, and whether it moved on."""
        translated = self._translated(line)
        if translated is None:
            return None
        return {
            "counterpart": translated,
            "href": paths.relative(page, f"en/r/{translated.english_line_id}/index.html"),
            "since_href": _relative_change(page, translated),
        }

    def _counterparts(self, line: Line) -> list:
        return self.pairing.by_english.get(line.id, []) if self.language == "en" else []

    def _translated(self, line: Line) -> Counterpart | None:
        """For a translated rule: its English counterpart and status."""
        return self.pairing.by_translation.get((self.language, line.id))

    def _alternates(self, switches: list[dict]) -> list[dict]:
        """The same page in every language, as absolute links (hreflang alternates)."""
        if not self.base_url:
            return []
        return [{"language": s["language"], "href": self.base_url + s["path"]} for s in switches]

    def _switches(self, page: str, line: Line) -> list[dict]:
        """Links to the same rule in the other languages (the language switch)."""
        if self.language == "en":
            others = [(c.language, c.line_id) for c in self._counterparts(line)]
            if not others:
                return []
            return [_switch("en", "", True, page)] + [
                _switch(
                    lang,
                    paths.relative(page, f"{lang}/r/{line_id}/index.html"),
                    False,
                    f"{lang}/r/{line_id}/index.html",
                )
                for lang, line_id in others
            ]
        translated = self._translated(line)
        if translated is None:
            return []
        english = translated.english_line_id
        return [
            _switch(
                "en",
                paths.relative(page, f"en/r/{english}/index.html"),
                False,
                f"en/r/{english}/index.html",
            ),
            _switch(self.language, "", True, page),
        ]

    def translation(self) -> Page:
        """A translated language's status against English: stale, missing, extra, to check."""
        page = f"{self.language}/translation.html"
        report = self.report
        assert report is not None
        rows = []
        for status in report.rules:
            line = self.data.holder(status.number, self.newest)
            rows.append(
                {
                    "status": status,
                    "href": self.line_href(page, line),
                    "english_href": paths.relative(
                        page, paths.number_page("en", status.english_number or status.number)
                    ),
                    "since_href": self._english_change(
                        page, status.stale_since, status.english_number or status.number
                    ),
                }
            )
        return self.render(
            "translation.html",
            page,
            title=self.t["translation_title"].format(
                language=LANGUAGE_NAMES.get(self.language, self.language)
            ),
            report=report,
            counts=report.counts,
            rows=rows,
        )

    def _english_change(self, page: str, release: Release | None, number: str) -> str:
        """Link to where an English release's changelog lists a rule's change."""
        if release is None or self.english is None:
            return ""
        diff = self.english.diffs[self.english.releases.index(release)]
        return paths.relative(page, change_page(release, diff, number))

    def compare(self) -> Page:
        """The page that compares any two releases in the browser."""
        return self.render(
            "compare.html",
            f"{self.language}/compare.html",
            title=self.t["compare_title"],
            releases=self.release_rows(),
        )

    def goto(self) -> Page:
        """The page that resolves a rule number typed in the header."""
        fallback = ["en"] if self.language != "en" and "en" in self.languages else []
        return self.render(
            "goto.html",
            f"{self.language}/goto.html",
            title=self.t["goto_title"],
            canonical="",
            lookup_languages=[self.language, *fallback],
        )

    def history_bundles(self) -> dict[str, list[Line]]:
        """Group the lines by the chapter of their last number (one history file per chapter)."""
        bundles: dict[str, list[Line]] = {}
        for line in self.data.lines:
            bundles.setdefault(line.rule.number[:3], []).append(line)
        return bundles

    def history_json(self, lines: list[Line]) -> str:
        """A chapter's rule histories as JSON: line id -> the keys of `history --format json`."""
        body = {}
        for line in lines:
            history = History(line.rule.number, line.numbers, self.versions(line))
            body[line.id] = {
                "id": line.id,
                "page": paths.rule_page(self.language, line),
                **history_data(history),
            }
        return json.dumps(body, ensure_ascii=False)

    # -- releases ---------------------------------------------------------------------------

    def release_rows(self) -> list[dict]:
        rows = []
        for index, release in enumerate(self.data.releases):
            counts = _counts(self.data.diffs[index])
            rows.append(
                {
                    "release": release,
                    "href_from_root": paths.release_page(release),
                    "substantive": counts["substantive"] + counts["sweep"],
                    "added": counts["added"],
                    "removed": counts["removed"],
                }
            )
        return list(reversed(rows))

    def language_home(self) -> Page:
        """The language's releases, newest first."""
        return self.render(
            "releases.html",
            paths.language_home(self.language),
            title=self.t["releases_title"].format(
                language=LANGUAGE_NAMES.get(self.language, self.language)
            ),
            rows=self.release_rows(),
            translation_href="translation.html" if self.report is not None else "",
        )

    def release_parts(self, index: int) -> list[str]:
        """The parts of a split changelog: sections with changes, renumbering, glossary."""
        diff = self.data.diffs[index]
        if diff is None or not is_split(diff):
            return []
        numbers = (c.new_number or c.old_number or "" for c in diff.changes if c.kind not in FOLDED)
        parts = sorted({part_of(number) for number in numbers})
        if diff.renumbering:
            parts.append("renumbering")
        if any(entry.kind not in FOLDED for entry in diff.glossary):
            parts.append("glossary")
        return parts

    def release(self, index: int, part: str | None = None) -> Page:
        """A release's changelog against the release before it (or one part of a long one)."""
        release = self.data.releases[index]
        diff = self.data.diffs[index]
        split = is_split(diff)
        page = part_page(release, part) if part else paths.release_page(release)
        previous = self.data.releases[index - 1] if index else None
        groups: dict[str, list[dict]] = {kind: [] for kind in (*SHOWN_FIRST, "sweep", *FOLDED)}
        counts: dict[str, Counter[str]] = {}
        for change in diff.changes if diff else ():
            number = change.new_number or change.old_number or ""
            if split and change.kind not in FOLDED:
                counts.setdefault(part_of(number), Counter())[change.kind] += 1
                if part != part_of(number):
                    continue
            elif part is not None:
                continue
            groups.setdefault(change.kind, []).append(self._change_view(page, index, change))
        whole = part is None and not split  # one page holds everything
        parts = (
            [
                {
                    "part": name,
                    "href": paths.relative(page, part_page(release, name)),
                    "summary": ", ".join(
                        f"{counts[name][kind]} {self.t['kinds'][kind]}"
                        for kind in (*SHOWN_FIRST, "sweep")
                        if counts.get(name, Counter())[kind]
                    ),
                }
                for name in self.release_parts(index)
            ]
            if part is None
            else []
        )
        glossary = [
            self._glossary_view(page, index, entry)
            for entry in (diff.glossary if diff else ())
            if entry.kind not in FOLDED
        ]
        return self.render(
            "release.html",
            page,
            title=f"{release.effective_date} {release.set_name}".strip(),
            release=release,
            part=part,
            parts=parts,
            main_href=paths.relative(page, paths.release_page(release)),
            previous=previous,
            previous_href=paths.relative(page, paths.release_page(previous)) if previous else "",
            groups=groups,
            shown_first=SHOWN_FIRST,
            sweeps=diff.sweeps if diff and part is None else (),
            renumbering=compact_ranges(diff.renumbering)
            if diff and (whole or part == "renumbering")
            else [],
            splits=diff.splits if diff and part is None else (),
            merges=diff.merges if diff and part is None else (),
            glossary=glossary if whole or part == "glossary" else [],
            unchanged=diff.unchanged if diff else release.rule_count,
            ref=lambda text, old=False: self.refs.html(page, text, index - 1 if old else index),
            anchor=lambda number: paths.relative(page, change_page(release, diff, number)),
            compare_href=paths.relative(page, f"{self.language}/compare.html"),
            json_href=paths.relative(page, f"data/{self.language}/{release.effective_date}.js"),
        )

    def _change_view(self, page: str, index: int, change: Change) -> dict:
        if change.new_number:
            line = self.data.holder(change.new_number, index)
        else:
            line = self.data.holder(change.old_number or "", index - 1)
        refs = self.refs
        whole = ""
        if change.kind == "added":
            text = Markup("<ins>%s</ins>") % refs.html(page, change.new_text, index)
        elif change.kind == "removed":
            text = Markup("<del>%s</del>") % refs.html(page, change.old_text, index - 1)
        elif change.diff:
            text = refs.diff_html(page, change.diff, index)
            short = condense(change.diff)
            if short is not None:
                text, whole = refs.diff_html(page, short, index), text
        else:
            text = refs.html(page, change.new_text, index)
        if change.kind == "example":
            examples = [refs.diff_html(page, pieces, index) for pieces in change.example_diffs]
        elif change.kind == "added":
            examples = [refs.diff_html(page, ((1, ex),), index) for ex in change.new_examples]
        elif change.kind == "removed":
            examples = [refs.diff_html(page, ((-1, ex),), index) for ex in change.old_examples]
        else:
            examples = []
        return {
            "change": change,
            "href": self.line_href(page, line),
            "text_html": text,
            "whole_html": whole,
            "examples_html": examples,
        }

    def _glossary_view(self, page: str, index: int, change: GlossaryChange) -> dict:
        refs = self.refs
        if change.diff:
            text = refs.diff_html(page, change.diff, index)
        elif change.kind == "added":
            text = Markup("<ins>%s</ins>") % refs.html(page, change.new_text, index)
        elif change.kind == "removed":
            text = Markup("<del>%s</del>") % refs.html(page, change.old_text, index - 1)
        else:
            text = Markup("")
        slug = self.glossary_slugs.get(term_key(change.new_term or change.old_term or ""))
        href = paths.relative(page, paths.glossary_page(self.language, slug)) if slug else ""
        return {"change": change, "text_html": text, "href": href}

    # -- rules ------------------------------------------------------------------------------

    def rule(self, line: Line) -> Page:
        """A rule's page: its current text, then its whole history, newest first."""
        page = paths.rule_page(self.language, line)
        releases = self.data.releases
        versions = self.versions(line)
        current = line.rule
        settled = next((v for v in reversed(versions) if v.kind not in FOLDED), versions[0])
        cite_pairs, cited_pairs = self._citations(line)
        lines = {
            other.id: other
            for other in self.data.lines_by_id(
                [i for _, i in cite_pairs if i] + [i for _, i in cited_pairs]
            )
        }
        cites = [{"number": n, "href": self.line_href(page, lines.get(i))} for n, i in cite_pairs]
        switches = self._switches(page, line)
        text_html, examples_html = self._linked_rule(page, line)
        return self.render(
            "rule.html",
            page,
            title=f"{current.number} {_short(current.printed_text)}",
            line=line,
            rule=current,
            text_html=text_html,
            examples_html=examples_html,
            neighbours=self._neighbours(page, line),
            current=line.last == self.newest,
            last_release=releases[line.last],
            first_release=releases[line.first],
            settled=settled,
            versions=self._version_views(page, versions),
            folded=FOLDED,
            cites=cites,
            cited_by=[
                {"number": n, "href": self.line_href(page, lines[i])} for n, i in cited_pairs
            ],
            data_href=paths.relative(page, paths.history_data(self.language, line.rule.number[:3])),
            translations=[
                {
                    "counterpart": counterpart,
                    "name": LANGUAGE_NAMES.get(counterpart.language, counterpart.language),
                    "href": paths.relative(
                        page, f"{counterpart.language}/r/{counterpart.line_id}/index.html"
                    ),
                    "since_href": _relative_change(page, counterpart),
                }
                for counterpart in self._counterparts(line)
            ],
            english=self._english_view(page, line),
            switches=switches,
            alternates=self._alternates(switches),
            description=_short(current.printed_text, 155),
            og_type="article",
        )

    def _linked_rule(self, page: str, line: Line) -> tuple[str, list[str]]:
        """A rule's text and examples as HTML: references linked, glossary terms once each."""
        seen: set[str] = set()
        rule = line.rule
        text = self.refs.html(page, rule.printed_text, line.last, seen)
        examples = [self.refs.html(page, ex, line.last, seen) for ex in rule.printed_examples]
        return text, examples

    def _neighbours(self, page: str, line: Line) -> list[dict]:
        """Links to the rule's parent and to the rules before and after it in its release."""
        number = line.rule.number
        order = self.data.numbers[line.last]
        position = order.index(number) if number in order else -1
        wanted = [("parent", parent_of(number) or "")]
        if position >= 0:
            wanted.append(("previous", order[position - 1] if position > 0 else ""))
            wanted.append(("next", order[position + 1] if position + 1 < len(order) else ""))
        found = []
        for role, other in wanted:
            if not other:
                continue
            if "." in other:
                target = self.refs.rule_target(other, line.last)
            else:
                target = self.refs.chapter_target(other, line.last)
            if target:
                found.append({"role": role, "number": other, "href": paths.relative(page, target)})
        return found

    def _version_views(self, page: str, versions: tuple[Version, ...]) -> list[dict]:
        """A rule's versions, newest first, as HTML with references linked in their release."""
        views = []
        changed_examples = example_diffs(versions)
        renumbered = renumbered_positions(versions)
        for position, version in enumerate(reversed(versions)):
            index = self.index_of[version.effective_date]
            before = self.index_of.get(version.compared_with, index - 1)
            shown = version.kind not in FOLDED
            if version.diff and shown:
                text = self.refs.diff_html(page, version.diff, index, before)
            else:
                text = self.refs.html(page, version.text, index)
            if position in changed_examples and shown:
                examples = [
                    self.refs.diff_html(page, pieces, index, before)
                    for pieces in changed_examples[position]
                ]
            else:
                examples = [self.refs.html(page, example, index) for example in version.examples]
            views.append(
                {
                    "version": version,
                    "anchor": f"v{version.effective_date.isoformat()}",
                    "text_html": text,
                    "examples_html": examples,
                    "renumbered": position in renumbered,
                }
            )
        return views

    def _cited_by(self) -> dict[str, list[Line]]:
        cited: dict[str, list[Line]] = {}
        for line in self.data.lines:
            rule = line.rule
            for number in cited_numbers(rule.text + " " + " ".join(rule.examples)):
                target = self.data.holder(number, line.last)
                if target is not None and target is not line and target.last == line.last:
                    cited.setdefault(target.id, []).append(line)
        return cited

    def number_periods(self, number: str) -> list[tuple[Line, int, int]]:
        """Return who held a number, as (line, first, last) periods, the newest holder first."""
        periods: list[tuple[Line, int, int]] = []
        for line in self.data.holders[number]:
            held = [s for s in line.stretches if s.rule.number == number]
            first, last = held[0].first, held[0].last
            for stretch in held[1:]:
                if stretch.first == last + 1:
                    last = stretch.last
                else:
                    periods.append((line, first, last))
                    first, last = stretch.first, stretch.last
            periods.append((line, first, last))
        return sorted(periods, key=lambda period: (-period[2], -period[1]))

    def number_stub(self, number: str) -> Page:
        """The page of a rule number: redirects to the rule holding it in the newest release.

        A number no rule holds now leads to the rule that held it last; every holder is listed.
        """
        page = paths.number_page(self.language, number)
        rows = [
            {
                "line": line,
                "href": self.line_href(page, line),
                "since": self.data.releases[first],
                "until": self.data.releases[last],
                "current": last == self.newest,
            }
            for line, first, last in self.number_periods(number)
        ]
        held = self.number_periods(number)[0][0]
        return self.render(
            "number.html",
            page,
            canonical=self.base_url + paths.rule_page(self.language, held) if self.base_url else "",
            title=self.t["rule_title"].format(number=number),
            number=number,
            rows=rows,
            target=rows[0]["href"],
        )

    def chapter_stub(self, number: str) -> Page:
        """The page of a section or chapter number: redirects to where it is listed."""
        page = paths.number_page(self.language, number)
        if len(number) == 3:
            target, anchor = paths.chapter_page(self.language, number), ""
        else:
            target, anchor = f"{self.language}/chapters/index.html", f"#s{number}"
        return self.render(
            "number.html",
            page,
            canonical=self.base_url + target + anchor if self.base_url else "",
            title=self.t["rule_title"].format(number=number),
            number=number,
            rows=[],
            target=paths.relative(page, target) + anchor,
        )

    # -- indexes ----------------------------------------------------------------------------

    def chapters(self) -> Page:
        """Sections and chapters of the newest release."""
        page = f"{self.language}/chapters/index.html"
        sections = []
        for heading in self.data.headings:
            if len(heading.number) == 1:
                sections.append({"heading": heading, "chapters": []})
            elif len(heading.number) == 3 and sections:
                href = paths.relative(page, paths.chapter_page(self.language, heading.number))
                sections[-1]["chapters"].append({"heading": heading, "href": href})
        return self.render("chapters.html", page, title=self.t["chapters_title"], sections=sections)

    def chapter(self, chapter: str, title: str) -> Page:
        """The rules of one chapter in the newest release, rules with their sub-rules nested."""
        page = paths.chapter_page(self.language, chapter)
        rules: list[dict] = []
        for line in sorted(self.current_by_chapter.get(chapter, ()), key=_line_order):
            item = {
                "rule": line.rule,
                "href": self.line_href(page, line),
                "text_html": self.refs.html(page, line.rule.printed_text, self.newest),
                "examples_html": [
                    self.refs.html(page, example, self.newest)
                    for example in line.rule.printed_examples
                ],
                "children": [],
            }
            parent = parent_of(line.rule.number)
            if rules and parent is not None and rules[-1]["rule"].number == parent:
                rules[-1]["children"].append(item)
            else:
                rules.append(item)
        return self.render(
            "chapter.html", page, title=f"{chapter}. {title}", chapter=chapter, rules=rules
        )

    def glossary_index(self) -> Page:
        """The current glossary with its definitions (searchable), then the removed terms."""
        page = f"{self.language}/glossary/index.html"
        current, removed = [], []
        for term in sorted(self.data.glossary, key=lambda term: term.key):
            _first, last, entry = term.stretches[-1]
            view = {
                "entry": entry,
                "slug": self.glossary_slugs[term.key],
                "href": paths.relative(page, self._glossary_path(term)),
            }
            if last == self.newest:
                current.append(view | {"text_html": self.refs.html(page, entry.printed_text, last)})
            else:
                removed.append(view)
        return self.render(
            "glossary_index.html",
            page,
            title=self.t["glossary_title"],
            current=current,
            removed=removed,
        )

    def removed_rules(self) -> Page:
        """Every rule no longer printed, as it last read (searchable), in rule order."""
        page = f"{self.language}/removed.html"
        gone = sorted(
            (line for line in self.data.lines if line.last < self.newest),
            key=lambda line: (rule_sort_key(line.rule.number), line.last),
        )
        rules = [
            {
                "line": line,
                "href": self.line_href(page, line),
                "last": self.data.releases[line.last],
                "text_html": self.refs.html(page, line.rule.printed_text, line.last),
            }
            for line in gone
        ]
        return self.render("removed.html", page, title=self.t["removed_rules_title"], rules=rules)

    def _glossary_path(self, term: GlossaryLine) -> str:
        return paths.glossary_page(self.language, self.glossary_slugs[term.key])

    def glossary_term(self, term: GlossaryLine) -> Page:
        """One glossary term and its history, newest first, each change as a word diff."""
        entry = term.stretches[-1][2]
        page = self._glossary_path(term)
        history = []
        for position, (first, _last, version) in enumerate(term.stretches):
            before = term.stretches[position - 1] if position else None
            typography = before is not None and before[2].text == version.text
            if before is not None and not typography:
                diff = diff_words(before[2].text, version.text)
                text = self.refs.diff_html(page, diff, first, before[1])
            else:
                text = self.refs.html(page, version.printed_text, first)
            history.append(
                {
                    "release": self.data.releases[first],
                    "entry": version,
                    "text_html": text,
                    "diff": before is not None and not typography,
                    "first": before is None,
                    "typography": typography,
                }
            )
        return self.render(
            "glossary_term.html",
            page,
            title=entry.term,
            entry=entry,
            text_html=self.refs.html(page, entry.printed_text, term.stretches[-1][1]),
            current=term.stretches[-1][1] == self.newest,
            history=list(reversed(history)),
        )


def _relative_change(page: str, counterpart: Counterpart) -> str:
    if not counterpart.change:
        return ""
    target, anchor = counterpart.change.split("#")
    return f"{paths.relative(page, target)}#{anchor}"


def _switch(language: str, href: str, current: bool, path: str) -> dict:
    return {
        "language": language,
        "name": LANGUAGE_NAMES.get(language, language),
        "href": href,
        "current": current,
        "path": path,  # from the site root, for the absolute alternates in <head>
    }


def _counts(diff: ReleaseDiff | None) -> Counter[str]:
    return Counter(change.kind for change in diff.changes) if diff else Counter()


def _line_order(line: Line) -> tuple:
    return rule_sort_key(line.rule.number)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1].rsplit(" ", 1)[0] + "…"
