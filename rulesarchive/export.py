"""`rulesarchive export`: the languages read once through the library, written for data tools."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rulesarchive.corpus.model import DocKind, Document, Release
from rulesarchive.differ.translations import TranslationReport
from rulesarchive.exports.collect import Collected, DocumentParts, collected, document_parts
from rulesarchive.exports.export import check_request, write_export
from rulesarchive.library import Library


@dataclass(frozen=True, slots=True)
class ExportReport:
    """What an export wrote."""

    languages: tuple[str, ...]
    releases: int
    seconds: float


def export_archive(
    library: Library,
    fmt: str,
    dest: Path,
    languages: Sequence[str] = (),
    progress: Callable[[str], None] | None = None,
) -> ExportReport:
    """Export the languages (default every one; `git`: English) of the library's kind of
    document as `fmt` at `dest`, replacing it whole: each language is gathered once (its diffs
    and lines of descent, as the site's)."""
    started = time.perf_counter()
    stored = sorted({release.language for release in library.releases()})
    chosen = check_request(fmt, languages, stored, library.root)
    for language in chosen:  # the diffs not yet kept, worked out on every core first
        library.make_diffs(language)
    languages_collected: list[Collected] = []
    for language in chosen:
        if progress:
            progress(f"reading and diffing the {language} releases")
        parts: list[DocumentParts] = []
        gathered = library.gather(language, _keeper(parts))
        english = next(
            (c.gathered for c in languages_collected if c.gathered.language == "en"), None
        )
        fixes: tuple[dict[str, tuple[str, ...]], ...] = ()
        reports: tuple[TranslationReport, ...] = ()
        if fmt != "git" and library.archive.kind == DocKind.CR:  # the CR's citation fixes
            fixes = library.check(language, gathered, english).fixes
        if fmt != "git" and english is not None:  # a translation, against the English exported
            reports = tuple(library.translation(language, r) for r in gathered.releases)
        languages_collected.append(collected(gathered, parts, fixes, reports))
    write_export(languages_collected, fmt, dest, progress)
    return ExportReport(
        tuple(chosen),
        sum(len(language.texts) for language in languages_collected),
        time.perf_counter() - started,
    )


def _keeper(parts: list[DocumentParts]) -> Callable[[int, Release, Document], None]:
    """Return what keeps each document's parts as gathering passes it."""

    def keep(_index: int, _release: Release, document: Document) -> None:
        parts.append(document_parts(document))

    return keep
