"""The scraper's limits and settings, apart from the code applying them: the CLI shows their
defaults without importing requests or pdfminer."""

from __future__ import annotations

from dataclasses import dataclass

# Ceiling on a file's bytes and on its extracted text: the largest real document (2022-11-18
# TXT) is 1.7 MB, and a 200 MB text already costs 2.7 GB of memory to parse.
MAX_BYTES = 32 * 2**20
USER_AGENT = "rulesarchive/0.1 (+https://github.com/rulesarchive; Comprehensive Rules archive)"


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
    document_deadline: float = 300.0  # one URL: every try, wait and byte of the body
    run_deadline: float = 3 * 3600.0  # everything one Fetcher does, from its creation
