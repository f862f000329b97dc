"""Polite, resilient HTTP: retries with backoff, conditional GET with an on-disk cache, limits."""

from __future__ import annotations

import datetime as dt
import email.utils
import hashlib
import json
import logging
import os
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import requests

log = logging.getLogger(__name__)

USER_AGENT = "rulesarchive/0.1 (+https://github.com/rulesarchive; Comprehensive Rules archive)"
_RETRY_STATUSES = {429, 500, 502, 503, 504}


class FetchError(Exception):
    """A URL could not be fetched; the message names the URL and the problem in one line."""


@dataclass(frozen=True, slots=True)
class HttpSettings:
    """Timeouts, retries and limits of one fetcher."""

    connect_timeout: float = 10.0
    read_timeout: float = 60.0
    retries: int = 4
    backoff: float = 1.0  # first wait; doubled each retry, with jitter
    max_wait: float = 120.0  # longest wait between tries, Retry-After included
    max_bytes: int = 64 * 1024 * 1024
    per_host_interval: float = 1.0  # at least this long between two requests to one host
    user_agent: str = USER_AGENT


@dataclass(frozen=True, slots=True)
class Fetched:
    """A body and where it came from; `changed` is False when the server answered 304."""

    url: str
    final_url: str
    body: bytes
    fetched_at: str
    etag: str = ""
    last_modified: str = ""
    content_type: str = ""
    changed: bool = True

    @property
    def sha256(self) -> str:
        """Return the sha256 of the body."""
        return hashlib.sha256(self.body).hexdigest()


class _Retry(Exception):
    """One try failed in a way worth another try (after `wait` seconds, if given)."""

    def __init__(self, reason: str, wait: float | None = None) -> None:
        super().__init__(reason)
        self.wait = wait


