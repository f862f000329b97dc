"""Preview a built site over HTTP, with its 404 page for missing paths."""

from __future__ import annotations

import functools
import io
import posixpath
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from os import PathLike
from pathlib import Path
from typing import BinaryIO
from urllib.parse import unquote, urlsplit


class _SiteHandler(SimpleHTTPRequestHandler):
    def send_head(self) -> io.BytesIO | BinaryIO | None:
        try:
            path = unquote(urlsplit(self.path).path, errors="strict")
        except (UnicodeDecodeError, ValueError):
            path = "\x00"  # not UTF-8, or not a URL: refused below
        if "\x00" in path or "\\" in path:
            self.send_error(HTTPStatus.BAD_REQUEST, "Bad path")
            return None
        # Hidden files (the build's .manifest.json, the other .site.* slot) are not the site.
        if any(part.startswith(".") for part in posixpath.normpath(path).split("/")):
            self.send_error(HTTPStatus.NOT_FOUND)
            return None
        return super().send_head()

    def list_directory(self, path: str | PathLike[str]) -> io.BytesIO | None:
        self.send_error(HTTPStatus.NOT_FOUND)  # a folder without index.html is not a page
        return None

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.exists():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet: the preview is for a person looking at pages, not at a log


class _SiteServer(ThreadingHTTPServer):
    request_queue_size = 128  # the default 5 makes 50 browsers' requests wait seconds
    daemon_threads = True


def make_server(site: Path, port: int = 8000, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """Return a threaded HTTP server for the site folder (call serve_forever on it)."""
    handler = functools.partial(_SiteHandler, directory=str(site))
    return _SiteServer((host, port), handler)
