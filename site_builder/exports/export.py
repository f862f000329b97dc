"""Run one export of the archive: gather the languages once, write the format, time it."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from rulesarchive.corpus.store import Archive
from rulesarchive.site_builder.exports import ExportError
from rulesarchive.site_builder.exports.collect import collect_languages
from rulesarchive.site_builder.exports.gitrepo import export_git
from rulesarchive.site_builder.exports.jsonfiles import SCHEMA_VERSION, export_json
from rulesarchive.site_builder.exports.sqlite import export_sqlite

FORMATS = ("sqlite", "json", "git")


@dataclass(frozen=True, slots=True)
class ExportReport:
    """What an export wrote."""

    languages: tuple[str, ...]
    releases: int
    seconds: float


def export_archive(
    archive: Archive,
    fmt: str,
    dest: Path,
    languages: Sequence[str] = (),
    cache: bool = True,
    progress: Callable[[str], None] | None = None,
) -> ExportReport:
    """Export the archive (every language, or these) as `fmt` at `dest`, replacing it whole."""
    started = time.perf_counter()
    if fmt not in FORMATS:
        raise ExportError(f"unknown export format {fmt!r} (known: {', '.join(FORMATS)})")
    if fmt == "git":
        if len(languages) > 1:
            raise ExportError("a git export holds one language: give one --lang")
        languages = languages or ("en",)
    collected = collect_languages(archive, languages, cache, progress)
    if progress:
        progress(f"writing {dest}")
    if fmt == "git":
        export_git(collected[0], dest)
    elif fmt == "sqlite":
        export_sqlite(collected, dest, export_meta())
    else:
        export_json(collected, dest, export_meta())
    return ExportReport(
        tuple(language.gathered.language for language in collected),
        sum(len(language.texts) for language in collected),
        time.perf_counter() - started,
    )


def export_meta() -> dict:
    """Return what an export says about itself: schema version, time, rulesarchive version."""
    return {
        "schema_version": SCHEMA_VERSION,
        "generated_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "rulesarchive_version": version("rulesarchive"),
    }
