"""The Atom feed of releases and the sitemap."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import cast
from xml.sax.saxutils import escape

from feedgen.feed import FeedGenerator
from rulesarchive.corpus.model import Release
from rulesarchive.site_builder import paths

_FEED_SIZE = 50


def atom(releases: Iterable[Release], base_url: str) -> bytes:
    """Return an Atom feed of the newest releases, each linking to its changelog."""
    newest = sorted(releases, key=lambda r: (r.effective_date, r.language), reverse=True)
    feed = FeedGenerator()
    feed.id(base_url)
    feed.title("Comprehensive Rules releases")
    feed.link(href=base_url, rel="alternate")
    feed.link(href=base_url + "feed.atom", rel="self")
    feed.language("en")
    feed.updated(_moment(newest[0].effective_date) if newest else _moment(dt.date(1999, 1, 1)))
    for release in reversed(newest[:_FEED_SIZE]):
        url = base_url + paths.release_page(release)
        entry = feed.add_entry()
        entry.id(url)
        entry.link(href=url)
        name = f"{release.set_name} ({release.set_code})" if release.set_code else release.set_name
        entry.title(f"{release.effective_date} {name} [{release.language}]".replace("  ", " "))
        entry.updated(_moment(release.effective_date))
        entry.summary(f"{release.rule_count} rules, {release.glossary_count} glossary entries")
    return cast(bytes, feed.atom_str(pretty=True))  # feedgen has no type information


def sitemap(pages: Iterable[str], base_url: str, lastmod: dict[str, dt.date]) -> str:
    """Return sitemap.xml over the site's HTML pages (redirect stubs left out), with lastmod."""
    urls = []
    for page in pages:
        if not page.endswith(".html") or page == "404.html" or page.endswith("/goto.html"):
            continue
        modified = f"<lastmod>{lastmod[page].isoformat()}</lastmod>" if page in lastmod else ""
        urls.append(f"  <url><loc>{escape(base_url + page)}</loc>{modified}</url>")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        + "\n".join(urls)
        + "\n</urlset>\n"
    )


def _moment(day: dt.date) -> dt.datetime:
    return dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC)
