"""Preview a built site over HTTP, with its 404 page for missing paths."""

from __future__ import annotations

import functools
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class _SiteHandler(SimpleHTTPRequestHandler):
    def send_error(self, code: int, message: str | None = None, explain: str | None = None):
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

    def log_message(self, format: str, *args) -> None:
        pass  # quiet: the preview is for a person looking at pages, not at a log


def make_server(site: Path, port: int = 8000, host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """Return an HTTP server for the site folder (call serve_forever on it)."""
    handler = functools.partial(_SiteHandler, directory=str(site))
    return ThreadingHTTPServer((host, port), handler)
