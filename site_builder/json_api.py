"""The site's JSON API: static files under `api/v1/`, beside the pages (see README, "JSON API").

What a command prints with `--format json` (a release's changelog and check, a diff, the list
of releases, a translation report) is written as that command prints it, by the same code;
the documents only the API has (a release's document, the rules by section and their index,
the glossary, the bulk files) are written compact. The many and large files (each release's
changelog and check, the rules by section, the rules' bulk files) are written gzipped only
(`.json.gz`): plain, they would take 100 MB, more than the site's bound leaves. Every
release read whole is in one bulk file per language, compressed with xz: a stream per 16
releases, concatenated (`xz -d` and Python's `lzma` read them as one file), each stream's
window spanning its releases: 2.1 MB for the 129 English releases (145 MB plain), where a
gzipped document per release took 30 MB. A rebuild costs what changed: each file is known by
the releases it is made from (a release's changelog and check by those up to it), and each
stream of releases read whole is kept in the store of derived data, so a release added
compresses the last stream again, not the file.
"""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import lzma
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from rulesarchive.corpus.derived import Kind, code_version, entry_key
from rulesarchive.corpus.model import Document, Release
from rulesarchive.differ.history import History
from rulesarchive.differ.language import Language, data_version
from rulesarchive.differ.lineage import Line, line_versions
from rulesarchive.differ.references import LanguageCheck, Snapshot, mark_fixes, snapshots
from rulesarchive.differ.release_report import (
    compact_json,
    entry_data,
    heading_data,
    json_text,
    release_label,
    release_summary,
    rule_data,
)
from rulesarchive.differ.report import check_data, diff_data, history_data, translation_data
from rulesarchive.differ.translations import TranslationReport
from rulesarchive.site_builder.output import Output
from rulesarchive.site_builder.source import Source

API_VERSION = 1
ROOT = f"api/v{API_VERSION}"
_SECTION = re.compile(r"[0-9A-Za-z-]{1,20}")
# Releases read whole per xz stream of a bulk file: a stream's window spans its releases, so
# each costs what it changed; a new release compresses its stream again, no more (16: 2.1 MB
# for the 129 English releases, 145 MB plain; one stream, 0.75 MB, took 7 s to redo).
_BATCH = 16


@dataclass(frozen=True, slots=True)
class Request:
    """What the API is written from: the gathered languages with their checks and newest
    translation reports, and the pairs of releases whose diff was asked for."""

    gathered: dict[str, Language]
    checks: dict[str, LanguageCheck]
    reports: dict[str, TranslationReport]
    pairs: Sequence[tuple[Release, Release]] = ()


def release_folder(release: Release) -> str:
    """Return the API folder of a release's files ('api/v1/en/releases/2024-11-08')."""
    return f"{ROOT}/{release.language}/releases/{release.effective_date.isoformat()}"


def diff_path(old: Release, new: Release) -> str:
    """Return the path of the diff of two releases (api/v1/en/diffs/OLD..NEW.json.gz)."""
    return f"{ROOT}/{old.language}/diffs/{old.effective_date}..{new.effective_date}.json.gz"


def write_api(output: Output, archive: Source, request: Request, base_url: str) -> None:
    """Write every file of the API into the site being built."""
    version = data_version(request.gathered.values(), API_VERSION)
    for language, data in request.gathered.items():
        english = request.gathered.get("en") if language != "en" else None
        _write_releases(output, archive, data, request.checks[language], english)
        _write_documents(output, archive, data)
        stamp = _stamp(data, base_url)
        if not all([output.fresh(path, stamp) for path in _paths(data)]):
            _write_rules(output, archive, data, stamp)
        translation = f"{ROOT}/{language}/translation.json"
        if english is not None and language in request.reports:
            stamp = repr((stamp, english.prefix[-1]))  # compared with every English release
            if not output.fresh(translation, stamp):
                report = translation_data(request.reports[language])
                output.write(translation, json_text(report), stamp)
    for old, new in request.pairs:
        path = diff_path(old, new)
        stamp = repr((code_version(), old, new))
        if not output.fresh(path, stamp):
            changes = diff_data(old, new, archive.diff(old, new))
            output.write(path, _packed(json_text(changes)), stamp)
    _write_bulk(output, request.gathered, version, base_url)
    _write_latest(output, request.gathered, version, base_url)


