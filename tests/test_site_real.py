"""The site of the whole shared archive (English, zh-Hans): every internal link leads somewhere."""

from __future__ import annotations

import json
import random

import pytest
from rulesarchive.differ.lineage import language_lines, rule_history
from rulesarchive.differ.report import history_data
from rulesarchive.site_builder.build import build_site

from tests.linkcheck import broken_links


@pytest.fixture(scope="module")
def real_site(ingested, tmp_path_factory):
    """Build the site of the whole shared archive once for this module."""
    archive, _ = ingested
    site = tmp_path_factory.mktemp("real") / "site"
    return site, build_site(archive, site, index_search=False)


def test_the_real_site_has_no_broken_link(real_site):
    site, report = real_site
    assert report.languages == ("en", "zh-Hans")
    assert report.pages > 20_000
    assert broken_links(site) == []
    page = (site / "en" / "n" / "400.6" / "index.html").read_text(encoding="utf-8")
    assert "r/2001-07-23/217.1d/index.html" in page


def test_cli_history_and_site_data_read_one_line_of_descent(ingested, real_site):
    archive, _ = ingested
    site, _ = real_site
    newest = len(archive.releases("en")) - 1
    current = {line.number_at(newest): line for line in language_lines(archive, "en")}
    numbers = random.Random(9).sample(sorted(set(current) - {None}), 300)
    for number in numbers:
        path = site / "data" / "en" / "r" / f"{current[number].id}.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        cli = history_data(rule_history(archive, number))
        assert data["versions"] == cli["versions"], number
        assert data["numbers"] == cli["numbers"], number
