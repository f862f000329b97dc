"""`export json`: one file per language with every release, described by a shipped JSON Schema."""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import TypedDict

from rulesarchive.differ.history import History
from rulesarchive.differ.language import Language
from rulesarchive.differ.lineage import Line, line_versions
from rulesarchive.differ.release_report import entry_data, heading_data, rule_data
from rulesarchive.differ.report import diff_data, history_data
from rulesarchive.differ.translations import TranslationReport
from rulesarchive.exports import ExportMeta
from rulesarchive.exports.collect import Collected, ReleaseText, release_row
from rulesarchive.exports.place import staged
from rulesarchive.exports.sqlite import translation_rows

SCHEMA_VERSION = 1
SCHEMA_FILES = (
    "export.schema.json",
    "diff.schema.json",
    "history.schema.json",
    "translation.schema.json",
    "compare.schema.json",
    "check.schema.json",
    "releases.schema.json",
    # the site's JSON API's own (site_builder.json_api)
    "latest.schema.json",
    "bulk-data.schema.json",
    "document.schema.json",
    "documents.schema.json",
    "rules.schema.json",
    "rule-index.schema.json",
    "glossary.schema.json",
)


def schema_path(name: str) -> Path:
    """Return the path of a JSON Schema shipped in the package ('export.schema.json', ...)."""
    return Path(str(resources.files(__package__) / "schemas" / name))


def export_json(collected: Sequence[Collected], dest: Path, meta: ExportMeta) -> None:
    """Write DEST/<language>.json per language and the schemas beside them, replacing DEST whole."""
    with staged(dest, _is_json_export, "a folder of JSON files") as folder:
        folder.mkdir()
        english = next((c for c in collected if c.gathered.language == "en"), None)
        for language in collected:
            reports = language.translations if english is not None else ()
            data = {
                "meta": {**meta, "language": language.gathered.language},
                "releases": [
                    _release(
                        text,
                        _english_ids(text, reports[index], english) if reports else {},
                        language.gathered,
                        index,
                    )
                    | {"changes": _changes(language, index)}
                    for index, text in enumerate(language.texts)
                ],
                "lines": [_line(language, line) for line in language.gathered.lines],
                "aliases": dict(sorted(language.gathered.aliases.items())),
                "glossary_aliases": dict(sorted(language.gathered.glossary_aliases.items())),
                "heading_aliases": dict(sorted(language.gathered.heading_aliases.items())),
            }
            path = folder / f"{language.gathered.language}.json"
            with path.open("w", encoding="utf-8") as handle:
                json.dump(data, handle, ensure_ascii=False, separators=(",", ":"))
        for name in SCHEMA_FILES:
            shutil.copyfile(schema_path(name), folder / name)


def _is_json_export(path: Path) -> bool:
    return path.is_dir() and all(child.suffix == ".json" for child in path.iterdir())


def _english_ids(
    text: ReleaseText, report: TranslationReport, english: Collected | None
) -> dict[str, str]:
    """Return, by rule number, the permanent id of the English rule a translated one translates."""
    assert english is not None
    rows = translation_rows(text, report, english)
    return {row[2]: row[8] for row in rows if row[8]}


class _LineJson(TypedDict):
    id: str
    numbers: list[str]
    first: str
    last: str
    versions: Sequence[Mapping[str, object]]  # as `history --format json` gives them


def _release(
    text: ReleaseText, english_ids: dict[str, str], gathered: Language, index: int
) -> dict[str, object]:
    heading_ids, term_ids = gathered.heading_ids(index), gathered.term_ids(index)
    return {
        **release_row(text),
        "headings": [heading_data(heading, heading_ids) for heading in text.headings],
        "rules": [
            rule_data(line_id, rule, english_ids.get(rule.number)) for line_id, rule in text.rules
        ],
        "glossary": [entry_data(entry, term_ids) for entry in text.glossary],
    }


def _changes(language: Collected, index: int) -> Mapping[str, object] | None:
    """A release's changes from the one before, as `changelog --format json` prints them."""
    diff = language.gathered.diffs[index] if index else None
    if diff is None:
        return None
    old, new = language.texts[index - 1].release, language.texts[index].release
    return diff_data(old, new, diff, language.fixes_of(index))


def _line(language: Collected, line: Line) -> _LineJson:
    """A line of descent: its permanent id, numbers, and history as `history` tells it."""
    releases = language.gathered.releases
    history = History(line.rule.number, line.numbers, line_versions(line, releases))
    return {
        "id": line.id,
        "numbers": list(line.numbers),
        "first": releases[line.first].effective_date.isoformat(),
        "last": releases[line.last].effective_date.isoformat(),
        "versions": history_data(history)["versions"],
    }
