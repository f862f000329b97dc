"""A small site of every kind of document, made once per run: the shipped sample (CR only)
built, then two MTRs and two IPGs ingested beside it and built again (the site's pages and
its JSON API are each tested against the first build)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from rulesarchive.corpus.model import DocKind
from rulesarchive.scraper.ingest import ingest_paths
from rulesarchive.site_builder.build import build_site, sample_archive

from rulesarchive.library import Library
from tests.made_once import made_once

# Two MTRs (the 2009-07-01 renumbering into sections 1-10) and two IPGs (2015-07-17: Missed
# Trigger's Upgrade split out of its Philosophy, section 1.1 on REL removed).
FILES = (
    "mtr/mtr-2008-03-01.txt",
    "mtr/mtr-2009-06-20.txt",
    "ipg/ipg-2015-03-27.pdf",
    "ipg/ipg-2015-07-17.pdf",
)


def tournament_sites(policy_archive: Path, factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Return the sample's site (CR only) and the site with the MTRs and IPGs; their
    archive is beside them (`archive`)."""

    def build(folder: Path) -> None:
        root = folder / "archive"
        shutil.copytree(sample_archive(), root)
        build_site(Library(root), folder / "cr-only", index_search=False)
        library = Library(root)
        ingest_paths(library.archive, [policy_archive / name for name in FILES])
        kinds = [library.of_kind(DocKind.MTR), library.of_kind(DocKind.IPG)]
        build_site(library, folder / "site", documents=kinds)

    folder, _ = made_once(factory, "tournament-site", build)
    return folder / "cr-only", folder / "site"
