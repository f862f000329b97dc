"""The archive's files: document.json rendered as json.dumps would, neighbours found by date."""

from __future__ import annotations

import datetime as dt
import json
import marshal
import pickle
import shutil
import sqlite3

from rulesarchive.corpus.derived import DerivedData
from rulesarchive.corpus.model import (
    Document,
    GlossaryEntry,
    Heading,
    Provenance,
    Release,
    Rule,
)
from rulesarchive.corpus.store import (
    Archive,
    document_to_json,
    pack_document,
    release_to_json,
    render_document_json,
    unpack_document,
    unpack_rule,
)
from rulesarchive.site_builder.build import sample_archive


def _document(date: dt.date = dt.date(2024, 11, 8)) -> Document:
    return Document(
        language="en",
        effective_date=date,
        title='Magic: The Gathering "Comprehensive" Rules',
        introduction="Intro\nwith a line break",
        contents=("1. Game Concepts", "Glossary"),
        headings=(Heading("1", "Game Concepts"), Heading("100", "General")),
        rules=(
            Rule("100.1", 'Say "hi"\\ — tab\there, NUL \x00 and ™'),
            Rule("100.1a", "A rule with examples.", ("First.", 'Second "quoted".')),
            Rule("100.2", "Normalised 'text'.", (), "Printed ‘text’.", ()),
            Rule("100.3", "Both.", ("Example.",), "Both printed.", ("Example printed.",)),
        ),
        glossary=(
            GlossaryEntry("Ability", "1. One sense.\n2. Another."),
            GlossaryEntry("Card", "Normalised.", "Printed."),
        ),
        credits="Credits",
        notes=("typo: one",),
        normalisation=(("dashes", 2), ("quotes", 3)),
        set_name="Foundations",
    )


