"""The JSON API of the MTR and IPG (api/v1/mtr/en/, api/v1/ipg/en/): what the commands print
with `--doc`, byte for byte, each file valid against its schema; the CR's files as they were
before the tournament documents were added to the API (a golden list of their sums, made
from the sample's build by the code before) and as they are without them."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from rulesarchive.corpus.model import DocKind, Rule
from rulesarchive.differ.lineage import Line, Stretch
from rulesarchive.differ.sections import headings, units
from rulesarchive.site_builder import json_api
from rulesarchive.site_builder.json_api import ROOT

from rulesarchive.cli import main
from rulesarchive.library import Library
from tests.test_json_api import _api_files, _json, _text, validate_api
from tests.tournament_fixture import tournament_sites

GOLDEN = Path(__file__).parent / "golden" / "api-sample.sha256"
BASE = "http://localhost:8000/"  # the fixture's sites are built for the default address
SHARED = {"latest.json", "bulk-data.json"}  # the files every kind has entries in
KINDS = ("mtr", "ipg")
BULK = ("rules", "documents")


@pytest.fixture(scope="module")
def sites(policy_archive: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return tournament_sites(policy_archive, tmp_path_factory)


def _run(site: Path, *arguments: str) -> str:
    archive = site.parent / "archive"
    result = CliRunner().invoke(main, ["--archive", str(archive), *arguments])
    assert result.exit_code == 0, result.output
    return result.output


def _sums(site: Path) -> str:
    files = _api_files(site)
    return "".join(f"{hashlib.sha256(files[p].read_bytes()).hexdigest()}  {p}\n" for p in files)


def test_the_cr_files_are_as_before_and_as_without_the_tournament_documents(sites, request):
    cr_only, site = sites
    if request.config.getoption("--update-golden"):
        GOLDEN.write_text(_sums(cr_only), encoding="utf-8")
    assert _sums(cr_only) == GOLDEN.read_text(encoding="utf-8")
    theirs, ours = _api_files(cr_only), _api_files(site)
    for path, file in theirs.items():
        if path not in SHARED:
            assert ours[path].read_bytes() == file.read_bytes(), path
    before, after = _json(cr_only, "latest.json"), _json(site, "latest.json")
    assert before["languages"] == after["languages"] and "documents" not in before
    assert before["data_version"] != after["data_version"]  # it is the MTR's and IPG's too
    listed = [item for item in _json(site, "bulk-data.json")["data"] if "doc" not in item]
    alone = _json(cr_only, "bulk-data.json")["data"]
    assert [{**item, "data_version": ""} for item in listed] == [
        {**item, "data_version": ""} for item in alone
    ]


def _tournament(path: str) -> bool:
    """Tell whether a file of the API is a tournament document's or lists one."""
    bulk = any(path.startswith(f"bulk/{name}-{kind}-") for kind in KINDS for name in BULK)
    return path in SHARED or path.startswith(KINDS) or bulk


def test_every_file_validates_and_each_kind_has_its_folder_and_bulk_files(sites):
    _, site = sites
    schemas = validate_api(site, _tournament)  # the CR's are validated in test_json_api
    written = ("latest", "bulk-data", "releases", "diff", "check", "rule-index", "rules")
    assert schemas == {f"{name}.schema.json" for name in (*written, "document", "documents")}
    files = _api_files(site)
    for kind in KINDS:
        assert f"{kind}/en/releases.json" in files and f"{kind}/en/rules.json" in files
        assert f"bulk/rules-{kind}-en.json.gz" in files
        assert f"bulk/documents-{kind}-en.json.xz" in files
        assert f"{kind}/en/glossary.json" not in files  # a tournament document has none


@pytest.mark.parametrize("kind", KINDS)
def test_a_versions_changelog_check_and_the_list_are_what_the_commands_print(sites, kind):
    _, site = sites
    listed = _text(site, f"{kind}/en/releases.json")
    assert listed == _run(site, "releases", "--doc", kind, "--format", "json")
    dates = [release["effective_date"] for release in json.loads(listed)]
    assert len(dates) == 2
    assert not (site / ROOT / kind / "en/releases" / dates[0] / "changelog.json.gz").exists()
    changelog = _run(site, "changelog", dates[1], "--doc", kind, "--format", "json")
    assert _text(site, f"{kind}/en/releases/{dates[1]}/changelog.json.gz") == changelog
    assert json.loads(changelog)["doc"] == kind
    for date in dates:
        check = _run(site, "check", date, "--doc", kind, "--format", "json")
        assert _text(site, f"{kind}/en/releases/{date}/check.json.gz") == check


