"""The release pages of a language: its list of releases and each release's changelog."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from markupsafe import Markup
from rulesarchive.corpus.model import DocKind
from rulesarchive.differ.align import compact_ranges
from rulesarchive.differ.changes import Change
from rulesarchive.differ.classify import ReleaseDiff
from rulesarchive.differ.glossary import GlossaryChange, term_key
from rulesarchive.differ.kinds import GlossaryKind, Kind
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.changelog import (
    FOLDED,
    GLOSSARY_FOLDED,
    change_page,
    is_split,
    part_of,
    part_page,
)
from rulesarchive.site_builder.diff_excerpts import condense
from rulesarchive.site_builder.render import LANGUAGE_NAMES, Context, Job, Memoised

if TYPE_CHECKING:
    from rulesarchive.site_builder.pages import LanguagePages

SHOWN_FIRST = (Kind.SUBSTANTIVE, Kind.ADDED, Kind.REMOVED, Kind.REFERENCE, Kind.EXAMPLE)


class ReleasePages:
    """The release pages of a language."""

    def __init__(self, site: LanguagePages) -> None:
        self.site = site

    def jobs(self) -> Iterator[Job | Memoised]:
        """Yield the list of releases and every changelog (split ones part by part)."""
        yield self.language_home()
        for index in range(len(self.site.data.releases)):
            yield self.memoised(index)
            for part in self.release_parts(index):
                yield self.memoised(index, part)

    def memoised(self, index: int, part: str | None = None) -> Memoised:
        """A changelog known by what it is made from, so an unchanged one costs no word diffs.

        Its references lead to lines of descent as they stood in the release and the one
        before: those are the same for as long as every release up to this one is (`prefix`),
        but for the newest release, whose links carry no version anchor. The rest is the
        release's diff (from the same releases), its citation fixes, and the glossary pages
        its entries link to (the slugs are given out over every release).
        """
        data = self.site.data
        release = data.releases[index]
        diff = data.diffs[index]
        terms = [entry.new_term or entry.old_term or "" for entry in diff.glossary] if diff else []
        inputs = (
            data.prefix[index],
            release,
            data.releases[index - 1] if index else None,
            index == self.site.newest,
            part,
            sorted(self.site.citation_fixes.get(index, {}).items()),
            [self.site.glossary_slugs.get(term_key(term)) for term in terms],
        )
        page = part_page(release, part) if part else paths.release_page(release)
        return self.site.memoised(
            page, inputs, lambda: self.release(index, part), None if part else index
        )

    def release_rows(self) -> list[Context]:
        rows = []
        for index, release in enumerate(self.site.data.releases):
            counts = _counts(self.site.data.diffs[index])
            rows.append(
                {
                    "release": release,
                    "href_from_root": paths.release_page(release),
                    "whole_from_root": paths.document_page(release),
                    "substantive": counts[Kind.SUBSTANTIVE] + counts[Kind.SWEEP],
                    "added": counts[Kind.ADDED],
                    "removed": counts[Kind.REMOVED],
                }
            )
        return list(reversed(rows))

    def language_home(self) -> Job:
        """The language's releases, newest first."""
        return self.site.page(
            "releases.html",
            paths.language_home(self.site.language),
            title=self.site.t["releases_title"].format(
                language=LANGUAGE_NAMES.get(self.site.language, self.site.language)
            ),
            rows=self.release_rows(),
            translation_href="translation.html" if self.site.report is not None else "",
        )

    def release_parts(self, index: int) -> list[str]:
        """The parts of a split changelog: sections with changes, renumbering, glossary."""
        diff = self.site.data.diffs[index]
        if diff is None or not is_split(diff):
            return []
        numbers = (c.new_number or c.old_number or "" for c in diff.changes if c.kind not in FOLDED)
        parts = sorted({part_of(number) for number in numbers})
        if diff.renumbering:
            parts.append("renumbering")
        if any(entry.kind not in GLOSSARY_FOLDED for entry in diff.glossary):
            parts.append("glossary")
        return parts

    def release(self, index: int, part: str | None = None) -> Job:
        """A release's changelog against the release before it (or one part of a long one)."""
        release = self.site.data.releases[index]
        diff = self.site.data.diffs[index]
        split = is_split(diff)
        page = part_page(release, part) if part else paths.release_page(release)
        previous = self.site.data.releases[index - 1] if index else None
        groups: dict[str, list[Context]] = {
            kind: [] for kind in (*SHOWN_FIRST, Kind.SWEEP, *FOLDED)
        }
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
                        f"{counts[name][kind]} {self.site.t['kinds'][kind]}"  # type: ignore[index]
                        for kind in (*SHOWN_FIRST, Kind.SWEEP)
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
            if entry.kind not in GLOSSARY_FOLDED
        ]
        renumbering = (
            compact_ranges(diff.renumbering) if diff and (whole or part == "renumbering") else []
        )
        sweeps = diff.sweeps if diff and part is None else ()
        splits = diff.splits if diff and part is None else ()
        merges = diff.merges if diff and part is None else ()
        # Every text the template links, linked here: the page is its context.
        old_texts = [sweep.old for sweep in sweeps] + [old for old, _ in renumbering]
        new_texts = [sweep.new for sweep in sweeps] + [new for _, new in renumbering]
        for moved in (*splits, *merges):
            old_texts.append(", ".join(moved.old))
            new_texts.append(", ".join(moved.new))
        numbers = [number for sweep in sweeps for number in sweep.rules]
        return self.site.page(
            "release.html",
            page,
            modified=None if part else index,
            title=f"{release.effective_date} {release.set_name}".strip(),
            release=release,
            part=part,
            parts=parts,
            main_href=paths.relative(page, paths.release_page(release)),
            previous=previous,
            previous_href=paths.relative(page, paths.release_page(previous)) if previous else "",
            groups=groups,
            shown_first=SHOWN_FIRST,
            sweeps=sweeps,
            renumbering=renumbering,
            splits=splits,
            merges=merges,
            glossary=glossary if whole or part == "glossary" else [],
            unchanged=diff.unchanged if diff else release.rule_count,
            old_refs={text: self.site.refs.html(page, text, index - 1) for text in old_texts}
            | {s.old: self.site.refs.fragment_html(page, s.old, index - 1) for s in sweeps},
            new_refs={text: self.site.refs.html(page, text, index) for text in new_texts}
            | {s.new: self.site.refs.fragment_html(page, s.new, index) for s in sweeps},
            anchors={
                number: paths.relative(page, change_page(release, diff, number))
                for number in numbers
            },
            term_hrefs={
                term: self._term_href(page, term) for sweep in sweeps for term in sweep.glossary
            },
            compare_href=paths.relative(page, paths.compare_page(DocKind.CR, self.site.language)),
            json_href=paths.relative(
                page, f"data/{self.site.language}/{release.effective_date}.js"
            ),
            whole_href=paths.relative(page, paths.document_page(release)),
            check_href=paths.relative(
                page, f"{self.site.language}/releases/{release.effective_date}/check.html"
            ),
            fixes=self.site.citation_fixes.get(index, {}),
        )

    def _change_view(self, page: str, index: int, change: Change) -> Context:
        if change.new_number:
            line = self.site.data.holder(change.new_number, index)
        else:
            line = self.site.data.holder(change.old_number or "", index - 1)
        refs = self.site.refs
        whole = ""
        if change.kind == Kind.ADDED:
            text = Markup("<ins>%s</ins>") % refs.html(page, change.new_text, index)
        elif change.kind == Kind.REMOVED:
            text = Markup("<del>%s</del>") % refs.html(page, change.old_text, index - 1)
        elif change.diff:
            text = refs.diff_html(page, change.diff, index)
            short = condense(change.diff)
            if short is not None:
                text, whole = refs.diff_html(page, short, index), text
        else:
            text = refs.html(page, change.new_text, index)
        if change.kind == Kind.EXAMPLE:
            examples = [refs.diff_html(page, pieces, index) for pieces in change.example_diffs]
        elif change.kind == Kind.ADDED:
            examples = [refs.diff_html(page, ((1, ex),), index) for ex in change.new_examples]
        elif change.kind == Kind.REMOVED:
            examples = [refs.diff_html(page, ((-1, ex),), index) for ex in change.old_examples]
        else:
            examples = []
        return {
            "change": change,
            "href": self.site.line_href(page, line),
            "text_html": text,
            "whole_html": whole,
            "examples_html": examples,
        }

    def _glossary_view(self, page: str, index: int, change: GlossaryChange) -> Context:
        refs = self.site.refs
        if change.diff:
            text = refs.diff_html(page, change.diff, index)
        elif change.kind == GlossaryKind.ADDED:
            text = Markup("<ins>%s</ins>") % refs.html(page, change.new_text, index)
        elif change.kind == GlossaryKind.REMOVED:
            text = Markup("<del>%s</del>") % refs.html(page, change.old_text, index - 1)
        else:
            text = Markup("")
        href = self._term_href(page, change.new_term or change.old_term or "")
        return {"change": change, "text_html": text, "href": href}

    def _term_href(self, page: str, term: str) -> str:
        """Where a glossary term's page is, from `page` ('' when it has none)."""
        slug = self.site.glossary_slugs.get(term_key(term))
        return paths.relative(page, paths.glossary_page(self.site.language, slug)) if slug else ""


def _counts(diff: ReleaseDiff | None) -> Counter[str]:
    return Counter(change.kind for change in diff.changes) if diff else Counter()
