"""The reference check on the site: a page per release, and the marks on rule pages."""

from __future__ import annotations

from collections.abc import Iterator

from rulesarchive.corpus.model import Release
from rulesarchive.differ.glossary import term_key
from rulesarchive.differ.references import GLOSSARY, LanguageCheck, Problem, mark_fixes
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.pages import LanguagePages
from rulesarchive.site_builder.render import LANGUAGE_NAMES, Context, Job


def check_page(release: Release) -> str:
    """Return the path of a release's reference check, beside its changelog."""
    return f"{release.language}/releases/{release.effective_date.isoformat()}/check.html"


class CheckPages:
    """The reference check pages of one language, and the problems each rule page shows."""

    def __init__(self, pages: LanguagePages, check: LanguageCheck) -> None:
        """Give the language's pages the check: marks on rule pages, fixes in changelogs."""
        self.pages = pages
        self.check = check
        self.data = data = pages.data
        pages.reference_marks = self.by_line()
        pages.citation_fixes = dict(enumerate(check.fixes))
        data.diffs[:] = [
            diff and mark_fixes(diff, fixes)
            for diff, fixes in zip(data.diffs, check.fixes, strict=True)
        ]

    def jobs(self) -> Iterator[Job]:
        """Yield one job per release: its check page."""
        for index in range(len(self.data.releases)):
            yield self.page(index)

    def page(self, index: int) -> Job:
        """A release's references and their problems, each linked to both rules."""
        release = self.data.releases[index]
        page = check_page(release)
        rows = [self._row(page, index, problem) for problem in self.check.present[index]]
        heading = self.pages.t["reference_check"]
        return self.pages.page(
            "check.html",
            page,
            modified=index,
            title=f"{heading} · {release.effective_date} {release.set_name}".strip(),
            release=release,
            language_name=LANGUAGE_NAMES.get(release.language, release.language),
            references=self.check.counts[index],
            rows=rows,
            changelog_href=paths.relative(page, paths.release_page(release)),
        )

    def _row(self, page: str, index: int, problem: Problem) -> Context:
        return {
            "problem": problem,
            "rule_href": self._source_href(page, index, problem),
            "cites_href": self._number_href(page, index, problem.cites),
            "suggestion_href": self._number_href(page, index, problem.suggestion or ""),
            "since_href": paths.relative(page, check_page(problem.since)),
        }

    def _source_href(self, page: str, index: int, problem: Problem) -> str:
        if problem.rule.startswith(GLOSSARY):
            key = term_key(problem.rule.removeprefix(GLOSSARY))
            slug = self.pages.glossary_slugs.get(key)
            return (
                paths.relative(page, paths.glossary_page(self.data.language, slug)) if slug else ""
            )
        return self.pages.line_href(page, self.data.holder(problem.rule, index))

    def _number_href(self, page: str, index: int, cited: str) -> str:
        """Link to the rule a citation's first number names, as it stood in the release (none
        when no rule held that number then: the number page would show later holders)."""
        first = cited.split("–")[0].split("-")[0]
        target = self.pages.refs.target(first, index)
        return paths.relative(page, target) if target else ""

    def by_line(self) -> dict[str, tuple[Context, ...]]:
        """Return, per line id, the problems of its rule in the last release it is in."""
        marks: dict[str, tuple[Context, ...]] = {}
        for line in self.data.lines:
            page = paths.rule_page(self.data.language, line)
            found = [
                problem
                for problem in self.check.present[line.last]
                if problem.source in (line.id, line.rule.number)
            ]
            if found:
                marks[line.id] = tuple(self._mark(page, line.last, p) for p in found)
        return marks

    def _mark(self, page: str, index: int, problem: Problem) -> Context:
        return {
            "cites": problem.cites,
            "kind": problem.kind,
            "suggestion": problem.suggestion,
            "guess": problem.guess,
            "since": problem.since.effective_date.isoformat(),
            "suggestion_href": self._number_href(page, index, problem.suggestion or ""),
            "check_href": paths.relative(page, check_page(self.data.releases[index])),
        }
