"""Index the built site for client-side search with Pagefind (runs offline, ships with the site)."""

from __future__ import annotations

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
        self.running: list[tuple[str, subprocess.Popen]] = []

    def start(self, language: str) -> None:
        """Start indexing one language (its pages must all be in place)."""
        shutil.rmtree(self.site / "pagefind" / language, ignore_errors=True)
        pages = f"{language}/{{r/*/*,glossary/*}}/index.html"
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

    def stop(self) -> None:
        """Stop what still runs (after a failed build)."""
        for _, process in self.running:
            process.kill()
            process.communicate()
        self.running = []
