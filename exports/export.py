"""Write one export of collected languages: the format chosen, replacing the destination whole."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from importlib.metadata import version
from pathlib import Path

from rulesarchive.corpus.store import no_releases
from rulesarchive.differ.language import data_version
from rulesarchive.exports import ExportError, ExportMeta
from rulesarchive.exports.collect import Collected
from rulesarchive.exports.gitrepo import export_git
from rulesarchive.exports.jsonfiles import SCHEMA_VERSION, export_json
from rulesarchive.exports.sqlite import export_sqlite

FORMATS = ("sqlite", "json", "git")


def check_request(
    fmt: str, languages: Sequence[str], stored: Sequence[str], archive: Path
) -> list[str]:
    """Return the languages an export of `fmt` writes (every stored one, or these), English
    first (translations need it); raise ExportError for a request that cannot be met."""
    if fmt not in FORMATS:
        raise ExportError(f"unknown export format {fmt!r} (known: {', '.join(FORMATS)})")
    if fmt == "git":
        if len(languages) > 1:
            raise ExportError("a git export holds one language: give one --lang")
        languages = languages or ("en",)
    if not stored:
        raise ExportError(no_releases(archive))
    chosen = list(languages) or list(stored)
    unknown = [language for language in chosen if language not in stored]
    if unknown:
        raise ExportError(f"no {', '.join(unknown)} releases in the archive at {archive}")
    return sorted(chosen, key=lambda language: (language != "en", language))


def write_export(
    collected: Sequence[Collected],
    fmt: str,
    dest: Path,
    progress: Callable[[str], None] | None = None,
) -> None:
    """Write the collected languages as `fmt` at `dest`, replacing it whole."""
    if progress:
        progress(f"writing {dest}")
    if fmt == "git":
        export_git(collected[0], dest)
    elif fmt == "sqlite":
        export_sqlite(collected, dest, export_meta(collected))
    else:
        export_json(collected, dest, export_meta(collected))


def export_meta(collected: Sequence[Collected]) -> ExportMeta:
    """Return what an export says about itself: schema version, kind of document, data
    version, time, rulesarchive version."""
    return {
        "schema_version": SCHEMA_VERSION,
        "doc": collected[0].gathered.releases[0].kind.value,
        "data_version": data_version([c.gathered for c in collected], SCHEMA_VERSION),
        "generated_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "rulesarchive_version": version("rulesarchive"),
    }
