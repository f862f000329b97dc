"""The pages of a language about the language as a whole: translation status and compare."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rulesarchive.corpus.model import DocKind
from rulesarchive.differ.lineage import Line
from rulesarchive.differ.translations import RuleStatus
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.changelog import change_page
from rulesarchive.site_builder.release_pages import ReleasePages
from rulesarchive.site_builder.render import LANGUAGE_NAMES, Job

if TYPE_CHECKING:
    from rulesarchive.site_builder.pages import LanguagePages


class StatusPages:
    """The pages of a language about the language as a whole."""

    def __init__(self, site: LanguagePages) -> None:
        self.site = site

    def jobs(self) -> Iterator[Job]:
        """Yield the translation status (of a translated language) and the compare page."""
        if self.site.report is not None:
            yield self.translation()
        yield self.compare()

    def translation(self) -> Job:
        """A translated language's status against English: stale, missing, extra, to check."""
        page = f"{self.site.language}/translation.html"
        report = self.site.report
        assert report is not None
        rows = []
        for status in report.rules:
            line = self.site.data.holder(status.number, self.site.newest)
            rows.append(
                {
                    "status": status,
                    "href": self.site.line_href(page, line),
                    "english_href": paths.relative(
                        page, paths.number_page("en", status.english_number or status.number)
                    ),
                    "since_href": self._english_change(page, status, line),
                }
            )
        return self.site.page(
            "translation.html",
            page,
            title=self.site.t["translation_title"].format(
                language=LANGUAGE_NAMES.get(self.site.language, self.site.language)
            ),
            report=report,
            counts=report.counts,
            rows=rows,
        )

    def _english_change(self, page: str, status: RuleStatus, line: Line | None) -> str:
        """Link to where the English changelog lists the change a stale rule has not followed:
        under the number the English rule had then, which may not be its number now (ko
        2021-11-19's 205.3p: its English rule changed in 2022-06-10 as 205.3q, and is 205.3r
        today)."""
        release = status.stale_since
        if release is None or self.site.english is None:
            return ""
        paired = self.site.pairing.by_translation.get((self.site.language, line.id if line else ""))
        if paired is not None and paired.change:
            return paths.relative(page, paired.change)
        diff = self.site.english.diffs[self.site.english.releases.index(release)]
        number = status.english_number or status.number
        return paths.relative(page, change_page(release, diff, number))

    def compare(self) -> Job:
        """The page that compares any two releases in the browser."""
        return self.site.page(
            "compare.html",
            paths.compare_page(DocKind.CR, self.site.language),
            title=self.site.t["compare_title"],
            releases=ReleasePages(self.site).release_rows(),
            note=self.site.t["compare_note"],
            result=self.site.t["compare_result"],
            folder=self.site.language,
            data_folder=paths.data_folder(DocKind.CR, self.site.language),
            sections=False,
        )
