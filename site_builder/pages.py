"""What every page of a language shares (data, links, rendering, jobs); the page kinds are
release_pages, rule_pages, number_pages, index_pages and status_pages, each making its own jobs."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypedDict, cast

from jinja2 import Environment
from rulesarchive.corpus.derived import code_version
from rulesarchive.differ.glossary import term_key
from rulesarchive.differ.history import Version
from rulesarchive.differ.language import GlossaryLine, Language
from rulesarchive.differ.lineage import Line, line_versions
from rulesarchive.differ.translation_compare import Track
from rulesarchive.differ.translations import TranslationReport
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.compare_pages import ComparePages
from rulesarchive.site_builder.index_pages import IndexPages
from rulesarchive.site_builder.link_cache import LinkCache
from rulesarchive.site_builder.number_pages import NumberPages
from rulesarchive.site_builder.refs import References
from rulesarchive.site_builder.release_pages import ReleasePages
from rulesarchive.site_builder.render import (
    Context,
    Job,
    Memoised,
    Page,
    fingerprint,
    memo,
    messages,
    render_job,
)
from rulesarchive.site_builder.rule_pages import RulePages, Switch, language_switch
from rulesarchive.site_builder.status_pages import StatusPages
from rulesarchive.site_builder.translations import Pairing

# Pages each language of the site has, at the same path under its folder.
_IN_EVERY_LANGUAGE = frozenset(
    (
        "index.html",
        "chapters/index.html",
        "glossary/index.html",
        "compare.html",
        "removed.html",
        "goto.html",
    )
)


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
        links: LinkCache | None = None,
        others: dict[str, Language] | None = None,
        tracks: list[Track] | None = None,
    ) -> None:
        self.base_url = base_url  # absolute links (canonical, alternates) start with it
        self.lastmod: dict[str, dt.date] = {}  # page -> when what it shows last changed
        self.pairing = pairing or Pairing()
        self.report = report  # of the newest release, for a translated language
        self.tracks = tracks or []  # for English: every translated release's report, by language
        self.english = english  # for a translated language: where English changes are listed
        self.shared, self.salt = language_salt(data.language, languages, base_url)
        self.t: dict[str, str] = self.shared["t"]
        # Sums up the language's releases: what every page of it is worked out from, but for
        # what other languages add (counterparts, the reference check's marks).
        self.releases_memo = memo(self.salt, "releases", tuple(data.releases))
        self.env = env
        self.data = data
        self.language = data.language
        self.languages = languages
        self.newest = len(data.releases) - 1
        self._versions: dict[str, tuple[Version, ...]] = {}
        # Given by the reference check (checks.CheckPages): till then, reading them is an error.
        self._marks: dict[str, tuple[Context, ...]] | None = None  # line id -> its problems
        self._fixes: dict[int, dict[str, tuple[str, ...]]] | None = None  # release -> fixes
        # Current terms take their slugs first: a term keeps its slug whatever came and went.
        newest_first = sorted(data.glossary, key=lambda term: term.stretches[-1][1] != self.newest)
        slugs = paths.glossary_slugs([term.key for term in newest_first])
        # Each term's page: two terms may end under one name (a term renamed to a removed
        # one's), each has its own.
        self.term_slugs: dict[GlossaryLine, str] = dict(zip(newest_first, slugs, strict=True))
        # A name's page: the first term's of that name (the current one's), where it links.
        self.glossary_slugs: dict[str, str] = {}
        for term, slug in zip(newest_first, slugs, strict=True):
            self.glossary_slugs.setdefault(term.key, slug)
        # A renamed term's old names lead to its page; each name's own slug, where no term's
        # page has it, is a page sending the old address there.
        # an old name's slug -> the name, and its term now
        self.renamed_terms: dict[str, tuple[str, GlossaryLine]] = {}
        taken = set(slugs)
        for term in newest_first:
            for _first, _last, entry in term.stretches:
                key = term_key(entry.term)
                if key not in self.glossary_slugs:
                    self.glossary_slugs[key] = self.term_slugs[term]
                    slug = paths.term_slug(key)
                    if slug not in taken:
                        taken.add(slug)
                        self.renamed_terms[slug] = entry.term, term
        self.refs = References(
            data,
            {
                key: paths.glossary_page(data.language, slug)
                for key, slug in self.glossary_slugs.items()
            },
            links,
        )
        self.index_of = {release.effective_date: i for i, release in enumerate(data.releases)}
        # What the other languages have, for the language switch of every page.
        self._have = {
            other.language: _Pages.of(other)
            for other in (others or {}).values()
            if other.language != data.language
        }
        # The other languages' references, for their texts shown beside a rule (no glossary
        # links, nothing kept: only a rule's counterparts use them).
        self._elsewhere = {
            other.language: References(other, {}, LinkCache(None, other.language))
            for other in (others or {}).values()
            if other.language != data.language
        }
        self.current_by_chapter: dict[str, list[Line]] = {}
        for line in data.lines:
            if line.last == self.newest:
                self.current_by_chapter.setdefault(line.rule.number[:3], []).append(line)

    @property
    def reference_marks(self) -> dict[str, tuple[Context, ...]]:
        """The reference check's problems of each line (by id), shown on its rule page."""
        if self._marks is None:
            raise RuntimeError(f"the {self.language} pages read the reference check before it")
        return self._marks

    @reference_marks.setter
    def reference_marks(self, marks: dict[str, tuple[Context, ...]]) -> None:
        self._marks = marks

    @property
    def citation_fixes(self) -> dict[int, dict[str, tuple[str, ...]]]:
        """The reference check's citation fixes of each release, shown in its changelog."""
        if self._fixes is None:
            raise RuntimeError(f"the {self.language} pages read the reference check before it")
        return self._fixes

    @citation_fixes.setter
    def citation_fixes(self, fixes: dict[int, dict[str, tuple[str, ...]]]) -> None:
        self._fixes = fixes

    def versions(self, line: Line) -> tuple[Version, ...]:
        """Return a line's versions (worked out once per build)."""
        if line.id not in self._versions:
            self._versions[line.id] = line_versions(
                line, self.data.releases, self.refs.links.word_diff
            )
        return self._versions[line.id]

    def page(
        self,
        template: str,
        path: str,
        modified: int | None = None,
        root: str | None = None,
        **context: object,
    ) -> Job:
        """Make the job of a page: its template and everything the template sees.

        `modified`: the release whose changes the page shows last (the sitemap's lastmod);
        links are relative to the page unless `root` says where the site root is.
        """
        index = self.newest if modified is None else modified
        self.lastmod[path] = self.data.releases[index].effective_date
        if "switches" not in context:
            context["switches"] = self.switches(path)
        context.setdefault("canonical", self.base_url + path if self.base_url else "")
        if "alternates" not in context:  # the same page in every language, as absolute links
            switches = cast("list[Switch]", context["switches"])  # the page's, or given
            same = [s for s in switches if s["same"]] if self.base_url else []
            canonical = context["canonical"] == self.base_url + path  # not a stub's
            context["alternates"] = [
                {"language": s["language"], "href": self.base_url + s["path"]}
                for s in (same if canonical and len(same) > 1 else ())  # not the page alone
            ]
        context.setdefault("description", context.get("title", ""))
        context.setdefault("og_type", "website")
        context["root"] = paths.root_of(path) if root is None else root
        return Job(path, template, context)

    def references_of(self, language: str) -> References | None:
        """The references of a language of the site (this one's own, or another's)."""
        return self.refs if language == self.language else self._elsewhere.get(language)

    def switches(
        self, path: str, same: dict[str, str] | None = None, chapter: str = ""
    ) -> list[Switch]:
        """The language switch of a page: in each language the same page, or the nearest it has.

        `same` gives the same page in some languages (a rule's page in each translation);
        `chapter` is where a rule page stands, for a language without that rule.
        """
        rest = path.removeprefix(f"{self.language}/")
        if len(self.languages) < 2 or rest == path:
            return []
        found = []
        for language in self.languages:
            if language == self.language:
                found.append(language_switch(language, "", True, path))
                continue
            if same and language in same:
                target, exact = same[language], True
            else:
                target, exact = self._nearest(language, rest, chapter)
            href = paths.relative(path, target)
            found.append(language_switch(language, href, False, target, exact))
        return found

    def _nearest(self, language: str, rest: str, chapter: str = "") -> tuple[str, bool]:
        """The page of `language` (from the site root) nearest to this language's `rest`, and
        whether it is the same page: the same path where it has one, else its release of that
        date, its chapter, its glossary or its home."""
        have = self._have.get(language)
        parts = rest.split("/")
        if have is None:
            return f"{language}/index.html", False
        if rest in _IN_EVERY_LANGUAGE or (rest == "translation.html" and language != "en"):
            return f"{language}/{rest}", True
        if parts[0] == "releases" and len(parts) > 2:
            if parts[1] not in have.dates:
                return f"{language}/index.html", False
            page = "check.html" if parts[-1] == "check.html" else "index.html"
            return f"{language}/releases/{parts[1]}/{page}", rest.endswith(f"{parts[1]}/{page}")
        if parts[0] == "glossary":
            return f"{language}/glossary/index.html", rest == "glossary/index.html"
        if parts[0] == "chapters" and len(parts) == 3:
            chapter = parts[1]
        if chapter in have.chapters:
            target = paths.chapter_page(language, chapter)
            return target, rest == target.removeprefix(f"{language}/")
        return f"{language}/index.html", False

    def data_file(self, path: str, content: str) -> Job:
        """Make the job of a data file: its content is what it shows."""
        self.lastmod[path] = self.data.releases[self.newest].effective_date
        return Job(path, None, {"content": content})

    def memoised(
        self,
        path: str,
        inputs: object,
        make: Callable[[], Job],
        modified: int | None = None,
        finer: Callable[[], object] | None = None,
        switches: list[Switch] | None = None,
    ) -> Memoised:
        """Make a page known by its `inputs` (plain data), its job made only when they changed
        (and, given `finer`, when what it returns changed too: see `Memoised`).

        `modified` as for `page`, which a page kept as it was is not made through. What the
        page's language switch links to (`switches`, by default the page's own) counts too:
        another language's release, chapter or rule may come or go.
        """
        self.lastmod[path] = self.data.releases[
            self.newest if modified is None else modified
        ].effective_date
        switches = self.switches(path) if switches is None else switches
        switched = tuple((switch["language"], switch["path"]) for switch in switches)
        finer_memo = None
        if finer is not None:
            finer_memo = _once(lambda: memo(self.salt, path, (finer(), switched)))
        return Memoised(path, memo(self.salt, path, (inputs, switched)), make, finer_memo)

    def fingerprint(self, job: Job) -> str:
        """Hash what a job of this language renders."""
        return fingerprint(job, self.salt)

    def render(self, job: Job) -> Page:
        """Render a job of this language."""
        return Page(job.path, render_job(self.env, self.shared, job))

    def successors(self, page: str, line: Line) -> Context | None:
        """Where a removed rule's content went, when the diff of the release that dropped it
        knows: merged into a rule, or split into several ({"kind", "rules": [{number, href}]},
        each linked at its version in that release); None for a current rule or an unknown."""
        index = line.last + 1
        diff = self.data.diffs[index] if index < len(self.data.diffs) else None
        if diff is None:
            return None
        number = line.rule.number
        merged = [m.new for m in diff.merges if number in m.old]
        split = [s.new for s in diff.splits if s.old == (number,)]
        kind, numbers = (
            ("merged", merged[0]) if merged else ("split", split[0]) if split else ("", ())
        )
        rules = [
            {"number": n, "href": paths.relative(page, target)}
            for n in numbers
            if (target := self.refs.rule_target(n, index))
        ]
        return {"kind": kind, "rules": rules} if rules else None

    def line_href(self, page: str, line: Line | None) -> str:
        """Link from `page` to a line's rule page ('' for no line)."""
        return paths.relative(page, paths.rule_page(self.language, line)) if line else ""

    def shares(
        self,
    ) -> tuple[list[Callable[[], Memoised]], Iterator[Job | Memoised], Iterator[Job | Memoised]]:
        """Split the jobs in three: the makers of the rule pages and of the pages across
        translations (shared out between processes: after a release, they are most of the
        work); the pages that show nothing of the reference check (which may be made before
        it is in); the others. The rule pages and the changelogs show the check
        (`reference_marks`, `citation_fixes` and the diffs it marks), as may the status pages
        (English's diffs)."""
        unchecked = (NumberPages, IndexPages)
        checked = (ReleasePages, StatusPages)
        return (
            RulePages(self).jobs() + ComparePages(self).makers(),
            (job for kind in unchecked for job in kind(self).jobs()),
            (job for kind in checked for job in kind(self).jobs()),
        )


