"""Rebuild corpus/data/releases.json from the facts in ../shared/cr-archive/MANIFEST.tsv.

Dates, set names and download URLs are facts about the releases; the documents themselves are
never copied.  Run from the project root: python tools/build_catalogue.py
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

MANIFEST = Path(__file__).resolve().parents[2] / "shared" / "cr-archive" / "MANIFEST.tsv"
# Files kept exactly as downloaded: their sha256 is the download's, checked by `scrape`.
BYTE_FOR_BYTE = ("original (archived download)", "original (downloaded from Wizards)")
OUTPUT = Path(__file__).resolve().parents[1] / "corpus" / "data" / "releases.json"


def set_code_and_name(label: str) -> tuple[str, str]:
    """Split 'Magic 2010 (M10) - full CR rewrite' into ('M10', 'Magic 2010')."""
    codes = re.findall(r"\(([0-9A-Z]{2,4})\)", label)
    name = re.sub(r"\s*\([0-9A-Z]{2,4}\)", "", label)
    name = re.sub(r"\s+(era|-\s.*)$", "", name).strip()
    return (codes[0] if codes else ""), name


def main() -> int:
    entries: dict[str, dict] = {}
    with MANIFEST.open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            if row["kind"] not in {"text", "orig", "translation"}:
                continue
            code, name = set_code_and_name(row["set_or_release_name"])
            entry = entries.setdefault(
                row["effective_date"],
                {
                    "effective_date": row["effective_date"],
                    "file_date": row["file_date"],
                    "set_code": code,
                    "set_name": name,
                    "languages": [],
                    "urls": [],
                    "sha256": {},
                },
            )
            if row["language"] not in entry["languages"]:
                entry["languages"].append(row["language"])
            if row["original_url"] and row["original_url"] not in entry["urls"]:
                entry["urls"].append(row["original_url"])
                if row["provenance"].startswith(BYTE_FOR_BYTE):
                    entry["sha256"][row["original_url"]] = row["sha256"]
    ordered = [entries[date] for date in sorted(entries)]
    OUTPUT.write_text(json.dumps(ordered, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{len(ordered)} releases -> {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
