"""The site's JSON API (api/v1/): every file it writes validates against its shipped schema;
what a command prints is written as the command prints it, byte for byte (gzipped, for the
many and large files); the bulk files' sizes and sums are what the list says; a rebuild
elsewhere writes the same bytes, and a rebuild of the same archive nothing."""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import json
import lzma
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from referencing import Registry, Resource
from rulesarchive.corpus.model import GlossaryEntry
from rulesarchive.exports.jsonfiles import schema_path
from rulesarchive.site_builder import json_api
from rulesarchive.site_builder.build import build_site
from rulesarchive.site_builder.json_api import ROOT

from rulesarchive.cli import main
from rulesarchive.library import Library
from tests.site_fixture import fixture_archive, save_release

BASE = "https://rules.example/"
PAIR = ("2010-02-01", "2019-05-03")
# A language's folder under api/v1/: the CR's 'en', a tournament document's 'mtr/en'.
LANG = r"(?:(?:mtr|ipg)/)?[a-zA-Z-]+"
# Each file of the API, by the path it has under api/v1/, and the schema of its JSON.
SCHEMAS = [
    (r"latest\.json", "latest.schema.json"),
    (r"bulk-data\.json", "bulk-data.schema.json"),
    (r"bulk/rules-[a-zA-Z-]+\.json\.gz", "rules.schema.json"),
    (LANG + r"/releases\.json", "releases.schema.json"),
    (r"bulk/documents-[a-zA-Z-]+\.json\.xz", "documents.schema.json"),
    (LANG + r"/document\.json\.gz", "document.schema.json"),
    (LANG + r"/releases/[0-9-]+/changelog\.json\.gz", "diff.schema.json"),
    (LANG + r"/releases/[0-9-]+/check\.json\.gz", "check.schema.json"),
    (LANG + r"/diffs/[0-9-]+\.\.[0-9-]+\.json\.gz", "diff.schema.json"),
    (LANG + r"/rules\.json", "rule-index.schema.json"),
    (LANG + r"/rules/[0-9a-zA-Z-]+\.json\.gz", "rules.schema.json"),
    (LANG + r"/glossary\.json", "glossary.schema.json"),
    (LANG + r"/translation\.json", "translation.schema.json"),
]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("json-api")
    archive = fixture_archive(folder / "archive")
    pair = [(archive.find(PAIR[0]), archive.find(PAIR[1]))]
    build_site(archive, folder / "site", BASE, index_search=False, diffs=pair)
    return folder / "archive", folder / "site"


def _api_files(site: Path) -> dict[str, Path]:
    top = site / ROOT
    return {p.relative_to(top).as_posix(): p for p in sorted(top.rglob("*")) if p.is_file()}


def _text(site: Path, path: str) -> str:
    """A file of the API's text, decompressed if it is compressed."""
    data = (site / ROOT / path).read_bytes()
    unpack = {".gz": gzip.decompress, ".xz": lzma.decompress}.get(Path(path).suffix, bytes)
    return unpack(data).decode("utf-8")


def _json(site: Path, path: str):
    return json.loads(_text(site, path))


def _registry() -> Registry:
    names = {name for _, name in SCHEMAS}
    resources = [
        Resource.from_contents(json.loads(schema_path(name).read_text(encoding="utf-8")))
        for name in (*names, "history.schema.json")
    ]
    return Registry().with_resources((str(r.contents["$id"]), r) for r in resources)


def _run(archive: Path, *arguments: str) -> str:
    result = CliRunner().invoke(main, ["--archive", str(archive), *arguments])
    assert result.exit_code == 0, result.output
    return result.output


def validate_api(site: Path, chosen: Callable[[str], bool] = bool) -> set[str]:
    """Validate every file of a built site's API (or those `chosen` by their path under
    api/v1/) against its schema; return the schemas used."""
    registry = _registry()
    seen = set()
    for path in filter(chosen, _api_files(site)):
        names = [name for pattern, name in SCHEMAS if re.fullmatch(pattern, path)]
        assert len(names) == 1, f"{path}: no schema (or more than one)"
        schema = registry.contents(
            f"https://github.com/rulesarchive/rulesarchive/schemas/{names[0]}"
        )
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(
            schema, registry=registry, format_checker=jsonschema.FormatChecker()
        )
        validator.validate(_json(site, path))
        seen.add(names[0])
    return seen


