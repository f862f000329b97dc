"""Build the whole static site into a staging folder, then swap it into place."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from corpus.model import Document, Release
from corpus.present import release_label
from corpus.store import Archive
from differ.history import History
from differ.report import history_data
from site_builder import feeds, paths, search
from site_builder.gather import Language, gather
from site_builder.pages import LANGUAGE_NAMES, LanguagePages, Page, environment

LANGUAGE_ORDER = ("en", "zh-Hans", "it")
_MANIFEST = ".manifest.json"


class BuildError(Exception):
    """The site cannot be built; the message says why and what to do, in one line."""


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What a build did."""

    pages: int  # files the site has
    written: int  # files written this time (the others were already up to date)
    seconds: float
    languages: tuple[str, ...]


class _Writer:
    """Write files into the staging folder, skipping those whose bytes did not change."""

    def __init__(self, root: Path, previous: dict[str, str]) -> None:
        self.root = root
        self.previous = previous
        self.produced: dict[str, str] = {}
        self.written = 0

    def write(self, path: str, content: str | bytes) -> None:
        data = content.encode() if isinstance(content, str) else content
        digest = hashlib.sha256(data).hexdigest()
        self.produced[path] = digest
        target = self.root / path
        if self.previous.get(path) == digest and target.exists():
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.incoming")
        temporary.write_bytes(data)
        # A new inode: the staging copy shares the live site's files through hard links.
        temporary.replace(target)
        self.written += 1


def build_site(
    archive: Archive,
    out: Path,
    base_url: str = "http://localhost:8000/",
    progress: Callable[[str], None] | None = None,
    index_search: bool = True,
    cache: bool = True,
) -> BuildReport:
    """Render every language of the archive into `out`; the old site stays till the new is whole."""
    started = time.perf_counter()
    languages = [lang for lang in _languages(archive) if archive.releases(lang)]
    if not languages:
        raise BuildError(
            f"the archive at {archive.root} has no releases: fill it with `rulesarchive scrape` "
            "(or `rulesarchive ingest FILES`), or see a demo with `rulesarchive build --sample`"
        )
    out = Path(out)
    staging = out.with_name(f".{out.name}.incoming")
    shutil.rmtree(staging, ignore_errors=True)
    previous = _start_from(out, staging)
    writer = _Writer(staging, previous)
    env = environment()
    gathered: dict[str, Language] = {}
    for language in languages:
        if progress:
            progress(f"reading {language}")
        data = gather(
            archive,
            language,
            cache=archive.root / ".cache" / "diffs" if cache else None,
            on_document=lambda index, release, document: _release_data(writer, release, document),
        )
        gathered[language] = data
        if progress:
            progress(f"rendering {language}")
        pages = LanguagePages(env, data, languages)
        for page in pages.all_pages():
            writer.write(page.path, page.content)
        _language_data(writer, pages)
    _site_pages(writer, env, gathered, base_url)
    _remove_stale(staging, writer.produced)
    if index_search:
        if progress:
            progress("indexing for search")
        search.index(staging)
    (staging / _MANIFEST).write_text(json.dumps(writer.produced, sort_keys=True), encoding="utf-8")
    _swap(staging, out)
    return BuildReport(
        len(writer.produced), writer.written, time.perf_counter() - started, tuple(languages)
    )


def _languages(archive: Archive) -> list[str]:
    found = {release.language for release in archive.releases()}
    return [
        *[lang for lang in LANGUAGE_ORDER if lang in found],
        *sorted(found - set(LANGUAGE_ORDER)),
    ]


def _start_from(out: Path, staging: Path) -> dict[str, str]:
    """Stage a copy of the live site made of hard links (cheap), and return its manifest."""
    manifest = out / _MANIFEST
    if not manifest.exists():
        staging.mkdir(parents=True)
        return {}
    shutil.copytree(out, staging, copy_function=os.link, ignore=shutil.ignore_patterns("pagefind"))
    return json.loads(manifest.read_text(encoding="utf-8"))


def _release_data(writer: _Writer, release: Release, document: Document) -> None:
    """Write a release's rules as JSON (for machines) and as a script (for the compare page)."""
    data = {
        **release_label(release),
        "rules": [[rule.number, rule.text, list(rule.examples)] for rule in document.rules],
        "glossary": [[entry.term, entry.text] for entry in document.glossary],
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    base = f"data/{release.language}/{release.effective_date.isoformat()}"
    writer.write(f"{base}.json", text)
    writer.write(
        f"{base}.js",
        "window.RULESARCHIVE_RELEASES=window.RULESARCHIVE_RELEASES||{};"
        f"window.RULESARCHIVE_RELEASES[{json.dumps(release.effective_date.isoformat())}]={text};",
    )


def _language_data(writer: _Writer, pages: LanguagePages) -> None:
    data = pages.data
    language = data.language
    writer.write(
        f"data/{language}/releases.json",
        json.dumps([release_label(release) for release in data.releases], ensure_ascii=False),
    )
    numbers = sorted(data.holders)
    writer.write(
        f"data/{language}/numbers.js",
        f"window.RULESARCHIVE_NUMBERS={json.dumps(numbers)};",
    )
    for line in data.lines:
        history = History(line.rule.number, line.numbers, pages.versions(line))
        body = {"id": line.id, "page": paths.rule_page(language, line), **history_data(history)}
        writer.write(f"data/{language}/r/{line.id}.json", json.dumps(body, ensure_ascii=False))


def _site_pages(writer: _Writer, env, gathered: dict[str, Language], base_url: str) -> None:
    first = next(iter(gathered.values()))
    main = LanguagePages(env, first, list(gathered))
    others = [
        {
            "language": lang,
            "name": LANGUAGE_NAMES.get(lang, lang),
            "href": paths.language_home(lang),
        }
        for lang in gathered
        if lang != first.language
    ]
    home = main.render(
        "home.html",
        paths.home(),
        title="Comprehensive Rules history",
        rows=main.release_rows(),
        others=others,
    )
    writer.write(home.path, home.content)
    for page in (
        main.render("search.html", "search.html", title="Search"),
        _not_found(main),
    ):
        writer.write(page.path, page.content)
    static = resources.files("templates").joinpath("static")
    for item in static.iterdir():
        if item.is_file():
            writer.write(f"static/{item.name}", item.read_bytes())
    releases = [release for data in gathered.values() for release in data.releases]
    writer.write("feed.atom", feeds.atom(releases, base_url))
    writer.write("sitemap.xml", feeds.sitemap(sorted(writer.produced), base_url))


def _not_found(pages: LanguagePages) -> Page:
    """The 404 page is served for any missing path: its links start at the site root."""
    return pages.render("notfound.html", "404.html", root="/", title="Not found")


def _remove_stale(staging: Path, produced: dict[str, str]) -> None:
    for path in sorted(staging.rglob("*"), reverse=True):
        relative = path.relative_to(staging).as_posix()
        if path.is_file() and relative not in produced and relative != _MANIFEST:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()


def _swap(staging: Path, out: Path) -> None:
    retired = out.with_name(f".{out.name}.retired")
    shutil.rmtree(retired, ignore_errors=True)
    if out.exists():
        out.rename(retired)
    staging.rename(out)
    shutil.rmtree(retired, ignore_errors=True)
