"""A removed rule's page says where its content went, on the real rules (2022-06-10 merged
705.1 and 705.2, Coin Flipping, into 705.2)."""

from __future__ import annotations

import posixpath
from pathlib import Path

from bs4 import BeautifulSoup
from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.ingest import ingest_paths
from rulesarchive.site_builder.build import build_site

from rulesarchive.library import Library


def _soup(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


def test_a_rule_merged_away_links_the_rule_it_was_merged_into(shared_archive, tmp_path):
    archive = Archive(tmp_path / "archive")
    days = ("2022-04-29", "2022-06-10")
    ingest_paths(archive, [shared_archive / "en" / f"{day}.txt" for day in days])
    site = tmp_path / "site"
    build_site(Library(archive.root), site)

    removed = _soup(site / "en" / "removed.html")
    merged = [
        item
        for item in removed.select("ol.rules > li")
        if item.select_one(".rule-number").text == "705.2"
    ]
    assert len(merged) == 1
    went = merged[0].select_one(".successors")
    assert went is not None and went.text == "(merged into 705.2)"
    # The rule page of the rule gone says it too, and links the rule that took its text.
    page = posixpath.join("en", merged[0].select_one("a.rule-number")["href"])
    link = _soup(site / page).select_one("dd.successors a")
    assert link.text == "705.2"
    target = posixpath.normpath(posixpath.join(posixpath.dirname(page), link["href"]))
    heir = _soup(site / target)
    assert heir.select_one("h1 .rule-number").text == "705.2"
    assert heir.select_one("h1 .badge") is None  # in force
    assert "705.1" in heir.select_one("dd.numbers").text  # the line of 705.1 carries on