def test_every_api_file_validates_against_its_schema(built):
    _, site = built
    # each kind of file is written and checked
    assert validate_api(site) == {name for _, name in SCHEMAS}


def test_a_releases_changelog_and_check_are_what_the_commands_print(built):
    archive, site = built
    listed = _text(site, "en/releases.json")
    assert listed == _run(archive, "releases", "--lang", "en", "--format", "json")
    for index, release in enumerate(json.loads(listed)):
        date = release["effective_date"]
        folder = f"en/releases/{date}"
        check = _run(archive, "check", date, "--format", "json")
        assert _text(site, f"{folder}/check.json.gz") == check
        if index == 0:
            assert not (site / ROOT / folder / "changelog.json.gz").exists()  # nothing before
            continue
        changelog = _run(archive, "changelog", date, "--format", "json")
        assert _text(site, f"{folder}/changelog.json.gz") == changelog, date


def test_a_diff_asked_for_and_a_translation_are_what_the_commands_print(built):
    archive, site = built
    diff = _text(site, f"en/diffs/{PAIR[0]}..{PAIR[1]}.json.gz")
    assert diff == _run(archive, "diff", *PAIR, "--format", "json")
    for language in ("zh-Hans", "ko"):
        written = _text(site, f"{language}/translation.json")
        assert written == _run(archive, "translations", language, "--format", "json")
    assert not (site / ROOT / "en/translation.json").exists()


def test_a_rule_is_found_by_number_id_and_alias_with_its_history(built):
    archive, site = built
    index = _json(site, "en/rules.json")
    rule_id = index["numbers"]["400.6"]
    section = _json(site, f"en/rules/{index['ids'][rule_id]}.json.gz")
    (rule,) = [rule for rule in section["rules"] if rule["id"] == rule_id]
    assert rule["number"] == "400.6" and rule["current"]
    assert rule["history"] == json.loads(_run(archive, "history", "400.6", "--format", "json"))
    newest = rule["history"]["versions"][-1]
    assert (rule["text"], rule["examples"]) == (newest["text"], newest["examples"])
    for alias, target in index["aliases"].items():
        assert alias in next(r for r in _every_rule(site, "en") if r["id"] == target)["aliases"]


def _every_rule(site: Path, language: str) -> list[dict]:
    return _json(site, f"bulk/rules-{language}.json.gz")["rules"]


def test_every_release_read_whole_is_as_the_archive_holds_it(built):
    archive, site = built
    library = Library(archive)
    for language in ("en", "zh-Hans", "ko"):
        documents = _json(site, f"bulk/documents-{language}.json.xz")["documents"]
        releases = library.releases(language)
        assert [d["effective_date"] for d in documents] == [
            r.effective_date.isoformat() for r in releases
        ]
        for document, release in zip(documents, releases, strict=True):
            stored = library.load(release)
            assert [(r["number"], r["text"], r["examples"]) for r in document["rules"]] == [
                (r.number, r.printed_text, list(r.printed_examples)) for r in stored.rules
            ]
            assert [(e["term"], e["text"]) for e in document["glossary"]] == [
                (e.term, e.printed_text) for e in stored.glossary
            ]
            assert [(h["number"], h["title"]) for h in document["headings"]] == [
                (h.number, h.title) for h in stored.headings
            ]
        assert documents[-1] == _json(site, f"{language}/document.json.gz")


def test_the_newest_document_gives_each_rule_its_id(built):
    archive, site = built
    index = _json(site, "en/rules.json")
    latest = _json(site, "latest.json")["languages"]
    document = _json(site, "en/document.json.gz")
    printed = json.loads(_run(archive, "rule", "400.9", "--format", "json"))
    (rule,) = [rule for rule in document["rules"] if rule["number"] == "400.9"]
    assert (rule["text"], rule["id"]) == (printed["text"], index["numbers"]["400.9"])
    assert len(document["rules"]) == document["rule_count"]
    assert document["effective_date"] == latest["en"]["release"]["effective_date"]
    assert latest["en"]["document"] == f"{BASE}{ROOT}/en/document.json.gz"


