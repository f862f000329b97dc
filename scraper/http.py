"""Polite, resilient HTTP: retries with backoff, conditional GET against kept answers, limits."""

from __future__ import annotations

import contextlib
import datetime as dt
import email.utils
import hashlib
import logging
import queue
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from urllib.parse import urljoin, urlsplit

import requests
import urllib3
from rulesarchive.corpus.derived import DerivedData, Kind, entry_key
from rulesarchive.corpus.model import Provenance
from rulesarchive.scraper.settings import HttpSettings

log = logging.getLogger(__name__)

_RETRY_STATUSES = {429, 500, 502, 503, 504}
_DEFAULTS = HttpSettings()


class FetchError(Exception):
    """A URL could not be fetched; the message names the URL and the problem in one line."""


@dataclass(frozen=True, slots=True)
class Fetched:
    """A body and where it came from; `changed` is False when the server answered 304."""

    body: bytes
    provenance: Provenance  # the URL asked for, where it led, when, and the validators
    content_type: str = ""
    changed: bool = True

    @property
    def url(self) -> str:
        """Return the URL asked for."""
        return self.provenance.url

    @property
    def final_url(self) -> str:
        """Return the URL the body came from, after redirects."""
        return self.provenance.final_url

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
        cache: DerivedData | None = None,
        settings: HttpSettings = _DEFAULTS,
        mirror: str | None = None,
        sleep: Callable[[float], None] = time.sleep,
        hosts: tuple[str, ...] | None = None,
    ) -> None:
        """`hosts`: the only hosts spoken to (and their subdomains), the mirror's added;
        None: any host."""
        self.cache = cache or DerivedData(None)  # answers kept for conditional GETs
        self.settings = settings
        self.mirror = mirror.rstrip("/") if mirror else None
        self.sleep = sleep
        self.hosts = hosts
        self.session = _Session(self.allowed)
        self.session.headers["User-Agent"] = settings.user_agent
        self._last_request: dict[str, float] = {}
        self._unresolved: dict[str, str] = {}  # host -> why: a name that did not resolve once
        self._run_end = time.monotonic() + settings.run_deadline

    def time_left(self) -> float:
        """Return the seconds left before the run deadline."""
        return self._run_end - time.monotonic()

    def allowed(self, address: str) -> bool:
        """Tell whether an address is on one of the hosts this fetcher may talk to."""
        if self.hosts is None:
            return True
        if self.mirror and urlsplit(address).netloc == urlsplit(self.mirror).netloc:
            return True
        return on_hosts(address, self.hosts)

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
        if cached and cached.provenance.etag:
            headers["If-None-Match"] = cached.provenance.etag
        if cached and cached.provenance.last_modified:
            headers["If-Modified-Since"] = cached.provenance.last_modified
        if not self.allowed(self.where(url)):
            raise FetchError(f"{url}: not a host of the sources (refused)")
        host = urlsplit(self.where(url)).hostname or ""
        if host in self._unresolved:
            raise FetchError(f"{url}: {self._unresolved[host]}")
        deadline = min(time.monotonic() + self.settings.document_deadline, self._run_end)
        for attempt in range(self.settings.retries + 1):
            try:
                fetched = self._try(url, headers, cached, deadline)
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
                wait = self._wait_or_give_up(url, retry, attempt, deadline)
                log.info("%s: %s; retry %d in %.1f s", url, retry, attempt + 1, wait)
                self.sleep(wait)
        raise AssertionError("unreachable")

    def _wait_or_give_up(self, url: str, retry: _Retry, attempt: int, deadline: float) -> float:
        """Return how long to wait before the next try, or raise when waiting is pointless."""
        if retry.wait is not None and retry.wait > self.settings.max_wait:
            raise FetchError(
                f"{url}: {retry}; the server asks to retry after {retry.wait:.0f} s "
                f"(more than {self.settings.max_wait:.0f} s: try later)"
            )
        wait = self._wait(attempt, retry.wait)
        if time.monotonic() + wait >= deadline:
            raise FetchError(f"{url}: {retry} (out of time: {self._which(deadline)} passed)")
        return wait

    def _which(self, deadline: float) -> str:
        if deadline >= self._run_end:
            return f"the run's deadline of {self.settings.run_deadline:.0f} s"
        return f"the deadline of {self.settings.document_deadline:.0f} s per document"

    def _try(
        self, url: str, headers: dict[str, str], cached: Fetched | None, deadline: float
    ) -> Fetched:
        self._pace(url)
        left = deadline - time.monotonic()
        if left <= 0:
            raise FetchError(f"{url}: out of time ({self._which(deadline)} passed)")
        timeout = (min(self.settings.connect_timeout, left), min(self.settings.read_timeout, left))
        try:
            with self._answer(url, headers, timeout, deadline) as response:
                if response.status_code == 304 and cached is not None:
                    log.info("%s: not modified, using the cached copy", url)
                    return replace(
                        cached,
                        provenance=replace(cached.provenance, fetched_at=now()),
                        changed=False,
                    )
                if response.status_code in _RETRY_STATUSES:
                    raise _Retry(
                        f"HTTP {response.status_code} {response.reason}",
                        _retry_after(response.headers.get("Retry-After")),
                    )
                if response.status_code >= 400:
                    raise FetchError(f"{url}: HTTP {response.status_code} {response.reason}")
                body = self._read_body(url, response, deadline)
                provenance = Provenance(
                    url=url,
                    final_url=self._original_url(response.url, url),
                    fetched_at=now(),
                    etag=response.headers.get("ETag", ""),
                    last_modified=response.headers.get("Last-Modified", ""),
                )
                return Fetched(body, provenance, response.headers.get("Content-Type", ""))
        except requests.TooManyRedirects:
            raise FetchError(f"{url}: redirect loop (more than 30 redirects)") from None
        except requests.ConnectionError as error:
            reason = _short(error)
            if reason == _UNRESOLVED:  # offline or a wrong name: retrying will not help
                self._unresolved[urlsplit(self.where(url)).hostname or ""] = reason
                raise FetchError(f"{url}: {reason}") from None
            raise _Retry(reason) from None
        except requests.Timeout as error:
            raise _Retry(_short(error)) from None
        except (requests.exceptions.ChunkedEncodingError, urllib3.exceptions.ProtocolError):
            raise _Retry("body cut short") from None
        except urllib3.exceptions.ReadTimeoutError:
            raise _Retry("read timed out") from None
        except requests.RequestException as error:  # a bad URL or Location header, and the like
            raise FetchError(f"{url}: {type(error).__name__}") from None

    def _answer(
        self, url: str, headers: dict[str, str], timeout: tuple[float, float], deadline: float
    ) -> requests.Response:
        """GET up to the end of the headers, within the deadline: requests' timeout bounds
        each read, and a server sending a header byte every second never trips it. The
        request runs in a thread of its own, left to end (its answer closed) when too slow."""
        answers: queue.Queue[tuple[requests.Response | None, BaseException | None]]
        answers = queue.Queue()
        late = threading.Event()

        def ask() -> None:
            try:
                answer = self.session.get(
                    self.where(url), headers=headers, timeout=timeout, stream=True
                )
            except BaseException as error:  # handed to the caller's thread
                answers.put((None, error))
                return
            answers.put((answer, None))
            if late.is_set():
                answer.close()

        threading.Thread(target=ask, daemon=True, name=f"GET {url}").start()
        try:
            response, error = answers.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            late.set()
            with contextlib.suppress(queue.Empty):  # it came between the two
                stray, _ = answers.get_nowait()
                if stray is not None:
                    stray.close()
            raise FetchError(
                f"{url}: headers too slow (not all in when {self._which(deadline)} passed)"
            ) from None
        if error is not None:
            raise error
        assert response is not None
        return response

    def _read_body(self, url: str, response: requests.Response, deadline: float) -> bytes:
        declared = response.headers.get("Content-Length", "")
        if declared and not (declared.isascii() and declared.isdigit()):  # '²' is a digit too
            raise FetchError(f"{url}: invalid Content-Length {declared[:40]!r}")
        if declared and int(declared) > self.settings.max_bytes:
            raise FetchError(f"{url}: body of {declared} bytes is over the limit")
        encoded = response.headers.get("Content-Encoding")
        chunks, size = [], 0
        while True:
            left = None if encoded else _left_to_read(response)
            if left == 1 and _more_waiting(response):
                raise FetchError(f"{url}: body longer than its Content-Length of {declared} bytes")
            # read1 returns what has arrived: a server that drips a byte at a time still
            # meets the deadline (a blocking read of a whole chunk would wait for all of it).
            # The last byte is read alone, to look past it while the connection is open.
            amount = left - 1 if left is not None and 1 < left <= _CHUNK else _CHUNK
            chunk = response.raw.read1(amount, decode_content=True)
            if not chunk:
                break
            size += len(chunk)
            if size > self.settings.max_bytes:
                raise FetchError(f"{url}: body over the limit of {self.settings.max_bytes} bytes")
            if time.monotonic() > deadline:
                raise FetchError(
                    f"{url}: body too slow ({size} bytes read when {self._which(deadline)} passed)"
                )
            chunks.append(chunk)
        body = b"".join(chunks)
        log.info("%s: %d bytes, HTTP %d", url, len(body), response.status_code)
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
        backoff = self.settings.backoff * 2.0**attempt * random.uniform(0.5, 1.0)
        return min(self.settings.max_wait, max(backoff, asked or 0.0))

    def _cached(self, url: str) -> Fetched | None:
        found = self.cache.get(entry_key(Kind.HTTP, url), Fetched)
        return found if found is not None and found.url == url else None

    def _remember(self, fetched: Fetched) -> None:
        self.cache.put(entry_key(Kind.HTTP, fetched.url), replace(fetched, changed=True))


