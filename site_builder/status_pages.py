"""The pages of a language about the language as a whole: translation status and compare."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from rulesarchive.corpus.model import Release
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.changelog import change_page
from rulesarchive.site_builder.release_pages import ReleasePages
from rulesarchive.site_builder.render import LANGUAGE_NAMES, Job, Page

if TYPE_CHECKING:
    from rulesarchive.site_builder.pages import LanguagePages


class StatusPages:
    """The pages of a language about the language as a whole."""

    def __init__(self, site: LanguagePages) -> None:
        self.site = site

    def jobs(self) -> Iterator[Job]:
        """Yield the translation status (of a translated language) and the compare page."""
        site = self.site
        everything = site.data.prefix[-1]
        if site.report is not None:
            yield site._job(
                f"{site.language}/translation.html",
                (everything, repr(site.report), site.english and site.english.prefix[-1]),
                self.translation,
            )
        yield site._job(f"{site.language}/compare.html", everything, self.compare)

    def translation(self) -> Page:
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
                    "since_href": self._english_change(
                        page, status.stale_since, status.english_number or status.number
                    ),
                }
            )
        return self.site.render(
            "translation.html",
            page,
            title=self.site.t["translation_title"].format(
                language=LANGUAGE_NAMES.get(self.site.language, self.site.language)
            ),
            report=report,
            counts=report.counts,
            rows=rows,
        )

    def _english_change(self, page: str, release: Release | None, number: str) -> str:
        """Link to where an English release's changelog lists a rule's change."""
        if release is None or self.site.english is None:
            return ""
        diff = self.site.english.diffs[self.site.english.releases.index(release)]
        return paths.relative(page, change_page(release, diff, number))

    def compare(self) -> Page:
        """The page that compares any two releases in the browser."""
        return self.site.render(
            "compare.html",
            f"{self.site.language}/compare.html",
            title=self.site.t["compare_title"],
            releases=ReleasePages(self.site).release_rows(),
        )
