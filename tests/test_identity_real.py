"""Permanent ids on the shared archive: the same whatever the order or the subsets ingested, and
an id retired by a better alignment still resolves (site page, API)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from rulesarchive.corpus.ids import Registry, ids_file, render_registry, shipped_registry
from rulesarchive.site_builder.build import build_site

from rulesarchive.api import Archive
from rulesarchive.cli import main
from rulesarchive.library import Library

# Around 2017-01-20, when deathtouch's 702.2c became 702.2b (the file of 2017-01-19).
DAYS = ("2016-09-30", "2016-11-11", "2017-01-19", "2017-04-28")
DEATHTOUCH = "2009-07-11/702.2c"  # its id in the shipped registry of the whole archive
FOUR_HUNDRED_SIX = "2001-07-23/217.1d"  # 217.1d until 2009, begun 2001
RETIRED = "2017-01-20/702.2b"


def _ingest(root: Path, paths: list[Path]) -> None:
    result = CliRunner().invoke(main, ["--archive", str(root), "ingest", *map(str, paths)])
    assert result.exit_code == 0, result.output


def _ids(root: Path) -> list[tuple[str, tuple[str, ...]]]:
    trace = Library(root).trace("en")
    assert trace is not None
    return sorted((line.id, line.numbers) for line in trace.lines)


def _term_and_heading_ids(root: Path) -> tuple[list[tuple[str, tuple[str, ...]]], ...]:
    gathered = Library(root).gather("en")
    terms = sorted((term.id, term.keys) for term in gathered.glossary)
    headings = sorted(
        (h.id, tuple(each.number for _, _, each in h.stretches)) for h in gathered.heading_lines
    )
    return terms, headings


@pytest.fixture(scope="module")
def paths(shared_archive: Path) -> list[Path]:
    return [shared_archive / "en" / f"{day}.txt" for day in DAYS]


def test_ids_are_the_same_in_any_order_and_from_subsets_later_completed(paths, tmp_path):
    batches = {
        "oldest first": [paths],
        "newest first": [paths[::-1]],
        "odd, then even": [paths[::2], paths[1::2]],
        "newest, then the rest": [paths[-1:], paths[:-1]],
    }
    found = {}
    named = {}  # the glossary terms' and headings' ids
    for name, parts in batches.items():
        root = tmp_path / name.replace(" ", "-").replace(",", "")
        for part in parts:
            _ingest(root, part)
            _ids(root)  # ids recorded after each part, as a reader between ingests would
            _term_and_heading_ids(root)
        found[name] = _ids(root)
        named[name] = _term_and_heading_ids(root)
    first = found.pop("oldest first")
    assert all(ids == first for ids in found.values()), list(found)
    terms, headings = named.pop("oldest first")
    assert all(each == (terms, headings) for each in named.values()), list(named)
    assert ("1999-04-23/trample", ("trample",)) in terms
    assert ("1999-04-23/502", ("702",)) in headings  # Keyword Abilities, 502 until 2009
    assert (DEATHTOUCH, ("702.2c", "702.2b")) in first
    assert (FOUR_HUNDRED_SIX, ("400.6",)) in first
    assert ids_file(root, "en").is_file()  # recorded in the archive, beside the releases


def test_an_id_a_better_alignment_retires_still_resolves(paths, tmp_path):
    root = tmp_path / "archive"
    _ingest(root, paths)
    # Simulate an older aligner that did not pair 702.2c with 702.2b: it gave 702.2b an id of
    # its own, which the archive recorded (and a site published).
    shipped = shipped_registry("en")
    runs = shipped.ids[DEATHTOUCH]
    apart = {
        **shipped.ids,
        DEATHTOUCH: tuple(run for run in runs if run.number == "702.2c"),
        RETIRED: tuple(run for run in runs if run.number == "702.2b"),
    }
    assert [run.first.isoformat() for run in apart[RETIRED]] == ["2017-01-20"]
    old = Registry(shipped.releases, apart, {})
    ids_file(root, "en").write_text(render_registry(old), encoding="utf-8")

    library = Library(root)
    assert Archive(root).history_of_id(RETIRED).numbers == ("702.2c", "702.2b")
    assert library.aliases("en") == {RETIRED: DEATHTOUCH}
    assert f"alias\t{RETIRED}\t{DEATHTOUCH}" in ids_file(root, "en").read_text()

    site = tmp_path / "site"
    build_site(library, site, index_search=False)
    old_page = (site / "en" / "r" / RETIRED / "index.html").read_text()
    assert f'url=../../{DEATHTOUCH}/index.html"' in old_page
    assert (site / "en" / "r" / DEATHTOUCH / "index.html").is_file()


# M10 (2009-07-11) renamed 'End Phase' 'Ending Phase' and renumbered its chapter 312 to 512.
RENAMED = ("2009-05-01", "2009-07-08")  # the file of M10, in force 2009-07-11
ENDING_PHASE = "1999-04-23/end phase"  # ids in the shipped registries of the whole archive
ENDING_PHASE_CHAPTER = "1999-04-23/312"


def test_a_renamed_term_and_a_renumbered_heading_keep_their_ids_in_any_order(
    shared_archive, tmp_path
):
    paths = [shared_archive / "en" / f"{day}.txt" for day in RENAMED]
    for name, order in {"oldest-first": paths, "newest-first": paths[::-1]}.items():
        root = tmp_path / name
        for path in order:
            _ingest(root, [path])
        gathered = Library(root).gather("en")
        terms = {term.key: term for term in gathered.glossary}
        assert terms["ending phase"].id == ENDING_PHASE
        assert terms["ending phase"].keys == ("end phase", "ending phase")
        assert "end phase" not in terms  # one term, not a removed one beside a new one
        assert gathered.heading_ids(1)["512"] == ENDING_PHASE_CHAPTER
        assert gathered.heading_ids(0)["312"] == ENDING_PHASE_CHAPTER
        assert (root / "en" / "glossary-ids.tsv").is_file()
        assert (root / "en" / "heading-ids.tsv").is_file()

    site = tmp_path / "site"
    build_site(Library(root), site, index_search=False)
    old_page = (site / "en" / "glossary" / "end-phase" / "index.html").read_text()
    assert 'url=../ending-phase/index.html"' in old_page
    assert "“End Phase” is now “Ending Phase”" in old_page
    page = (site / "en" / "glossary" / "ending-phase" / "index.html").read_text()
    assert "renamed: “End Phase” → “Ending Phase”" in page
    glossary = (site / "api" / "v1" / "en" / "glossary.json").read_text()
    assert f'"id": "{ENDING_PHASE}"' in glossary