@pytest.mark.parametrize(
    ("kind", "number"),
    [
        ("mtr", "3.10"),  # Marked Cards, renumbered into section 3 on 2009-07-01
        ("ipg", "2.1/philosophy"),  # Missed Trigger: its Upgrade went out of it on 2015-07-17
    ],
)
def test_a_section_is_found_by_number_and_id_with_its_history(sites, kind, number):
    _, site = sites
    index = _json(site, f"{kind}/en/rules.json")
    assert index["doc"] == kind
    section_id = index["numbers"][number]
    section = _json(site, f"{kind}/en/rules/{index['ids'][section_id]}.json.gz")
    assert section["doc"] == kind
    (found,) = [line for line in section["rules"] if line["id"] == section_id]
    printed = _run(site, "history", number, "--doc", kind, "--format", "json")
    assert found["history"] == json.loads(printed)
    assert found["number"] == number and found["current"]
    assert found["numbers"] == found["history"]["numbers"]
    newest = found["history"]["versions"][-1]
    assert found["text"] == newest["text"]
    rule = json.loads(_run(site, "rule", number, "--doc", kind, "--format", "json"))
    assert found["text"] == rule["text"]
    every = _json(site, f"bulk/rules-{kind}-en.json.gz")["rules"]
    assert found in every and len(every) == len(index["ids"])


@pytest.mark.parametrize("kind", KINDS)
def test_every_version_read_whole_is_as_the_archive_holds_it(sites, kind):
    _, site = sites
    library = Library(site.parent / "archive", kind=DocKind(kind))
    bulk = _json(site, f"bulk/documents-{kind}-en.json.xz")
    assert bulk["doc"] == kind
    releases = library.releases("en")
    assert [d["effective_date"] for d in bulk["documents"]] == [
        r.effective_date.isoformat() for r in releases
    ]
    index = _json(site, f"{kind}/en/rules.json")
    for document, release in zip(bulk["documents"], releases, strict=True):
        stored = library.load(release)
        assert document["title"] == stored.title and document["doc"] == kind
        assert [(r["number"], r["text"]) for r in document["rules"]] == [
            (unit.number, unit.printed_text) for unit in units(stored)
        ]
        assert [(h["number"], h["title"]) for h in document["headings"]] == [
            (h.number, h.title) for h in headings(stored)
        ]
        assert all(rule["id"] in index["ids"] for rule in document["rules"])
    newest = bulk["documents"][-1]
    assert newest == _json(site, f"{kind}/en/document.json.gz")
    assert {r["number"]: r["id"] for r in newest["rules"]}.items() <= index["numbers"].items()


def test_the_bulk_list_and_the_pointer_lead_to_each_kinds_files(sites):
    _, site = sites
    listed = [item for item in _json(site, "bulk-data.json")["data"] if "doc" in item]
    assert [(item["doc"], item["type"]) for item in listed] == [
        (kind, kind_of_file) for kind in KINDS for kind_of_file in ("rules", "documents")
    ]
    for item in listed:
        packed = (site / item["download_uri"].removeprefix(BASE)).read_bytes()
        assert (item["size"], item["sha256"]) == (len(packed), hashlib.sha256(packed).hexdigest())
        if item["content_encoding"] == "gzip":
            assert item["uncompressed_size"] == len(gzip.decompress(packed))
    latest = _json(site, "latest.json")
    for kind in KINDS:
        pointers = latest["documents"][kind]["en"]
        newest = json.loads(_text(site, f"{kind}/en/releases.json"))[-1]
        assert pointers["release"] == newest
        for name in ("document", "changelog", "check", "releases", "rules"):
            assert (site / pointers[name].removeprefix(BASE)).is_file(), name


@pytest.mark.parametrize(
    ("number", "section"),
    [
        ("702.19b", "702"),
        ("3.9", "3"),
        ("2.1/philosophy", "2"),
        ("113/definition", "113"),  # the Penalty Guidelines' (2001-2007) numbering
        ("introduction", "introduction"),
        ("B", "B"),
    ],
)
def test_a_rule_or_part_is_in_the_file_of_its_section(number, section):
    line = Line("2001-11-01/" + number, (Stretch(0, 0, Rule(number, "")),))
    assert json_api._section(line) == section