class Fetcher:
    """GET URLs through one session: retries, conditional GET, cache, rate limit, mirror."""

    def __init__(
        self,
        cache_dir: Path | None = None,
        settings: HttpSettings = HttpSettings(),
        mirror: str | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.cache_dir = cache_dir
        self.settings = settings
        self.mirror = mirror.rstrip("/") if mirror else None
        self.sleep = sleep
        self.session = requests.Session()
        self.session.headers["User-Agent"] = settings.user_agent
        self._last_request: dict[str, float] = {}

    def where(self, url: str) -> str:
        """Return the address actually requested: the URL, or its copy under the mirror."""
        if not self.mirror:
            return url
        parts = urlsplit(url)
        query = f"?{parts.query}" if parts.query else ""
        return f"{self.mirror}/{parts.netloc}{parts.path}{query}"

    def get(self, url: str, *, document: bool = False, sha256: str = "") -> Fetched:
        """Fetch a URL; a document must not be HTML and must match `sha256` when given."""
        cached = self._cached(url)
        headers = {}
        if cached and cached.etag:
            headers["If-None-Match"] = cached.etag
        if cached and cached.last_modified:
            headers["If-Modified-Since"] = cached.last_modified
        for attempt in range(self.settings.retries + 1):
            try:
                fetched = self._try(url, headers, cached)
                if document:
                    _check_document(fetched, sha256)
                if fetched.changed:
                    self._remember(fetched)
                return fetched
            except _Retry as retry:
                if attempt == self.settings.retries:
                    raise FetchError(
                        f"{url}: {retry} (gave up after {attempt + 1} tries)"
                    ) from None
                wait = self._wait(attempt, retry.wait)
                log.info("%s: %s; retry %d in %.1f s", url, retry, attempt + 1, wait)
                self.sleep(wait)
        raise AssertionError("unreachable")

    def _try(self, url: str, headers: dict[str, str], cached: Fetched | None) -> Fetched:
        self._pace(url)
        timeout = (self.settings.connect_timeout, self.settings.read_timeout)
        try:
            with self.session.get(
                self.where(url), headers=headers, timeout=timeout, stream=True
            ) as response:
                if response.status_code == 304 and cached is not None:
                    log.info("%s: not modified, using the cached copy", url)
                    return Fetched(
                        url,
                        cached.final_url,
                        cached.body,
                        now(),
                        cached.etag,
                        cached.last_modified,
                        cached.content_type,
                        changed=False,
                    )
                if response.status_code in _RETRY_STATUSES:
                    raise _Retry(
                        f"HTTP {response.status_code} {response.reason}",
                        _retry_after(response.headers.get("Retry-After")),
                    )
                if response.status_code >= 400:
                    raise FetchError(f"{url}: HTTP {response.status_code} {response.reason}")
                body = self._read_body(url, response)
                return Fetched(
                    url,
                    self._original_url(response.url, url),
                    body,
                    now(),
                    response.headers.get("ETag", ""),
                    response.headers.get("Last-Modified", ""),
                    response.headers.get("Content-Type", ""),
                )
        except (requests.ConnectionError, requests.Timeout) as error:
            raise _Retry(_short(error)) from None
        except requests.exceptions.ChunkedEncodingError:
            raise _Retry("body cut short") from None

    def _read_body(self, url: str, response: requests.Response) -> bytes:
        declared = response.headers.get("Content-Length")
        if declared and int(declared) > self.settings.max_bytes:
            raise FetchError(f"{url}: body of {declared} bytes is over the limit")
        chunks, size = [], 0
        for chunk in response.iter_content(chunk_size=64 * 1024):
            size += len(chunk)
            if size > self.settings.max_bytes:
                raise FetchError(f"{url}: body over the limit of {self.settings.max_bytes} bytes")
            chunks.append(chunk)
        body = b"".join(chunks)
        log.info("%s: %d bytes, HTTP %d", url, len(body), response.status_code)
        encoded = response.headers.get("Content-Encoding")
        if declared and not encoded and len(body) != int(declared):
            raise _Retry(f"body cut short ({len(body)} of {declared} bytes)")
        return body

    def _original_url(self, requested: str, url: str) -> str:
        """Map a final address under the mirror back to the URL it stands for."""
        if not self.mirror or not requested.startswith(self.mirror + "/"):
            return requested
        rest = requested[len(self.mirror) + 1 :]
        return f"{urlsplit(url).scheme}://{rest}"

    def _pace(self, url: str) -> None:
        host = urlsplit(self.where(url)).netloc
        last = self._last_request.get(host)
        if last is not None:
            wait = self.settings.per_host_interval - (time.monotonic() - last)
            if wait > 0:
                log.info("waiting %.1f s before the next request to %s", wait, host)
                self.sleep(wait)
        self._last_request[host] = time.monotonic()

    def _wait(self, attempt: int, asked: float | None) -> float:
        backoff = self.settings.backoff * 2**attempt * random.uniform(0.5, 1.0)
        return min(self.settings.max_wait, max(backoff, asked or 0.0))

    def _paths(self, url: str) -> tuple[Path, Path] | None:
        if self.cache_dir is None:
            return None
        key = hashlib.sha256(url.encode()).hexdigest()[:32]
        return self.cache_dir / f"{key}.json", self.cache_dir / f"{key}.body"

    def _cached(self, url: str) -> Fetched | None:
        paths = self._paths(url)
        if paths is None or not paths[0].exists() or not paths[1].exists():
            return None
        meta = json.loads(paths[0].read_text(encoding="utf-8"))
        body = paths[1].read_bytes()
        if hashlib.sha256(body).hexdigest() != meta["sha256"]:
            return None  # a cache file cut short: fetch afresh
        return Fetched(
            url,
            meta["final_url"],
            body,
            meta["fetched_at"],
            meta["etag"],
            meta["last_modified"],
            meta.get("content_type", ""),
        )

    def _remember(self, fetched: Fetched) -> None:
        paths = self._paths(fetched.url)
        if paths is None:
            return
        meta = {
            "url": fetched.url,
            "final_url": fetched.final_url,
            "fetched_at": fetched.fetched_at,
            "etag": fetched.etag,
            "last_modified": fetched.last_modified,
            "content_type": fetched.content_type,
            "sha256": fetched.sha256,
        }
        paths[0].parent.mkdir(parents=True, exist_ok=True)
        _write_atomically(paths[1], fetched.body)  # body first: metadata only for a whole body
        _write_atomically(paths[0], json.dumps(meta, indent=1).encode())


def _check_document(fetched: Fetched, sha256: str) -> None:
    head = fetched.body[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if "text/html" in fetched.content_type or head.startswith((b"<!doctype html", b"<html")):
        raise FetchError(f"{fetched.url}: an HTML page where a rules document was expected")
    if sha256 and fetched.sha256 != sha256:
        raise _Retry(f"sha256 {fetched.sha256[:12]}… is not the catalogued {sha256[:12]}…")


def _retry_after(value: str | None) -> float | None:
    """Read Retry-After: seconds, or an HTTP date."""
    if not value:
        return None
    if value.strip().isdigit():
        return float(value.strip())
    when = email.utils.parsedate_to_datetime(value)
    if when is None:
        return None
    return max(0.0, (when - dt.datetime.now(dt.UTC)).total_seconds())


def _write_atomically(path: Path, data: bytes) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".incoming-")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def now() -> str:
    """Return the current UTC time as recorded in provenance ('2026-11-29T13:00:00+00:00')."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def _short(error: Exception) -> str:
    """Say what went wrong with a connection in a few words (requests' messages run long)."""
    text = str(error)
    if isinstance(error, requests.ReadTimeout):
        return "read timed out"
    if isinstance(error, requests.ConnectTimeout):
        return "connection timed out"
    if "NameResolution" in text or "Name or service not known" in text:
        return "cannot resolve the host name"
    if "Connection refused" in text:
        return "connection refused"
    return f"connection failed ({type(error).__name__})"
