"""Index the built site for client-side search with Pagefind (runs offline, ships with the site)."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from rulesarchive.site_builder.output import Output
from rulesarchive.system.processes import die_with_parent


class SearchIndexError(Exception):
    """Pagefind failed; the message carries its own."""


def searchable_language(path: str) -> str | None:
    """Return the language whose search index holds a page, or None.

    Indexed: each rule's page (current and removed, told apart by a filter) and each glossary
    term's page, so that a result is the rule or the term itself. A chapter page would rank
    every rule of a chapter by the chapter's words, passing mentions with the rule they name.
    """
    parts = path.split("/")
    if parts[-1] != "index.html":
        return None
    if (len(parts) == 5 and parts[1] == "r") or (len(parts) == 4 and parts[1] == "glossary"):
        return parts[0]
    return None


def in_index(language: str, path: str) -> bool:
    """Tell whether a page of the site is in a language's search index."""
    return searchable_language(path) == language


def index_is_stale(output: Output, name: str, indexed: Callable[[str], bool]) -> bool:
    """Tell whether the search index `name` misses or lags behind the pages `indexed` picks:
    one is new or gone, or one changed in what Pagefind reads of it.

    A page that changed only in parts Pagefind leaves out (`data-pagefind-ignore`) is indexed
    as before: a translation's rule pages change with their English counterpart's text and
    the reference check, which every English release touches, not with what is searched.
    """
    live = output.live
    if live is None or not output.current(f"pagefind/{name}/pagefind.js").exists():
        return True
    if any(map(indexed, output.previous.keys() - output.produced.keys())):
        return True
    return any(
        path not in output.previous or _searched_differently(live / path, output.staging / path)
        for path in filter(indexed, output.changed)
    )


def _searched_differently(old: Path, new: Path) -> bool:
    """Tell whether Pagefind reads two versions of a page differently (or may)."""
    searched = indexed_part(new.read_bytes())
    return searched is None or searched != indexed_part(old.read_bytes())


def _start_tag(attribute: bytes) -> re.Pattern[bytes]:
    """Match the start tag of an element with a Pagefind attribute (group 1: its name)."""
    return re.compile(rb"<([a-zA-Z][a-zA-Z0-9]*)(?=[\s>])[^>]*?\s" + attribute)


_BODY = _start_tag(rb"data-pagefind-body[\s=>]")
_IGNORED = _start_tag(rb"data-pagefind-ignore[\s=>]")
_READ_ANYWHERE = _start_tag(rb"data-pagefind-(?!ignore|body)")  # meta data, filters, ...
_HTML = re.compile(rb"<html[\s>][^>]*>", re.IGNORECASE)
_SPACE = re.compile(rb"\s+")
_VOID = frozenset(b"area base br col embed hr img input link meta param source track wbr".split())


def indexed_part(page: bytes) -> bytes | None:
    """Return what Pagefind reads of a page's HTML, or None if an element's end is not found:
    two pages with equal parts are indexed alike.

    That is the `<html>` tag (its language), the elements marked `data-pagefind-body` (else
    the whole page) without those marked `data-pagefind-ignore`, and the elements with other
    Pagefind attributes (meta data, filters), which Pagefind reads anywhere.
    """
    bodies: list[tuple[int, int]] = []
    at = 0
    while found := _BODY.search(page, at):
        end = _end_of(page, found)
        if end is None:
            return None
        bodies.append((found.start(), end))
        at = end
    if not bodies:
        whole = _without_ignored(page)
        return None if whole is None else _SPACE.sub(b" ", whole)
    html = _HTML.search(page)
    parts = [html.group() if html else b""]
    for found in _READ_ANYWHERE.finditer(page):
        if not any(start <= found.start() < end for start, end in bodies):
            end = _end_of(page, found)
            if end is None:
                return None
            parts.append(page[found.start() : end])
    for start, end in bodies:
        body = _without_ignored(page[start:end])
        if body is None:
            return None
        parts.append(body)
    # Runs of white space read as one: a section left out leaves its line's end behind.
    return _SPACE.sub(b" ", b"\0".join(parts))


