"""Index the built site for client-side search with Pagefind (runs offline, ships with the site)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


class SearchIndexError(Exception):
    """Pagefind failed; the message carries its own."""


def index(site: Path) -> None:
    """Run Pagefind over the site's pages; it writes site/pagefind/."""
    result = subprocess.run(
        [sys.executable, "-m", "pagefind", "--site", str(site), "--output-subdir", "pagefind"],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        last = (result.stderr or result.stdout).strip().splitlines()[-1:] or ["no output"]
        raise SearchIndexError(f"pagefind failed on {site}: {last[0]}")
