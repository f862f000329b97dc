"""Find broken internal links and anchors in a built site (one read of each page: fast on 35k
pages)."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

# The builder writes every attribute double-quoted (Jinja templates, markupsafe); a tag's
# attributes are read in a start tag only (not in text, comments or scripts' strings).
_TAG = re.compile(r"<[a-zA-Z][^<>]*>")
_ATTRIBUTE = re.compile(r'\s(href|src|id)="([^"]*)"')
_SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL)


def _attributes(text: str) -> tuple[list[str], set[str]]:
    """Return a page's links (href and src) and its ids."""
    links: list[str] = []
    ids: set[str] = set()
    for tag in _TAG.findall(_SCRIPT.sub("", text)):
        for name, value in _ATTRIBUTE.findall(tag):
            value = html.unescape(value)
            if name == "id":
                if value:
                    ids.add(value)
            else:
                links.append(value)
    return links, ids


def broken_links(site: Path) -> list[str]:
    """Return 'page -> link' for every internal link or anchor that leads nowhere."""
    root = os.path.realpath(site)
    walked = list(os.walk(root))
    files = {os.path.join(folder, name) for folder, _, names in walked for name in names}
    folders = {folder for folder, _, _ in walked}
    pages = sorted(
        path
        for path in files
        if path.endswith(".html") and "pagefind" not in Path(path).relative_to(root).parts
    )
    read = {path: _attributes(Path(path).read_text(encoding="utf-8")) for path in pages}
    broken = []
    for path in pages:
        for link in read[path][0]:
            parts = urlsplit(link)
            if parts.scheme or link.startswith("//"):
                continue
            if parts.path.startswith("/"):
                target = os.path.join(root, unquote(parts.path).lstrip("/"))
            elif parts.path:
                target = os.path.normpath(os.path.join(os.path.dirname(path), unquote(parts.path)))
            else:
                target = path
            target = target.rstrip("/") if target != root else target
            if target not in files and target not in folders:
                broken.append(f"{os.path.relpath(path, root)} -> {link}")
            elif parts.fragment and target.endswith(".html"):
                if target not in read:  # a page the walk left out (pagefind's)
                    read[target] = _attributes(Path(target).read_text(encoding="utf-8"))
                ids = read[target][1]
                if parts.fragment not in ids:
                    broken.append(f"{os.path.relpath(path, root)} -> {link} (no such anchor)")
    return broken
