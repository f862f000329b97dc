"""Index the built site for client-side search with Pagefind (runs offline, ships with the site)."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

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
