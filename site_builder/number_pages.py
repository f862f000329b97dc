"""The number pages of a language: one static page per number, and the page that looks one up."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING

from rulesarchive.differ.lineage import Line
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.render import Job, Memoised

if TYPE_CHECKING:
    from rulesarchive.site_builder.pages import LanguagePages


class NumberPages:
    """The number pages of a language."""

    def __init__(self, site: LanguagePages) -> None:
        self.site = site

    def jobs(self) -> Iterator[Job | Memoised]:
        """Yield a page per rule, chapter and section number, and the lookup page.

        A rule number's page is known by its language's releases (which are all it shows,
        but its links), so a translation that gained no release works none out again.
        """
        data = self.site.data
        for number in data.holders:
            page = paths.number_page(self.site.language, number)
            yield self.site.memoised(
                page, self.site.releases_memo, partial(self.number_stub, number)
            )
        for heading in data.headings:
            if len(heading.number) in (1, 3) and heading.number not in data.holders:
                yield self.chapter_stub(heading.number)
        for alias, line_id in data.aliases.items():
            if line_id in data.by_id:
                yield self.alias_stub(alias, data.by_id[line_id])
        yield self.goto()

    def number_periods(self, number: str) -> list[tuple[Line, int, int]]:
        """Return who held a number, as (line, first, last) periods, the newest holder first."""
        periods: list[tuple[Line, int, int]] = []
        for line in self.site.data.holders[number]:
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

    def number_stub(self, number: str) -> Job:
        """The page of a rule number: redirects to the rule holding it in the newest release.

        A number no rule holds now leads to the rule that held it last; every holder is listed.
        """
        page = paths.number_page(self.site.language, number)
        periods = self.number_periods(number)
        rows = [
            {
                "number": line.rule.number,
                "href": self.site.line_href(page, line),
                "since": self.site.data.releases[first].effective_date,
                # A current holder shows "now": its last release is not on the page.
                "until": None
                if last == self.site.newest
                else self.site.data.releases[last].effective_date,
                "current": last == self.site.newest,
            }
            for line, first, last in periods
        ]
        held = periods[0][0]
        return self.site.page(
            "number.html",
            page,
            canonical=self.site.base_url + paths.rule_page(self.site.language, held)
            if self.site.base_url
            else "",
            title=self.site.t["rule_title"].format(number=number),
            number=number,
            rows=rows,
            target=rows[0]["href"],
        )

    def chapter_stub(self, number: str) -> Job:
        """The page of a section or chapter number: redirects to where it is listed."""
        page = paths.number_page(self.site.language, number)
        if len(number) == 3:
            target, anchor = paths.chapter_page(self.site.language, number), ""
        else:
            target, anchor = f"{self.site.language}/chapters/index.html", f"#s{number}"
        return self.site.page(
            "number.html",
            page,
            canonical=self.site.base_url + target + anchor if self.site.base_url else "",
            title=self.site.t["rule_title"].format(number=number),
            number=number,
            rows=[],
            target=paths.relative(page, target) + anchor,
        )

    def alias_stub(self, alias: str, line: Line) -> Job:
        """The page of a retired id (one that turned out to name the same rule as another):
        redirects to the rule's permanent page, so an old link keeps working."""
        page = paths.rule_page_of(self.site.language, alias)
        target = paths.rule_page(self.site.language, line)
        return self.site.page(
            "number.html",
            page,
            canonical=self.site.base_url + target if self.site.base_url else "",
            title=self.site.t["rule_title"].format(number=line.rule.number),
            number=line.rule.number,
            rows=[],
            target=paths.relative(page, target),
        )

    def goto(self) -> Job:
        """The page that resolves a rule number typed in the header."""
        fallback = ["en"] if self.site.language != "en" and "en" in self.site.languages else []
        return self.site.page(
            "goto.html",
            f"{self.site.language}/goto.html",
            title=self.site.t["goto_title"],
            canonical="",
            lookup_languages=[self.site.language, *fallback],
        )
