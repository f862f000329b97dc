"""Rebuild the shipped catalogues from the facts of the shared archives' manifests:
corpus/data/releases.json from ../shared/cr-archive/MANIFEST.tsv, corpus/data/policy.json from
../shared/policy-archive/MANIFEST.tsv.

Dates, set names, download URLs and checksums are facts about the releases; the documents
themselves are never copied.  Run from the project root: python tools/build_catalogue.py
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
MANIFEST = SHARED / "cr-archive" / "MANIFEST.tsv"
POLICY = SHARED / "policy-archive"
# Files kept exactly as downloaded: their sha256 is the download's, checked by `scrape`.
BYTE_FOR_BYTE = ("original (archived download)", "original (downloaded from Wizards)")
DATA = Path(__file__).resolve().parents[1] / "corpus" / "data"
OUTPUT = DATA / "releases.json"
# What a document of each format starts with: a file without it is no document (the policy
# archive holds a download tool's log under a .pdf name).
_MAGIC = {".pdf": b"%PDF", ".txt": b""}


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
    print(f"{write_policy_catalogue()} tournament documents -> {DATA / 'policy.json'}")
    return 0


def write_policy_catalogue() -> int:
    """Write where each MTR and IPG file of the policy archive came from: its repository's
    raw URL at the commit it was taken from, with its sha256. Non-documents are left out."""
    files = []
    with (POLICY / "MANIFEST.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            magic = _MAGIC.get(Path(row["path"]).suffix)
            if magic is None or not (POLICY / row["path"]).read_bytes().startswith(magic):
                continue
            repo, commit, path = row["source_repo"], row["source_commit"], row["source_path"]
            files.append(
                {
                    "kind": row["document"],
                    "file_date": row["effective_date"],
                    "url": f"https://raw.githubusercontent.com/{repo}/{commit}/{path}",
                    "sha256": row["sha256"],
                }
            )
    files.sort(key=lambda file: (file["kind"], file["file_date"], file["url"]))
    text = json.dumps(files, indent=1, ensure_ascii=False) + "\n"
    (DATA / "policy.json").write_text(text, encoding="utf-8")
    return len(files)


if __name__ == "__main__":
    sys.exit(main())