def _without_ignored(html: bytes) -> bytes | None:
    """Return HTML without its elements marked `data-pagefind-ignore` (None: one has no end).
    One that has or holds other Pagefind attributes is kept: Pagefind reads those even there."""
    kept: list[bytes] = []
    at = 0
    while found := _IGNORED.search(html, at):
        end = _end_of(html, found)
        if end is None:
            return None
        if _READ_ANYWHERE.search(html, found.start(), end):
            kept.append(html[at : found.end()])
            at = found.end()
            continue
        kept.append(html[at : found.start()])
        at = end
    kept.append(html[at:])
    return b"".join(kept)


def _end_of(html: bytes, start: re.Match[bytes]) -> int | None:
    """Return where the element whose start tag `start` matched ends (after its end tag,
    elements of its name inside it counted), or None if it does not."""
    name = start.group(1).lower()
    at = html.find(b">", start.end() - 1) + 1
    if not at:
        return None
    if name in _VOID:
        return at
    tags = re.compile(rb"<(/?)" + re.escape(name) + rb"(?=[\s>/])", re.IGNORECASE)
    depth = 1
    while found := tags.search(html, at):
        depth += -1 if found.group(1) else 1
        at = html.find(b">", found.end()) + 1
        if not at:
            return None
        if depth == 0:
            return at
    return None


class Indexer:
    """Index each language's rule and glossary pages into site/pagefind/<language>/.

    One index per language, each built by its own Pagefind process as soon as that language's
    pages are written, while the next language is rendered: a release of one language
    re-indexes only that language.
    """

    def __init__(self, site: Path) -> None:
        self.site = site
        self.running: list[tuple[str, subprocess.Popen[str]]] = []

    def start(self, language: str, pages: str = "") -> None:
        """Start indexing one language (its pages must all be in place), or the pages `pages`
        matches (a tournament document's sections, 'mtr/en/r/**/index.html') as `language`."""
        shutil.rmtree(self.site / "pagefind" / language, ignore_errors=True)
        pages = pages or f"{language}/{{r/*/*,glossary/*}}/index.html"
        output = f"pagefind/{language}"
        command = [sys.executable, "-m", "pagefind", "--site", str(self.site)]
        command += ["--glob", pages, "--output-subdir", output]
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            preexec_fn=die_with_parent,  # a killed build leaves no indexer running
        )
        self.running.append((language, process))

    def wait(self) -> None:
        """Wait for every index; raise SearchIndexError if one failed."""
        running, self.running = self.running, []
        for language, process in running:
            output, _ = process.communicate()
            if process.returncode != 0:
                last = output.strip().splitlines()[-1:] or ["no output"]
                raise SearchIndexError(f"pagefind failed on {self.site} ({language}): {last[0]}")
            bundle_fragments(self.site / "pagefind" / language)

    def stop(self) -> None:
        """Stop what still runs (after a failed build)."""
        for _, process in self.running:
            process.kill()
            process.communicate()
        self.running = []


_SIGNATURE = b"pagefind_dcd"  # what each of Pagefind's files starts with, once unzipped


def bundle_fragments(index: Path) -> None:
    """Gather an index's result fragments, a file per page, into a file per first two
    characters of their hash (`fragments/<xy>.json`: hash -> fragment), read by search.js.

    Pagefind writes one file per rule and term (11,000 for the real archive, over half the
    20,000 files Cloudflare Pages takes, pagefind#74); a result's excerpt costs its bundle,
    some 12 KB, instead of one file of 1 KB.
    """
    bundles: dict[str, dict[str, object]] = {}
    folder = index / "fragment"
    for path in sorted(folder.glob("*.pf_fragment")):
        data = gzip.decompress(path.read_bytes())
        if not data.startswith(_SIGNATURE):
            raise SearchIndexError(f"{path}: not a Pagefind fragment")
        bundles.setdefault(fragment_bundle(path.stem), {})[path.stem] = json.loads(
            data[len(_SIGNATURE) :]
        )
    (index / "fragments").mkdir(exist_ok=True)
    for key, fragments in bundles.items():
        text = json.dumps(fragments, ensure_ascii=False, separators=(",", ":"))
        (index / "fragments" / f"{key}.json").write_text(text, encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)


def fragment_bundle(fragment: str) -> str:
    """Return the bundle of a fragment by its name ('en_0224088' -> '02'), as search.js does."""
    return fragment.rsplit("_", 1)[-1][:2]