def on_hosts(url: str, hosts: tuple[str, ...]) -> bool:
    """Tell whether a URL's host is one of `hosts` or a subdomain of one."""
    host = (urlsplit(url).hostname or "").rstrip(".")
    return any(host == known or host.endswith(f".{known}") for known in hosts)


class _Session(requests.Session):
    """A session that follows a redirect only to a host it may talk to."""

    def __init__(self, allowed: Callable[[str], bool]) -> None:
        super().__init__()
        self._allowed = allowed

    def get_redirect_target(self, resp: requests.Response) -> str | None:
        target = super().get_redirect_target(resp)
        if target is not None and not self._allowed(urljoin(resp.url, target)):
            where = urlsplit(urljoin(resp.url, target)).netloc
            resp.close()
            raise FetchError(f"{resp.url}: redirected to {where}, not a host of the sources")
        return target


def _check_document(fetched: Fetched, sha256: str) -> None:
    head = fetched.body[:512].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if "text/html" in fetched.content_type or head.startswith((b"<!doctype html", b"<html")):
        raise FetchError(f"{fetched.url}: an HTML page where a rules document was expected")
    if sha256 and fetched.sha256 != sha256:
        raise _Retry(f"sha256 {fetched.sha256[:12]}… is not the catalogued {sha256[:12]}…")


