"""Time the site build: the whole shared archive from nothing, then a rebuild after one release.

Usage: python benchmarks/build_site.py
Ingests ../shared/cr-archive (English and zh-Hans) into a temporary archive, holding back the
newest English release; builds the site from nothing (no site, no cached diffs); ingests the
held-back release and rebuilds. Each build runs in a child process, so its peak memory is its
own. Targets (2-core machine, issue 10): full build at most 30 s and 1 GB; rebuild at most
5 s, rewriting only the pages whose content changed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.ingest import ingest_paths

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr-archive"
CHILD = """
import json, resource, sys
from pathlib import Path
from rulesarchive.corpus.store import Archive
from rulesarchive.site_builder.build import build_site
report = build_site(Archive(sys.argv[1]), Path(sys.argv[2]))
print(json.dumps({"files": report.pages, "written": report.written, "seconds": report.seconds,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def timed_build(archive: Path, site: Path) -> dict:
    """Build in a child process; return its report."""
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(archive), str(site)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> None:
    english = sorted((SHARED / "en").glob("*.txt"))
    held_back = english[-1]
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        archive = Archive(root / "archive")
        originals = sorted((SHARED / "orig" / "en").iterdir())  # 2003-06-01 exists only as RTF
        chinese = sorted((SHARED / "zh-Hans").glob("*.txt"))
        ingest_paths(archive, english[:-1] + originals + chinese)
        releases = len(archive.releases())
        full = timed_build(archive.root, root / "site")
        ingest_paths(archive, [held_back])
        rebuild = timed_build(archive.root, root / "site")
    print(f"{'build':34} {'files':>7} {'written':>8} {'seconds':>8} {'peak MB':>8}")
    for label, figures in (
        (f"full, {releases} releases, from nothing", full),
        (f"rebuild after adding {held_back.stem}", rebuild),
    ):
        print(
            f"{label:34} {figures['files']:7d} {figures['written']:8d} "
            f"{figures['seconds']:8.1f} {figures['peak_mb']:8.0f}"
        )


if __name__ == "__main__":
    main()