def test_the_bulk_list_gives_each_files_size_sum_and_gzip_copy(built):
    _, site = built
    listed = _json(site, "bulk-data.json")
    assert listed["data_version"] == _json(site, "latest.json")["data_version"]
    assert [item["language"] for item in listed["data"]][::2] == ["en", "zh-Hans", "ko"]
    assert [(item["type"], item["content_encoding"]) for item in listed["data"]] == [
        ("rules", "gzip"),
        ("documents", "xz"),
    ] * 3
    for item in listed["data"]:
        packed = (site / item["download_uri"].removeprefix(BASE)).read_bytes()
        body = {"gzip": gzip.decompress, "xz": lzma.decompress}[item["content_encoding"]](packed)
        assert (item["size"], item["sha256"]) == (len(packed), hashlib.sha256(packed).hexdigest())
        assert (item["uncompressed_size"], item["uncompressed_sha256"]) == (
            len(body),
            hashlib.sha256(body).hexdigest(),
        )
        if item["type"] == "documents":
            continue  # checked against the archive above
        sections = _json(site, f"{item['language']}/rules.json")["ids"].values()
        in_sections = [
            rule
            for section in sorted(set(sections))
            for rule in _json(site, f"{item['language']}/rules/{section}.json.gz")["rules"]
        ]
        assert json.loads(body)["rules"] == in_sections


def test_a_rebuild_elsewhere_writes_the_same_bytes_and_a_no_op_rebuild_writes_none(built, tmp_path):
    _, site = built
    library = fixture_archive(tmp_path / "archive")  # the same archive, made again
    pair = [(library.find(PAIR[0]), library.find(PAIR[1]))]
    first = build_site(library, tmp_path / "site", BASE, index_search=False, diffs=pair)
    again = build_site(library, tmp_path / "site", BASE, index_search=False, diffs=pair)
    assert first.written > 0 and again.written == 0
    theirs, ours = _api_files(site), _api_files(tmp_path / "site")
    assert theirs.keys() == ours.keys()
    for path, file in ours.items():
        assert file.read_bytes() == theirs[path].read_bytes(), path


def test_a_rebuild_asked_for_another_diff_writes_it_alone_and_keeps_the_rest(tmp_path, monkeypatch):
    library = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    build_site(library, out, BASE, index_search=False)
    pair = [(library.find(PAIR[0]), library.find(PAIR[1]))]

    def worked_out_again(*_args):
        raise AssertionError("a language's files were made again")

    monkeypatch.setattr(json_api, "rule_document", worked_out_again)
    again = build_site(library, out, BASE, index_search=False, diffs=pair)
    assert again.written == 1
    assert (out / ROOT / f"en/diffs/{PAIR[0]}..{PAIR[1]}.json.gz").is_file()


def test_cli_builds_the_diff_asked_for_and_names_a_release_it_cannot_find(tmp_path):
    archive = tmp_path / "archive"
    fixture_archive(archive)
    out = tmp_path / "site"
    made = _run(archive, "build", "--out", str(out), "--api-diff", *PAIR)
    assert made.startswith(f"built {out}")
    assert (out / ROOT / f"en/diffs/{PAIR[0]}..{PAIR[1]}.json.gz").is_file()
    wrong = CliRunner().invoke(
        main, ["--archive", str(archive), "build", "--out", str(out), "--api-diff", "1990", "RNA"]
    )
    assert wrong.exit_code == 1 and wrong.output.count("\n") == 1, wrong.output
    assert "1990" in wrong.output


def test_a_glossary_entry_that_does_not_read_as_a_term_is_in_the_document(tmp_path):
    """The site leaves out of its glossary pages an entry that is no term; the API gives a
    release as printed (2026's 'Team vs. Team Variant' was lost once)."""
    library = fixture_archive(tmp_path / "archive")
    newest = library.releases("en")[-1]
    document = library.load(newest)
    entry = GlossaryEntry("Team vs. Team Variant", "A multiplayer variant. See rule 808.")
    later = replace(
        document, effective_date=dt.date(2020, 1, 24), glossary=(*document.glossary, entry)
    )
    save_release(library, later, "THB", "Theros Beyond Death")
    out = tmp_path / "site"
    build_site(library, out, BASE, index_search=False)
    terms = [entry["term"] for entry in _json(out, "en/document.json.gz")["glossary"]]
    assert terms == [entry.term for entry in later.glossary]
    assert [e["term"] for e in _json(out, "en/glossary.json")["glossary"]] == terms