def _stamp(data: Language, base_url: str) -> str:
    """Sum up what a language's files are made from: its releases, its ids' aliases, the
    code and the site's address."""
    return repr((code_version(), data.prefix[-1], sorted(data.aliases.items()), base_url))


def _paths(data: Language) -> list[str]:
    """The files of a language made from all its releases (not those of one release, the
    releases read whole, the list of bulk files, the pointer or the diffs)."""
    found = [f"{ROOT}/{data.language}/releases.json", f"{ROOT}/{data.language}/rules.json"]
    found += [f"{ROOT}/{data.language}/glossary.json", _bulk_path(data.language)]
    found += [f"{ROOT}/{data.language}/document.json.gz"]
    return found + [
        _section_path(data.language, s) for s in sorted({_section(ln) for ln in data.lines})
    ]


def _write_releases(
    output: Output,
    archive: Source,
    data: Language,
    checked: LanguageCheck,
    english: Language | None,
) -> None:
    """Write each release's changelog and check, unless made from the same releases (those
    up to it, and English's for a translation) last time."""
    for index, release in enumerate(data.releases):
        folder = release_folder(release)
        stamp = repr((code_version(), data.prefix[index], english and english.prefix[-1]))
        if not output.fresh(f"{folder}/check.json.gz", stamp):
            check = check_data(archive.check_release(release, checked))
            output.write(f"{folder}/check.json.gz", _packed(json_text(check)), stamp)
        diff = data.diffs[index]
        if index and diff is not None and not output.fresh(f"{folder}/changelog.json.gz", stamp):
            fixes = checked.fixes[index] if checked.fixes else {}
            before = data.releases[index - 1]
            changes = diff_data(before, release, mark_fixes(diff, fixes), fixes)
            output.write(f"{folder}/changelog.json.gz", _packed(json_text(changes)), stamp)


def _write_documents(output: Output, archive: Source, data: Language) -> None:
    """Write every release read whole into the language's bulk file: an xz stream per
    `_BATCH` releases (each kept in the store by what its releases say), then the end."""
    path = _documents_path(data.language)
    aliases = repr(sorted(data.aliases.items()))
    stamp = repr((code_version(), data.prefix[-1], aliases))
    if output.fresh(path, stamp):
        return
    count = len(data.releases)
    starts = range(0, count, _BATCH)
    keys = [
        entry_key(Kind.BULK, data.language, s, data.prefix[min(s + _BATCH, count) - 1], aliases)
        for s in starts
    ]
    streams: list[bytes | None] = [archive.derived.get(key, bytes) for key in keys]
    missing = [i for i, stream in enumerate(streams) if stream is None]
    if missing:
        first = starts[missing[0]]
        shots = snapshots(data.lines, [()] * count, start=first)
        for i in missing:
            batch = range(starts[i], min(starts[i] + _BATCH, count))
            pieces = [
                ("," if index else "")
                + compact_json(_document(r, archive.load(r), shots[index - first]))
                for index, r in zip(batch, data.releases[batch.start : batch.stop], strict=True)
            ]
            if i == 0:
                pieces.insert(0, compact_json({"language": data.language})[:-1] + ',"documents":[')
            streams[i] = lzma.compress("".join(pieces).encode(), preset=3)
        archive.derived.put_many((keys[i], streams[i]) for i in missing)
    end = lzma.compress(_documents_end(data.releases[-1].effective_date).encode(), preset=3)
    output.write(path, b"".join([*(s for s in streams if s is not None), end]), stamp)


def _documents_end(updated: dt.date) -> str:
    """The end of a bulk file of releases read whole: the documents' list closed, the date."""
    return f'],"updated":"{updated.isoformat()}"}}'


