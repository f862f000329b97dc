"""Ingest the whole shared archive into a fresh folder; print documents, rules, time, memory.

Usage: python benchmarks/ingest_all.py [--shared ../shared/cr-archive]
Target (2-core machine): under 15 s and under 500 MB.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.ingest import ingest_paths

DEFAULT_SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr-archive"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED)
    args = parser.parse_args()
    paths = sorted((args.shared / "en").glob("*.txt"))
    paths += sorted((args.shared / "orig" / "en").iterdir())
    paths += sorted((args.shared / "zh-Hans").glob("*.txt"))
    megabytes = sum(path.stat().st_size for path in paths) / 1e6
    with tempfile.TemporaryDirectory() as folder:
        archive = Archive(folder)
        start = time.perf_counter()
        outcomes = ingest_paths(archive, paths)
        seconds = time.perf_counter() - start
        stored = archive.releases()
    rules = sum(release.rule_count for release in stored)
    failed = [outcome for outcome in outcomes if outcome.status == "failed"]
    parent = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"documents read      {len(paths)} ({megabytes:.1f} MB)")
    print(f"releases stored     {len(stored)} ({len(failed)} refused: .doc, PDF twin)")
    print(f"rules               {rules}")
    print(f"seconds             {seconds:.2f}")
    print(f"throughput          {megabytes / seconds:.1f} MB/s")
    print(f"peak memory         {parent:.0f} MB main process, {workers:.0f} MB largest worker")


if __name__ == "__main__":
    main()