def test_a_new_release_reads_only_itself_and_the_files_are_as_from_nothing(tmp_path, monkeypatch):
    # Two releases read whole per xz stream: the new one's stream holds the one before it
    monkeypatch.setattr(json_api, "_BATCH", 2)
    library = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    build_site(library, out, BASE, index_search=False)
    before = {path: file.read_bytes() for path, file in _api_files(out).items()}
    newest = library.load(library.releases("en")[-1])
    save_release(library, replace(newest, effective_date=dt.date(2020, 1, 24)), "THB", "Theros")
    loaded: list[str] = []
    load = Library.load
    with monkeypatch.context() as patched:
        patched.setattr(Library, "load", lambda self, r: loaded.append(r.key) or load(self, r))
        build_site(library, out, BASE, index_search=False)
    assert set(loaded) <= {"en/2019-05-03", "en/2020-01-24"}  # the new one and the one before
    packed = (out / ROOT / "bulk/documents-en.json.xz").read_bytes()
    streams = (len(library.releases("en")) + 1) // 2 + 1  # the last closes the list
    assert packed.count(b"\xfd7zXZ\x00") == streams
    again = _api_files(out)
    for path, made in before.items():  # each release's files, the translations' rules
        if "/releases/" in path or path.startswith(("zh-Hans/rules", "ko/rules")):
            assert again[path].read_bytes() == made, path
    fresh = tmp_path / "fresh"
    build_site(Library(tmp_path / "archive"), fresh, BASE, index_search=False)
    assert {p: f.read_bytes() for p, f in _api_files(fresh).items()} == {
        p: f.read_bytes() for p, f in again.items()
    }


def test_a_new_release_keeps_the_documents_of_the_rules_it_did_not_change(tmp_path, monkeypatch):
    """Each rule's document names the newest release, so a release added rewrites every file
    of the rules; the documents of the rules it did not change are kept, not worked out again,
    and the files are as a build from nothing writes them."""
    library = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    build_site(library, out, BASE, index_search=False)
    newest = library.load(library.releases("en")[-1])
    changed = replace(newest.rules[0], text=newest.rules[0].text + " Changed.")
    later = replace(newest, effective_date=dt.date(2020, 1, 24), rules=(changed, *newest.rules[1:]))
    save_release(library, later, "THB", "Theros")
    made: list[str] = []
    document = json_api.rule_document
    with monkeypatch.context() as patched:
        patched.setattr(
            json_api,
            "rule_document",
            lambda data, line, *rest: made.append(line.rule.number) or document(data, line, *rest),
        )
        build_site(library, out, BASE, index_search=False)
    assert made == [changed.number]
    fresh = tmp_path / "fresh"
    build_site(Library(tmp_path / "archive"), fresh, BASE, index_search=False)
    ours = _api_files(out)
    assert ours.keys() == _api_files(fresh).keys()
    for path, file in _api_files(fresh).items():
        assert ours[path].read_bytes() == file.read_bytes(), path
    section = _json(out, "en/rules/" + changed.number.split(".")[0] + ".json.gz")
    rule = next(rule for rule in section["rules"] if rule["number"] == changed.number)
    assert rule["last"] == "2020-01-24" and rule["history"]["versions"][-1]["releases"] == 1


def test_rule_histories_diff_examples_through_the_pages_kept_word_diffs(tmp_path, monkeypatch):
    library = fixture_archive(tmp_path / "archive")
    given: list[object] = []
    made = json_api.rule_document

    def recording(data, line, aliases, word_diff=None):
        given.append(word_diff)
        return made(data, line, aliases, word_diff)

    monkeypatch.setattr(json_api, "rule_document", recording)
    build_site(library, tmp_path / "site", BASE, index_search=False)
    assert given, "no rule document was made"
    # each language's link cache, the one its rule pages keep their diffs in
    assert {type(getattr(diff, "__self__", None)).__name__ for diff in given} == {"LinkCache"}