def _document(release: Release, document: Document, shot: Snapshot) -> dict[str, object]:
    """Return a release read whole, as the JSON export gives a release (no changes): each
    rule with the id of the line that holds it there (`shot`)."""
    ids: dict[str, list[str]] = {}  # two for a number printed twice
    for line_id, rule in shot.rules:
        ids.setdefault(rule.number, []).append(line_id)
    return {
        **release_summary(release),
        "headings": list(map(heading_data, document.headings)),
        "rules": [rule_data(ids[rule.number].pop(0), rule) for rule in document.rules],
        "glossary": list(map(entry_data, document.glossary)),
    }


def _section(line: Line) -> str:
    """The section a rule's file is: that of its number now (or last), '702' for 702.19b."""
    section = line.rule.number.partition(".")[0]
    return section if _SECTION.fullmatch(section) else "other"


def _section_path(language: str, section: str) -> str:
    return f"{ROOT}/{language}/rules/{section}.json.gz"


def rule_document(data: Language, line: Line, aliases: Sequence[str]) -> dict[str, object]:
    """Return one rule's API document: its id, the ids retired into it, its text now (or
    last), every number, and its history as `history --format json` prints it."""
    releases = data.releases
    history = History(line.rule.number, line.numbers, line_versions(line, releases))
    return {
        "id": line.id,
        "aliases": list(aliases),
        "number": line.rule.number,
        "current": line.last == len(releases) - 1,
        "text": line.rule.printed_text,
        "examples": list(line.rule.printed_examples),
        "numbers": list(line.numbers),
        "first": releases[line.first].effective_date.isoformat(),
        "last": releases[line.last].effective_date.isoformat(),
        "history": history_data(history),
    }


def _write_rules(output: Output, archive: Source, data: Language, stamp: str) -> None:
    """Write the list of releases, the rules by section and their index and bulk file, and
    the newest release read whole and its glossary."""
    language = data.language
    listed = json_text([release_summary(release) for release in data.releases])
    output.write(f"{ROOT}/{language}/releases.json", listed, stamp)
    retired: dict[str, list[str]] = {}
    for alias, line_id in sorted(data.aliases.items()):
        retired.setdefault(line_id, []).append(alias)
    sections: dict[str, list[dict[str, object]]] = {}
    for line in data.lines:
        document = rule_document(data, line, retired.get(line.id, []))
        sections.setdefault(_section(line), []).append(document)
    for section, rules in sorted(sections.items()):
        body = {"language": language, "section": section, "rules": rules}
        output.write(_section_path(language, section), _packed(compact_json(body)), stamp)
    every = [rule for _, rules in sorted(sections.items()) for rule in rules]
    updated = data.releases[-1].effective_date.isoformat()
    bulk = compact_json({"language": language, "updated": updated, "rules": every})
    output.write(_bulk_path(language), _packed(bulk), stamp)
    index = {
        "language": language,
        "numbers": _holders(data),
        "ids": {line.id: _section(line) for line in data.lines},
        "aliases": dict(sorted(data.aliases.items())),
    }
    output.write(f"{ROOT}/{language}/rules.json", compact_json(index), stamp)
    newest = archive.load(data.releases[-1])
    shot = snapshots(data.lines, [()] * len(data.releases), start=len(data.releases) - 1)[0]
    whole = compact_json(_document(data.releases[-1], newest, shot))
    output.write(f"{ROOT}/{language}/document.json.gz", _packed(whole), stamp)
    glossary = {
        "language": language,
        "release": release_label(data.releases[-1]),
        "glossary": list(map(entry_data, newest.glossary)),
    }
    output.write(f"{ROOT}/{language}/glossary.json", json_text(glossary), stamp)


def _holders(data: Language) -> dict[str, str]:
    """Every number a rule ever had, with the id of the rule that held it last."""
    held: dict[str, tuple[int, str]] = {}
    for line in data.lines:
        for stretch in line.stretches:
            number = stretch.rule.number
            if number not in held or held[number][0] < stretch.last:
                held[number] = (stretch.last, line.id)
    return {number: line_id for number, (_, line_id) in sorted(held.items())}


