"""The site of the whole shared archive (English, zh-Hans): every internal link leads somewhere."""

from __future__ import annotations

from rulesarchive.site_builder.build import build_site

from tests.linkcheck import broken_links


def test_the_real_site_has_no_broken_link(ingested, tmp_path):
    archive, _ = ingested
    report = build_site(archive, tmp_path / "site", index_search=False)
    assert report.languages == ("en", "zh-Hans")
    assert report.pages > 20_000
    assert broken_links(tmp_path / "site") == []
    page = (tmp_path / "site" / "en" / "n" / "400.6" / "index.html").read_text(encoding="utf-8")
    assert "r/2001-07-23/217.1d/index.html" in page
