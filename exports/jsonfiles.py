"""`export json`: one file per language with every release, described by a shipped JSON Schema."""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from rulesarchive.corpus.model import Rule
from rulesarchive.differ.release_report import release_summary
from rulesarchive.exports.collect import Collected, ReleaseText
from rulesarchive.exports.place import staged

SCHEMA_VERSION = 1
SCHEMA_FILES = (
    "export.schema.json",
    "diff.schema.json",
    "history.schema.json",
    "translation.schema.json",
    "compare.schema.json",
)


def schema_path(name: str) -> Path:
    """Return the path of a JSON Schema shipped in the package ('export.schema.json', ...)."""
    return Path(str(resources.files(__package__) / "schemas" / name))


def export_json(collected: Sequence[Collected], dest: Path, meta: dict) -> None:
    """Write DEST/<language>.json per language and the schemas beside them, replacing DEST whole."""
    with staged(dest, _is_json_export, "a folder of JSON files") as folder:
        folder.mkdir()
        for language in collected:
            data = {
                "meta": {**meta, "language": language.gathered.language},
                "releases": [_release(text) for text in language.texts],
            }
            path = folder / f"{language.gathered.language}.json"
            with path.open("w", encoding="utf-8") as handle:
                json.dump(data, handle, ensure_ascii=False, separators=(",", ":"))
        for name in SCHEMA_FILES:
            shutil.copyfile(schema_path(name), folder / name)


def _is_json_export(path: Path) -> bool:
    return path.is_dir() and all(child.suffix == ".json" for child in path.iterdir())


def _release(text: ReleaseText) -> dict:
    return {
        **release_summary(text.release),
        "headings": [{"number": h.number, "title": h.title} for h in text.headings],
        "rules": [_rule(line_id, rule) for line_id, rule in text.rules],
        "glossary": [
            {"term": entry.term, "text": entry.printed_text}
            | ({"normalised_text": entry.text} if entry.original else {})
            for entry in text.glossary
        ],
    }


def _rule(line_id: str, rule: Rule) -> dict:
    data: dict = {
        "number": rule.number,
        "id": line_id,
        "text": rule.printed_text,
        "examples": list(rule.printed_examples),
    }
    # The normalised forms (what the differ compares) only where the printing differs.
    if rule.original:
        data["normalised_text"] = rule.text
    if rule.original_examples:
        data["normalised_examples"] = list(rule.examples)
    return data
