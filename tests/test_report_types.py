"""The reports' TypedDicts (differ.report_types) are the shipped JSON Schemas written for a type
checker: the same keys, required and optional alike; and what the API's `to_json()` returns
validates against its schema, a tournament document's paragraphs included."""

import datetime as dt
import json
import shutil

import jsonschema
import pytest
from rulesarchive.corpus.derived import DerivedData
from rulesarchive.corpus.store import Archive as Store
from rulesarchive.differ import report_types as types
from rulesarchive.exports.jsonfiles import schema_path
from rulesarchive.scraper.ingest import ingest_bytes
from rulesarchive.site_builder.build import sample_archive

from rulesarchive.api import Archive
from tests.test_tournament_diff import LONG, _mtr_text

# (schema file, path to an object in it, the TypedDict of that object)
OBJECTS = [
    ("diff.schema.json", (), types.DiffJson),
    ("diff.schema.json", ("$defs", "release"), types.ReleaseLabel),
    ("diff.schema.json", ("$defs", "phrase"), types.PhraseJson),
    ("diff.schema.json", ("$defs", "paragraph"), types.ParagraphJson),
    ("diff.schema.json", ("$defs", "change"), types.ChangeJson),
    ("diff.schema.json", ("$defs", "split"), types.SplitJson),
    ("diff.schema.json", ("$defs", "glossary_change"), types.GlossaryChangeJson),
    ("diff.schema.json", ("properties", "renumbering", "items"), types.MoveJson),
    ("diff.schema.json", ("properties", "sweeps", "items"), types.SweepJson),
    ("history.schema.json", (), types.HistoryJson),
    ("history.schema.json", ("$defs", "version"), types.VersionJson),
    ("history.schema.json", ("$defs", "paragraph"), types.ParagraphJson),
    ("history.schema.json", ("$defs", "phrase"), types.PhraseJson),
    ("translation.schema.json", (), types.TranslationJson),
    ("translation.schema.json", ("$defs", "release"), types.ReleaseLabel),
    ("translation.schema.json", ("$defs", "rule"), types.TranslatedRuleJson),
    ("translation.schema.json", ("$defs", "shift"), types.ShiftJson),
    ("check.schema.json", (), types.CheckJson),
    ("check.schema.json", ("$defs", "release"), types.ReleaseLabel),
    ("check.schema.json", ("$defs", "reference"), types.ReferenceJson),
    ("check.schema.json", ("$defs", "problem"), types.ProblemJson),
    ("releases.schema.json", ("$defs", "release"), types.RulesReleaseJson),
    ("releases.schema.json", ("$defs", "doc_release"), types.DocReleaseJson),
    ("document.schema.json", ("$defs", "rule"), types.RuleJson),
    ("document.schema.json", ("properties", "headings", "items"), types.HeadingJson),
    ("document.schema.json", ("properties", "glossary", "items"), types.EntryJson),
    ("compare.schema.json", (), types.CompareJson),
    ("compare.schema.json", ("$defs", "release"), types.ReleaseLabel),
    ("compare.schema.json", ("$defs", "change"), types.EnglishChangeJson),
    ("compare.schema.json", ("$defs", "follow"), types.FollowJson),
    ("compare.schema.json", ("$defs", "translation"), types.TrackJson),
    ("compare.schema.json", ("$defs", "rendering"), types.RenderingJson),
]


def _schema(name: str) -> dict:
    schema = json.loads(schema_path(name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


@pytest.mark.parametrize(("name", "path", "typed"), OBJECTS)
def test_a_typeddict_has_the_keys_of_its_schema_object(name, path, typed):
    found = _schema(name)
    for step in path:
        found = found[step]
    assert found["additionalProperties"] is False
    assert typed.__required_keys__ | typed.__optional_keys__ == set(found["properties"])
    assert typed.__required_keys__ == set(found["required"])


def test_every_object_of_a_schema_has_its_typeddict():
    for name in {name for name, _, _ in OBJECTS}:
        named = {
            path[1] for schema, path, _ in OBJECTS if schema == name and path[:1] == ("$defs",)
        }
        assert named == set(_schema(name)["$defs"]), name


def _valid(data: object, name: str) -> None:
    jsonschema.validate(data, _schema(name), format_checker=jsonschema.FormatChecker())


def test_the_apis_diffs_and_histories_validate_against_their_schemas(tmp_path):
    root = tmp_path / "archive"
    shutil.copytree(sample_archive(), root)
    archive = Archive(root, cache=False)
    _valid(archive.diff("WWK", "RNA").to_json(), "diff.schema.json")
    _valid(
        archive.diff("WWK", "RNA", kinds=("substantive",), section="7").to_json(),
        "diff.schema.json",
    )
    _valid(archive.changelog("KLD").to_json(), "diff.schema.json")
    _valid(archive.history("400.6").to_json(), "history.schema.json")


def test_a_tournament_documents_diff_and_history_validate_with_their_paragraphs(tmp_path):
    store = Store(tmp_path, derived=DerivedData(None))
    ingest_bytes(store, _mtr_text("January 19, 2018", LONG), "mtr-2018-01-19.txt")
    later = (LONG[0], LONG[2].replace("between games", "between rounds"))
    ingest_bytes(store, _mtr_text("April 27, 2018", later, "Card Sleeves"), "mtr-2018-04-27.txt")
    archive = Archive(tmp_path, cache=False, doc="mtr")
    diff = archive.diff(dt.date(2018, 1, 19), dt.date(2018, 4, 27)).to_json()
    history = archive.history("3.2").to_json()
    assert diff["doc"] == history["doc"] == "mtr"
    assert any(change.get("paragraphs") for change in diff["changes"])
    assert any(version.get("paragraphs") for version in history["versions"])
    _valid(diff, "diff.schema.json")
    _valid(history, "history.schema.json")
