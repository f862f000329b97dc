"""Shared fixtures: the real archive in ../shared (required under CI) and an ingested copy."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.made_once import made_once

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr-archive"
POLICY = SHARED.parent / "policy-archive"  # the MTRs and IPGs


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="Rewrite golden files.")


@pytest.fixture(autouse=True)
def derived_data(tmp_path_factory: pytest.TempPathFactory, monkeypatch) -> Path:
    """Keep each test's derived data in a folder of its own (never the user's cache): a test
    starts with nothing worked out, as a new archive would."""
    folder = tmp_path_factory.mktemp("derived")
    monkeypatch.setenv("RULESARCHIVE_CACHE", str(folder))
    return folder


@pytest.fixture(scope="session")
def shared_archive() -> Path:
    """Return ../shared/cr-archive; fail under CI=true when it is missing, skip elsewhere."""
    if not (SHARED / "MANIFEST.tsv").is_file():
        message = f"real data not found at {SHARED}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return SHARED


@pytest.fixture(scope="session")
def policy_archive() -> Path:
    """Return ../shared/policy-archive; fail under CI=true when it is missing, skip elsewhere."""
    if not (POLICY / "MANIFEST.tsv").is_file():
        message = f"real data not found at {POLICY}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return POLICY


@pytest.fixture(scope="session")
def ingested(shared_archive: Path, tmp_path_factory: pytest.TempPathFactory):
    """Ingest every file of the shared archive once per test session; return (Archive, outcomes)."""
    from rulesarchive.corpus.derived import DerivedData
    from rulesarchive.corpus.store import Archive
    from rulesarchive.scraper.ingest import ingest_paths

    # One store of derived data for the run's real archive: what one test works out of it
    # (diffs, lines, checks) the others read, on every worker.
    def ingest(folder: Path) -> list:
        (folder / "derived").mkdir()
        archive = Archive(folder / "archive", derived=DerivedData(folder / "derived"))
        paths = sorted((shared_archive / "en").glob("*.txt"))
        paths += sorted((shared_archive / "orig" / "en").iterdir())
        paths += sorted((shared_archive / "zh-Hans").glob("*.txt"))
        paths += sorted((shared_archive / "ko").glob("*.txt"))  # no --lang: Hangul says ko
        return ingest_paths(archive, paths)

    folder, outcomes = made_once(tmp_path_factory, "real-archive", ingest)
    return Archive(folder / "archive", derived=DerivedData(folder / "derived")), outcomes


@pytest.fixture(scope="session")
def library(ingested):
    """The library over the session's real archive (sharing its derived data)."""
    from rulesarchive.library import Library

    archive, _ = ingested
    return Library(archive.root, archive.derived)


@pytest.fixture(scope="session")
def real_site(library, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the site of the whole ingested archive once per session, with its search index
    (tests/test_search_ranking.py searches it)."""
    from rulesarchive.site_builder.build import build_site

    def build(folder: Path) -> None:
        build_site(library, folder / "site")

    folder, _ = made_once(tmp_path_factory, "real-site", build)
    return folder / "site"
