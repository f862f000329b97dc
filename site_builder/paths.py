"""Where each page of the site lives, and relative links between pages (so file:// works)."""

from __future__ import annotations

import hashlib
import re

from rulesarchive.corpus.model import DocKind, Release
from rulesarchive.differ.glossary import term_key
from rulesarchive.differ.lineage import Line


def home() -> str:
    """Return the path of the site's home page."""
    return "index.html"


def language_home(language: str) -> str:
    """Return the path of a language's list of releases."""
    return f"{language}/index.html"


def folder(kind: DocKind, language: str) -> str:
    """Return the folder of a kind's pages in a language: the CR's is the language's
    ('en'), a tournament document's its kind's and then the language's ('mtr/en')."""
    return language if kind == DocKind.CR else f"{kind}/{language}"


def compare_page(kind: DocKind, language: str) -> str:
    """Return the page that compares any two releases of a kind in a language."""
    return f"{folder(kind, language)}/compare.html"


def data_folder(kind: DocKind, language: str) -> str:
    """Return the folder of a kind's per-release data files (see release_data) in a language:
    the CR's is the language's ('data/en'), a tournament document's beside it ('data/mtr-en')."""
    return f"data/{language}" if kind == DocKind.CR else f"data/{kind}-{language}"


def releases_folder(release: Release) -> str:
    """Return the folder of a release's pages ('en/releases/2026-04-17')."""
    date = release.effective_date.isoformat()
    return f"{folder(release.kind, release.language)}/releases/{date}"


def release_page(release: Release) -> str:
    """Return the path of a release's changelog page."""
    return f"{releases_folder(release)}/index.html"


def document_page(release: Release) -> str:
    """Return the page of a release read whole (its document as printed)."""
    return f"{releases_folder(release)}/rules.html"


def document_page_of(language: str, date: str) -> str:
    """Return the page of the release of a language and date read whole."""
    return f"{language}/releases/{date}/rules.html"


def original_file(release: Release) -> str:
    """Return where a release's original file (the bytes it was ingested from) is offered."""
    return f"{releases_folder(release)}/original.{release.source.format}"


def rule_page(language: str, line: Line) -> str:
    """Return a rule's permanent page: by its line of descent, never by its current number."""
    return rule_page_of(language, line.id)


def rule_page_of(language: str, line_id: str) -> str:
    """Return the permanent page of a line's id (or of an alias of it)."""
    return f"{language}/r/{line_id}/index.html"


def section_page(kind: DocKind, language: str, line_id: str) -> str:
    """Return a tournament document's section (or part) page, by its line's permanent id
    ('mtr/en/r/2009-07-01/3.9/index.html', 'ipg/en/r/2013-02-08/2.1/philosophy/index.html')."""
    return f"{folder(kind, language)}/r/{line_id}/index.html"


def translations_page(line_id: str) -> str:
    """Return an English rule's page beside its translations across time."""
    return f"en/r/{line_id}/translations.html"


def number_page(language: str, number: str) -> str:
    """Return the address a rule number resolves at: the lookup page, which opens its rule."""
    return f"{language}/goto.html?n={number}"


def number_map(language: str) -> str:
    """Return the script mapping each number of a language to who held it (see goto.html)."""
    return f"data/{language}/numbers.js"


def history_data(language: str, chapter: str) -> str:
    """Return the JSON file of the histories of the rules last numbered in a chapter."""
    return f"data/{language}/history/{chapter}.json"


def search_words(language: str) -> str:
    """Return the JSON list of a language's words the search page corrects misspellings by."""
    return f"data/{language}/words.json"


def chapter_page(language: str, chapter: str) -> str:
    """Return the page listing a chapter's rules."""
    return f"{language}/chapters/{chapter}/index.html"


def glossary_page(language: str, slug: str) -> str:
    """Return a glossary term's page (slugs come from glossary_slugs)."""
    return f"{language}/glossary/{slug}/index.html"


def glossary_slugs(keys: list[str]) -> list[str]:
    """Give each glossary term, by its key, a slug of its own ('control-controller', '...-2'
    on a clash, two terms of one key too).

    Keys come in order of precedence: on a clash the first keeps the plain slug.
    """
    slugs: list[str] = []
    taken: set[str] = set()
    for key in keys:
        slug = base = term_slug(key)
        copy = 2
        while slug in taken:
            slug, copy = f"{base}-{copy}", copy + 1
        taken.add(slug)
        slugs.append(slug)
    return slugs


def term_slug(term: str) -> str:
    """Return a file-name-safe, stable slug of a glossary term ('Face-Down' -> 'face-down')."""
    key = term_key(term)
    slug = re.sub(r"[^a-z0-9]+", "-", key).strip("-")
    digest = hashlib.sha1(key.encode()).hexdigest()[:10]
    if not slug or not key.isascii():
        return f"t-{digest}"
    return slug if len(slug) <= 60 else f"{slug[:48].rstrip('-')}-{digest}"


def relative(from_page: str, to_page: str) -> str:
    """Return the link from one page to another, relative (works on file:// and any prefix).

    Both are paths from the site root without '..' (posixpath.relpath, which resolves them
    against the working folder, took a sixth of a build's time).
    """
    folders = from_page.split("/")[:-1]
    target = to_page.split("/")
    common = 0
    while common < len(folders) and common < len(target) - 1 and folders[common] == target[common]:
        common += 1
    return "/".join([".."] * (len(folders) - common) + target[common:])


def root_of(page: str) -> str:
    """Return the prefix that leads from a page back to the site root ('../../' or '')."""
    return "../" * page.count("/")
