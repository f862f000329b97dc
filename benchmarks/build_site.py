"""Time the site build: from nothing, with nothing changed, and after one release, twice.

Usage: python benchmarks/build_site.py [--synthetic] [--keep-in DIR]
Ingests ../shared/cr-archive (English and zh-Hans) into a temporary archive, holding back the
two newest English releases; builds the site from nothing (no site, no derived data);
rebuilds with nothing changed; ingests one held-back release as `rulesarchive ingest` does
(`Library.prepare`: its diff, the kept reference check extended: the "ingest" column) and
rebuilds, then the other and rebuilds again. With --synthetic, the archive is the real
English releases followed by synthetic ones up to 500 (benchmarks/synthetic.py), the last two
held back the same way. The derived data lives in a folder of this run (RULESARCHIVE_CACHE,
for the builds and in process), never in the user's own cache.
Each build runs in a child process (its peak memory is its own; "child" is the largest of
the processes it forks or starts) and reports where its time went: reading the releases and
tracing their lines of descent (`Library.gather`), and the rest (the pages; the reference
checks run in processes beside the gathering and the pages, their CPU time counted, their
waiting in either), with its CPU time (user + system, the processes it forked included: on a
shared machine the wall-clock follows the load, the CPU time hardly) and the system part of
it ("sys": making the site's files and folders: ext4 makes new files slowly for a few minutes
after many were deleted, as a run's temporary folder is at its end; `--keep-in DIR` leaves
them, and the derived data, in DIR).
Targets (2-core machine, issues 10 and 13): real archive full at most 15 s (issue 10: 30 s)
and 1 GB, nothing changed at most 1 s, one release at most 3 s (issue 10: 5 s); synthetic
500: full at most 120 s, one release at most 10 s.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rulesarchive.scraper.ingest import ingest_paths

from rulesarchive.library import Library

sys.path.insert(0, str(Path(__file__).parent))
import synthetic  # beside this script

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr-archive"
CHILD = """
import json, resource, sys, time
from pathlib import Path
from rulesarchive.library import Library
from rulesarchive.site_builder import build

spent = {"gather": 0.0}
def timed(name, function):
    def run(*args, **kwargs):
        started = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] += time.perf_counter() - started
    return run
Library.gather = timed("gather", Library.gather)
def cpu(fields=("ru_utime", "ru_stime")):  # seconds of the build and the processes it forked
    return sum(getattr(resource.getrusage(who), field) for field in fields
               for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
def peak_kb():  # of this process since it started (ru_maxrss counts the benchmark's too)
    status = Path("/proc/self/status").read_text()
    return int(status.split("VmHWM:")[1].split()[0])
if __name__ == "__main__":
    report = build.build_site(Library(sys.argv[1]), Path(sys.argv[2]), index_search=False)
    print(json.dumps({"files": report.pages, "written": report.written,
                      "seconds": report.seconds, **spent,
                      "peak_mb": peak_kb() / 1024, "cpu": cpu(), "sys": cpu(("ru_stime",)),
                      "child_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def timed_build(archive: Path, site: Path) -> dict:
    """Build in a child process; return its report and the load average before it."""
    load = os.getloadavg()[0]
    result = subprocess.run(
        [sys.executable, "-c", CHILD, str(archive), str(site)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout.strip().splitlines()[-1]) | {"load": load}


def _ingested(outcomes: list) -> list:
    """The releases an ingest stored (what `rulesarchive ingest` prepares after storing)."""
    return [o.release for o in outcomes if o.status in ("added", "replaced")]


def real_archive(root: Path) -> tuple[Library, list[Path]]:
    """Ingest the shared archive but the two newest English releases; return those two."""
    english = sorted((SHARED / "en").glob("*.txt"))
    library = Library(root)
    originals = sorted((SHARED / "orig" / "en").iterdir())  # 2003-06-01 exists only as RTF
    chinese = sorted((SHARED / "zh-Hans").glob("*.txt"))
    ingest_paths(library.archive, english[:-2] + originals + chinese)
    return library, english[-2:]


def _scratch(parent: Path | None):
    """A temporary folder deleted at the end, or a new folder under `parent` left in place."""
    if parent is None:
        return tempfile.TemporaryDirectory()
    parent.mkdir(parents=True, exist_ok=True)
    return contextlib.nullcontext(tempfile.mkdtemp(dir=parent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--synthetic", action="store_true", help="500 releases, most made up")
    parser.add_argument(
        "--keep-in",
        type=Path,
        help="Make the archive and the site in a new folder under this one, left there (not in "
        "a temporary folder deleted at the end): runs in a row then delete nothing between them.",
    )
    options = parser.parse_args()
    rows = []
    with _scratch(options.keep_in) as folder:
        root = Path(folder)
        os.environ["RULESARCHIVE_CACHE"] = str(root / "derived")  # the builds' too
        if options.synthetic:
            library = Library(synthetic.make_archive(root / "archive", 498).root)
            extend = synthetic.extend_archive
            later = [lambda s=step: extend(library.archive, 1, seed=s) for step in (1, 2)]
        else:
            library, held = real_archive(root / "archive")
            later = [lambda p=path: _ingested(ingest_paths(library.archive, [p])) for path in held]
        library.derived.clear()  # from nothing: what making the archive kept goes
        site = root / "site"
        releases = len(library.releases())
        rows.append((f"full, {releases} releases, from nothing", timed_build(library.root, site)))
        rows.append(("rebuild, nothing changed", timed_build(library.root, site)))
        for label in ("rebuild, one release added (first)", "rebuild, one more release added"):
            started = time.perf_counter()
            library.prepare(later.pop(0)())  # as the ingest command does
            ingested = time.perf_counter() - started
            rows.append((label, timed_build(library.root, site) | {"ingest": ingested}))
    heading = f"{'build':38} {'files':>6} {'written':>7} {'seconds':>7} {'CPU s':>6} {'sys':>5}"
    heading += f" {'gather':>6}"
    print(f"{heading} {'pages':>6} {'peak MB':>7} {'child':>5} {'load':>5} {'ingest':>6}")
    for label, f in rows:
        pages = f["seconds"] - f["gather"]
        print(
            f"{label:38} {f['files']:6d} {f['written']:7d} {f['seconds']:7.2f} {f['cpu']:6.1f}"
            f" {f['sys']:5.1f}"
            f" {f['gather']:6.2f} {pages:6.2f} {f['peak_mb']:7.0f} {f['child_mb']:5.0f}"
            f" {f['load']:5.1f}" + (f" {f['ingest']:6.2f}" if "ingest" in f else "")
        )


if __name__ == "__main__":
    main()
