"""The number pages of a language: one static page per number, and the page that looks one up."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rulesarchive.differ.lineage import Line
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.render import Job, Memoised

if TYPE_CHECKING:
    from rulesarchive.site_builder.pages import LanguagePages


class NumberPages:
    """The number lookup of a language: one map of every number to who held it, read by the
    page that resolves a number (`goto.html?n=`, and `404.html` for the old `n/<number>/`
    addresses), instead of a page per number (12,500 files on the real archive)."""

    def __init__(self, site: LanguagePages) -> None:
        self.site = site

    def jobs(self) -> Iterator[Job | Memoised]:
        """Yield the number map, the lookup page and each retired id's redirect.

        The map is known by its language's releases (which are all it shows), so a
        translation that gained no release works none out again.
        """
        data = self.site.data
        path = paths.number_map(self.site.language)
        yield self.site.memoised(
            path,
            self.site.releases_memo,
            lambda: self.site.data_file(path, self.number_map()),
        )
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

    def number_map(self) -> str:
        """The script of the language's numbers: each rule number with who held it, as
        `[line id, first release, last release or null while it holds it now]` periods, the
        newest first (and the rule's number now, where it is another); each chapter and
        section number with 0 (it opens its chapter page)."""
        releases = self.site.data.releases
        found: dict[str, object] = {
            number: [
                [
                    line.id,
                    releases[first].effective_date.isoformat(),
                    None if last == self.site.newest else releases[last].effective_date.isoformat(),
                    *([line.rule.number] if line.rule.number != number else []),
                ]
                for line, first, last in self.number_periods(number)
            ]
            for number in self.site.data.holders
        }
        for heading in self.site.data.headings:
            if len(heading.number) in (1, 3) and heading.number not in found:
                found[heading.number] = 0
        key = json.dumps(self.site.language)
        body = json.dumps(dict(sorted(found.items())), separators=(",", ":"))
        prefix = "window.RULESARCHIVE_NUMBERS=window.RULESARCHIVE_NUMBERS||{};"
        return f"{prefix}window.RULESARCHIVE_NUMBERS[{key}]={body};"

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
            target=paths.relative(page, target),
        )

    def goto(self) -> Job:
        """The page that resolves a rule number typed in the header (or in an old address)."""
        fallback = ["en"] if self.site.language != "en" and "en" in self.site.languages else []
        return self.site.page(
            "goto.html",
            f"{self.site.language}/goto.html",
            title=self.site.t["goto_title"],
            canonical="",
            lookup_languages=[self.site.language, *fallback],
        )
