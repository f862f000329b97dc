"""A first `diff` answered from the report kept beside its cached diff, without the library.

The differ keeps, beside each diff of two releases, its report: the JSON-ready data and the
text forms `diff` prints (rulesarchive.differ.cache.read_report). A `diff` of two releases
named by their dates is answered from it, byte for byte what the click command prints, with
no import of click, the store or the differ's classes; anything else goes to the CLI.
"""

from __future__ import annotations

import json
import os

from rulesarchive.defaults import DIFF_FORMATS


def json_text(data: object) -> str:
    """Render data as every command prints JSON (indented, UTF-8 kept, a final newline)."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def report_answer(root: str, old: str, new: str, language: str, output: str) -> str | None:
    """Return the output of `diff OLD NEW` from the kept report, or None when there is none."""
    if output not in DIFF_FORMATS:
        return None
    fields = [_release_fields(root, language, reference) for reference in (old, new)]
    if fields[0] is None or fields[1] is None:
        return None
    from rulesarchive.differ.cache import read_report

    # The folder of differ.cache.diff_folder (which imports the cache's pickling to say it)
    report = read_report(os.path.join(root, ".cache", "diffs"), fields[0], fields[1])
    if report is None:
        return None
    return json_text(report["data"]) if output == "json" else report[output]


def _release_fields(root: str, language: str, reference: str) -> tuple[str, ...] | None:
    """Return the report fields of the release effective on `reference` (YYYY-MM-DD), or None.

    Only a date the release's own folder bears is taken (a set code or a file date goes to
    the CLI, which looks it up); that folder is the one the store reads.
    """
    if not (len(reference) == 10 and reference[4] == reference[7] == "-"):
        return None
    if not reference.replace("-", "").isdigit():
        return None
    path = os.path.join(root, language, reference, "release.json")
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        fields = tuple(
            data[key]
            for key in ("language", "effective_date", "set_code", "set_name", "content_sha256")
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if fields[:2] != (language, reference) or not all(isinstance(f, str) for f in fields):
        return None
    return fields