class Shared(TypedDict):
    """What every page of a language shares: its code (also as the pages' lang attribute) and
    its words."""

    language: str
    lang_attr: str
    t: dict[str, str]


def language_salt(language: str, languages: list[str], base_url: str) -> tuple[Shared, str]:
    """Return what every page of a language shares (its code, words) and the hash of it and
    of the site's code, languages and address, which each page's fingerprint takes in."""
    shared: Shared = {"language": language, "lang_attr": language, "t": messages(language)}
    # Hashed as a page's inputs are (`memo`): by value, whichever strings share an object.
    return shared, memo("", language, (code_version(), tuple(languages), base_url, shared))


@dataclass(frozen=True, slots=True)
class _Pages:
    """What pages a language has that another's language switch may lead to."""

    dates: frozenset[str]  # its releases' dates (a changelog and a check page each)
    chapters: frozenset[str]  # the chapters of its newest release (a page each)

    @classmethod
    def of(cls, data: Language) -> _Pages:
        """Sum up a language's pages from what was gathered of it."""
        headings = [h.number for h in data.headings]
        return cls(
            frozenset(release.effective_date.isoformat() for release in data.releases),
            frozenset(number for number in headings if len(number) == 3),
        )


def _once(work: Callable[[], str]) -> Callable[[], str]:
    """Return a function doing `work` the first time it is called, and giving its result
    then (`functools.cache` costs more to set up than a memo a page may never need)."""
    done: list[str] = []

    def once() -> str:
        if not done:
            done.append(work())
        return done[0]

    return once