_CHUNK = 64 * 1024


def _left_to_read(response: requests.Response) -> int | None:
    """Return the bytes of the declared length not read yet (http.client counts them)."""
    left = getattr(getattr(response.raw, "_fp", None), "length", None)
    return left if isinstance(left, int) else None


def _more_waiting(response: requests.Response) -> bool:
    """Tell whether more than the one byte still due has arrived on the connection."""
    reader = getattr(getattr(response.raw, "_fp", None), "fp", None)
    try:
        return reader is not None and len(reader.peek(2)) > 1
    except (OSError, ValueError):
        return False


def _retry_after(value: str | None) -> float | None:
    """Read Retry-After: seconds (whole or not) or an HTTP date; None when it is neither."""
    if not value:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError, OverflowError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=dt.UTC)
        return max(0.0, (when - dt.datetime.now(dt.UTC)).total_seconds())
    return max(0.0, seconds) if seconds == seconds and seconds != float("inf") else None


def now() -> str:
    """Return the current UTC time as recorded in provenance ('2026-11-29T13:00:00+00:00')."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


_UNRESOLVED = "cannot resolve the host name"
_RESOLUTION_FAILURES = (
    "NameResolution",
    "Name or service not known",
    "Temporary failure in name resolution",
    "nodename nor servname",
    "No address associated",
)


def _short(error: Exception) -> str:
    """Say what went wrong with a connection in a few words (requests' messages run long)."""
    text = str(error)
    if isinstance(error, requests.ReadTimeout):
        return "read timed out"
    if isinstance(error, requests.ConnectTimeout):
        return "connection timed out"
    if any(sign in text for sign in _RESOLUTION_FAILURES):
        return _UNRESOLVED
    if "Connection refused" in text:
        return "connection refused"
    return f"connection failed ({type(error).__name__})"