# Each kind of bulk file: its name, its description, and how it is compressed.
_BULK = {
    "rules": ("rule", "Every rule that ever was, with its id, aliases and history.", "gzip"),
    "documents": ("release read whole", "Every release read whole, oldest first.", "xz"),
}


def _write_bulk(output: Output, gathered: dict[str, Language], version: str, base_url: str) -> None:
    """Write the list of the bulk files, each with its size and sha256, compressed and not."""
    listed = []
    for language, data in gathered.items():
        for kind, path in (
            ("rules", _bulk_path(language)),
            ("documents", _documents_path(language)),
        ):
            name, description, encoding = _BULK[kind]
            packed = output.current(path).read_bytes()
            size, digest = _unpacked(packed, encoding)
            listed.append(
                {
                    "type": kind,
                    "language": language,
                    "name": f"Every {language} {name}",
                    "description": description,
                    "updated": data.releases[-1].effective_date.isoformat(),
                    "data_version": version,
                    "download_uri": f"{base_url}{path}",
                    "content_type": "application/json",
                    "content_encoding": encoding,
                    "size": len(packed),
                    "sha256": hashlib.sha256(packed).hexdigest(),
                    "uncompressed_size": size,
                    "uncompressed_sha256": digest,
                }
            )
    manifest = {"object": "list", "data_version": version, "data": listed}
    output.write(f"{ROOT}/bulk-data.json", json_text(manifest))


def _unpacked(packed: bytes, encoding: str) -> tuple[int, str]:
    """Return the size and sha256 of a compressed file's content, a piece at a time (the
    English releases read whole are 145 MB), across its streams (xz: one per batch)."""
    digest, size, rest = hashlib.sha256(), 0, packed
    while rest:
        unpacker = zlib.decompressobj(wbits=31) if encoding == "gzip" else lzma.LZMADecompressor()
        while not unpacker.eof:
            piece = unpacker.decompress(rest, 2**20)
            rest = getattr(unpacker, "unconsumed_tail", b"")  # zlib's; lzma keeps its own
            if not piece and not rest and getattr(unpacker, "needs_input", True):
                return size, digest.hexdigest()  # a file cut short: what it holds is summed up
            digest.update(piece)
            size += len(piece)
        rest = unpacker.unused_data  # the next stream's
    return size, digest.hexdigest()


def _bulk_path(language: str) -> str:
    return f"{ROOT}/bulk/rules-{language}.json.gz"


def _documents_path(language: str) -> str:
    return f"{ROOT}/bulk/documents-{language}.json.xz"


def _write_latest(
    output: Output, gathered: dict[str, Language], version: str, base_url: str
) -> None:
    """Write the pointer to each language's newest release and every other entry point."""
    api = f"{base_url}{ROOT}"
    languages = {}
    for language, data in gathered.items():
        newest = data.releases[-1]
        folder = f"{base_url}{release_folder(newest)}"
        languages[language] = {
            "release": release_summary(newest),
            "document": f"{api}/{language}/document.json.gz",
            "changelog": f"{folder}/changelog.json.gz" if len(data.releases) > 1 else None,
            "check": f"{folder}/check.json.gz",
            "releases": f"{api}/{language}/releases.json",
            "rules": f"{api}/{language}/rules.json",
            "glossary": f"{api}/{language}/glossary.json",
            "translation": f"{api}/{language}/translation.json" if language != "en" else None,
        }
    updated = max(data.releases[-1].effective_date for data in gathered.values())
    latest = {
        "api_version": API_VERSION,
        "data_version": version,
        "updated": updated.isoformat(),
        "bulk_data": f"{api}/bulk-data.json",
        "languages": languages,
    }
    output.write(f"{ROOT}/latest.json", json_text(latest))


def _packed(text: str) -> bytes:
    """Gzip a file's text, with no time in it: the same text is the same bytes."""
    return gzip.compress(text.encode(), compresslevel=6, mtime=0)