def _reference_rendering(document: Document) -> str:
    """The rendering as it was first written: json.dumps of each item of document_to_json."""
    lines = []
    for key, value in document_to_json(document).items():
        if isinstance(value, list) and value:
            items = ",\n".join(f"  {json.dumps(item, ensure_ascii=False)}" for item in value)
            lines.append(f" {json.dumps(key)}: [\n{items}\n ]")
        else:
            lines.append(f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def test_one_rule_is_read_from_a_packed_document_as_the_whole_document_has_it():
    document = _document()
    packed = pack_document(document)
    for rule in document.rules:
        assert unpack_rule(packed, rule.number) == rule
    assert unpack_rule(packed, "100.9") is None


def test_a_rule_is_read_alike_with_and_without_packed_documents(tmp_path):
    root = tmp_path / "archive"
    shutil.copytree(sample_archive(), root, ignore=shutil.ignore_patterns(".lock"))
    packed = Archive(root, derived=DerivedData(tmp_path / "cache"))
    plain = Archive(root, cache=False)
    release = plain.releases("en")[-1]
    document = plain.load(release)
    packed.load(release)  # packs it
    for rule in document.rules[:50]:
        assert packed.rule(release, rule.number) == plain.rule(release, rule.number) == rule
    assert packed.rule(release, "999.9z") is None and plain.rule(release, "999.9z") is None


def test_document_json_is_byte_identical_to_json_dumps_of_each_item():
    document = _document()
    assert render_document_json(document) == _reference_rendering(document)


def test_document_json_of_an_empty_document_is_byte_identical():
    document = Document(language="zh-Hans", effective_date=None, excerpt=True)
    assert render_document_json(document) == _reference_rendering(document)


def test_document_json_reads_back_as_the_json_form():
    document = _document()
    assert json.loads(render_document_json(document)) == document_to_json(document)


def _save(archive: Archive, date: dt.date, flags: tuple[str, ...] = ()) -> Release:
    document = _document(date)
    release = Release(
        "en",
        date,
        "",
        "",
        len(document.rules),
        2,
        "cd" * 32,
        Provenance("cr.txt", "ab" * 32, "txt", "utf-8"),
        flags,
    )
    archive.save(release, document, b"raw")
    return release


def test_neighbours_are_the_releases_just_before_and_after(tmp_path):
    archive = Archive(tmp_path)
    dates = [dt.date(2020, 1, 1), dt.date(2021, 1, 1), dt.date(2022, 1, 1), dt.date(2023, 1, 1)]
    saved = {date: _save(archive, date) for date in dates}
    assert archive.neighbours("en", dt.date(2021, 6, 1)) == [
        saved[dt.date(2021, 1, 1)],
        saved[dt.date(2022, 1, 1)],
    ]
    # A stored date is not its own neighbour.
    assert archive.neighbours("en", dt.date(2022, 1, 1)) == [
        saved[dt.date(2021, 1, 1)],
        saved[dt.date(2023, 1, 1)],
    ]
    assert archive.neighbours("en", dt.date(2019, 1, 1)) == [saved[dt.date(2020, 1, 1)]]
    assert archive.neighbours("en", dt.date(2024, 1, 1)) == [saved[dt.date(2023, 1, 1)]]
    assert archive.neighbours("zh-Hans", dt.date(2024, 1, 1)) == []


def test_saving_with_the_rules_text_given_writes_it(tmp_path):
    archive = Archive(tmp_path)
    release = _save(archive, dt.date(2020, 1, 1))
    document = _document(release.effective_date)
    archive.save(release, document, b"raw", "given\n")
    assert (tmp_path / "en" / "2020-01-01" / "rules.txt").read_text() == "given\n"
    assert archive.load(release) == document


# release.json as written before Provenance was one type (the field list of the old `Source`).
_OLD_RELEASE_JSON = """{
 "language": "en",
 "effective_date": "2025-02-07",
 "set_code": "DFT",
 "set_name": "Aetherdrift",
 "rule_count": 3022,
 "glossary_count": 703,
 "content_sha256": "d833499ac9269b49b8b74d75d95dad825800f9b960dfcae3007d9ca21f349ed5",
 "source": {
  "name": "MagicCompRules 20250207.txt",
  "sha256": "c33f2e3b6e45b4a576e9d1c5ee482c00f5e7c2ab577658b688bc593311b4e128",
  "format": "txt",
  "encoding": "utf-8 (BOM)",
  "url": "https://media.wizards.com/2025/downloads/MagicCompRules%2020250207.txt",
  "final_url": "https://media.wizards.com/2025/downloads/MagicCompRules%2020250207.txt",
  "fetched_at": "2026-11-29T13:00:00+00:00",
  "etag": "\\"v1\\"",
  "last_modified": "Fri, 07 Feb 2025 10:00:00 GMT"
 },
 "flags": [],
 "notes": [],
 "normalisation": {"quotes": 7994},
 "decode_repairs": []
}"""


def test_an_old_release_json_reads_as_provenance_and_writes_back_the_same(tmp_path):
    folder = tmp_path / "en" / "2025-02-07"
    folder.mkdir(parents=True)
    (folder / "release.json").write_text(_OLD_RELEASE_JSON)
    release = Archive(tmp_path).get("en", dt.date(2025, 2, 7))
    assert isinstance(release.source, Provenance)
    assert release.source.etag == '"v1"' and release.source.name == "MagicCompRules 20250207.txt"
    assert json.loads(json.dumps(release_to_json(release))) == json.loads(_OLD_RELEASE_JSON)


def test_the_packed_form_unpacks_to_the_same_document_with_rule_texts_interned():
    document = _document()
    first, second = (
        unpack_document(pack_document(document)),
        unpack_document(pack_document(document)),
    )
    assert first == document
    # Two loads share their rule texts (the differ compares them by pointer first).
    assert all(a.text is b.text for a, b in zip(first.rules, second.rules, strict=True))
    # The printed forms are equal but plain: a load does not hash them to intern them.
    assert first.rules[2].original == second.rules[2].original != ""
    assert Document("en", None) == unpack_document(pack_document(Document("en", None)))


def test_the_classes_loading_builds_without_init_have_no_post_init():
    # unpack_document fills their slots directly: a __post_init__ added later would not run.
    for cls in (Heading, Rule, GlossaryEntry):
        assert not hasattr(cls, "__post_init__"), cls


def test_a_packed_form_cut_short_or_of_other_code_is_read_afresh_and_replaced(tmp_path):
    archive = Archive(tmp_path)
    release = _save(archive, dt.date(2020, 1, 1))
    document = _document(release.effective_date)
    assert archive.load(release) == document
    store = archive.derived
    assert store.path is not None
    with sqlite3.connect(store.path) as connection:
        ((key,),) = connection.execute("SELECT key FROM entries WHERE kind = 'document'")
    good = store.get(key, bytes)
    assert isinstance(good, bytes)
    spoilt = (good[: len(good) // 2], b"", pickle.dumps(good), marshal.dumps((1, 2)))
    for damaged in [*(pickle.dumps(value) for value in spoilt), b"not a pickle"]:
        with sqlite3.connect(store.path) as connection:
            connection.execute("UPDATE entries SET value = ?", (damaged,))
        loaded = archive.load(release)
        assert loaded == document and type(loaded.rules[0]) is Rule
        assert unpack_document(store.get(key, bytes)) == document  # replaced
    assert archive.load(release) == document
