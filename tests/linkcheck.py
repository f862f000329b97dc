"""Find broken internal links and anchors in a built site (stdlib parser: fast on 25k pages)."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in {"href", "src"} and value is not None:
                self.links.append(value)
            elif name == "id" and value:
                self.ids.add(value)


def _read(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def broken_links(site: Path) -> list[str]:
    """Return 'page -> link' for every internal link or anchor that leads nowhere."""
    site = site.resolve()
    anchors: dict[Path, set[str]] = {}
    broken = []
    for path in sorted(site.rglob("*.html")):
        if "pagefind" in path.relative_to(site).parts:
            continue
        for link in _read(path).links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//"):
                continue
            if parts.path.startswith("/"):
                target = site / unquote(parts.path).lstrip("/")
            elif parts.path:
                target = (path.parent / unquote(parts.path)).resolve()
            else:
                target = path
            if not target.exists():
                broken.append(f"{path.relative_to(site)} -> {link}")
            elif parts.fragment and target.suffix == ".html":
                if target not in anchors:
                    anchors[target] = _read(target).ids
                if parts.fragment not in anchors[target]:
                    broken.append(f"{path.relative_to(site)} -> {link} (no such anchor)")
    return broken
