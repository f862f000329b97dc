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

The other kinds of document (MTR, IPG) have the same files, written by the same functions,
under their pages' folder (`api/v1/mtr/en/`): their rules are their units (sections' texts
and parts), and they have no glossary or translation.
"""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import lzma
import re
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, partial
from typing import cast

from rulesarchive.corpus.derived import Kind, code_version, entry_key
from rulesarchive.corpus.model import DocKind, Document, Release
from rulesarchive.corpus.numbers import PART
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
from rulesarchive.differ.report_types import HistoryJson
from rulesarchive.differ.sections import headings, units
from rulesarchive.differ.translations import TranslationReport
from rulesarchive.differ.words import diff_words
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.forked import Beside
from rulesarchive.site_builder.link_cache import LinkCache, WordDiff
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
    translation reports, the pairs of releases whose diff was asked for, the other kinds
    of document (MTR, IPG), each gathered from its own library (`documents`), and what each
    language keeps across builds (`links`, its pages' `LinkCache`): its examples' word diffs
    and its rules' documents (a language not named works them out afresh)."""

    gathered: dict[str, Language]
    checks: dict[str, LanguageCheck]
    reports: dict[str, TranslationReport]
    pairs: Sequence[tuple[Release, Release]] = ()
    documents: Sequence[tuple[Source, Language]] = ()
    links: Mapping[str, LinkCache] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class _Volume:
    """One language of one kind of document, as its files are written: read through
    `source`, with what works out its reference check (asked only when a release's check
    is to be written), English's gathering and its newest translation report (a
    translation's), what else its releases' checks read (`after`: English's releases for
    a translation, the other kinds' for a tournament document), and what it keeps across
    builds (`links`, see `Request`)."""

    source: Source
    data: Language
    check: Callable[[], LanguageCheck]
    english: Language | None = None
    report: TranslationReport | None = None
    after: str | None = None
    links: LinkCache | None = None

    @property
    def word_diff(self) -> WordDiff:
        """How its examples are word-diffed: through what it keeps, if anything."""
        return self.links.word_diff if self.links is not None else diff_words

    @property
    def kind(self) -> DocKind:
        """The kind of document its releases are."""
        return _kind_of(self.data)


def folder(kind: DocKind, language: str) -> str:
    """Return the API folder of a kind's files in a language, as the site's pages are
    placed: the CR's 'api/v1/en', a tournament document's 'api/v1/mtr/en'."""
    return f"{ROOT}/{paths.folder(kind, language)}"


def release_folder(release: Release) -> str:
    """Return the API folder of a release's files ('api/v1/en/releases/2024-11-08',
    'api/v1/mtr/en/releases/2021-07-23')."""
    date = release.effective_date.isoformat()
    return f"{folder(release.kind, release.language)}/releases/{date}"


def diff_path(old: Release, new: Release) -> str:
    """Return the path of the diff of two releases (api/v1/en/diffs/OLD..NEW.json.gz)."""
    dates = f"{old.effective_date}..{new.effective_date}"
    return f"{folder(old.kind, old.language)}/diffs/{dates}.json.gz"


def write_api(output: Output, archive: Source, request: Request, base_url: str) -> None:
    """Write every file of the API into the site being built.

    The releases read whole are compressed in a process beside (`_Streams`): from nothing, as
    long as all the other files together, which this process writes meanwhile.
    """
    volumes = _volumes(archive, request)
    version = data_version([volume.data for volume in volumes], API_VERSION)
    with Beside() as beside:
        streams = [_Streams(output, volume) for volume in volumes]
        missing = [(stream.volume, stream.missing) for stream in streams if stream.missing]
        made = beside.start(partial(_compress, missing)) if missing else None
        for volume in volumes:
            _write_volume(output, volume, base_url)
        for old, new in request.pairs:
            path = diff_path(old, new)
            stamp = repr((code_version(), old, new))
            if not output.fresh(path, stamp):
                changes = diff_data(old, new, archive.diff(old, new))
                output.write(path, _packed(json_text(changes)), stamp)
        compressed = iter(made() if made is not None else [])
        for stream in streams:
            stream.write(next(compressed) if stream.missing else [])
    _write_bulk(output, volumes, version, base_url)
    _write_latest(output, volumes, version, base_url)


def _volumes(archive: Source, request: Request) -> list[_Volume]:
    """Each language of the CR (English first), then each other kind of document."""
    found = []
    for language, data in request.gathered.items():
        base = request.gathered.get("en") if language != "en" else None
        report = request.reports.get(language)
        checked = partial(request.checks.__getitem__, language)
        after = base.prefix[-1] if base is not None else None
        links = request.links.get(language)
        found.append(_Volume(archive, data, checked, base, report, after, links))
    # A tournament document cites the other kinds' versions in force on its date.
    english = request.gathered.get("en")
    every = [english] if english is not None else []
    every += [data for _, data in request.documents]
    for source, data in request.documents:
        after = repr([other.prefix[-1] for other in every if other is not data])
        found.append(_Volume(source, data, partial(source.check, data.language), after=after))
    return found


def _write_volume(output: Output, volume: _Volume, base_url: str) -> None:
    """Write the files of one language of one kind of document."""
    data, english = volume.data, volume.english
    _write_releases(output, volume)
    stamp = _stamp(data, base_url)
    if not all([output.fresh(path, stamp) for path in _paths(volume)]):
        _write_rules(output, volume, stamp)
    elif volume.links is not None:  # the rules' documents kept, for the next build to make
        for path in _paths(volume):
            volume.links.keep(path)
    translation = f"{_top(data)}/translation.json"
    if english is not None and volume.report is not None:
        stamp = repr((stamp, english.prefix[-1]))  # compared with every English release
        if not output.fresh(translation, stamp):
            output.write(translation, json_text(translation_data(volume.report)), stamp)


def _kind_of(data: Language) -> DocKind:
    return data.releases[0].kind


def _top(data: Language) -> str:
    """The API folder of a gathered language's files ('api/v1/en', 'api/v1/mtr/en')."""
    return folder(_kind_of(data), data.language)


def _named(data: Language) -> dict[str, str]:
    """What names the document a file is of: its language, and its kind unless the CR's
    (whose files name none, as `diff --format json` does)."""
    kind = _kind_of(data)
    named = {"language": data.language}
    return named if kind == DocKind.CR else {"doc": kind.value, **named}


def _stamp(data: Language, base_url: str) -> str:
    """Sum up what a language's files are made from: its releases, its ids' aliases (the
    glossary's too), the code and the site's address."""
    return repr((code_version(), data.prefix[-1], _aliases(data), base_url))


def _aliases(data: Language) -> tuple[list[tuple[str, str]], ...]:
    """A language's retired ids: its rules', glossary terms' and headings'."""
    kinds = (data.aliases, data.glossary_aliases, data.heading_aliases)
    return tuple(sorted(aliases.items()) for aliases in kinds)


def _paths(volume: _Volume) -> list[str]:
    """The files of a language made from all its releases (not those of one release, the
    releases read whole, the list of bulk files, the pointer or the diffs)."""
    data = volume.data
    top = _top(data)
    found = [f"{top}/releases.json", f"{top}/rules.json", _bulk_path(data)]
    found += [f"{top}/glossary.json"] if volume.kind == DocKind.CR else []
    found += [f"{top}/document.json.gz"]
    return found + [_section_path(data, s) for s in sorted({_section(ln) for ln in data.lines})]


def _write_releases(output: Output, volume: _Volume) -> None:
    """Write each release's changelog and check, unless made from the same releases (those
    up to it, and those `after` says) last time."""
    data = volume.data
    checked = cache(volume.check)  # worked out when first needed
    cr = volume.kind == DocKind.CR
    for index, release in enumerate(data.releases):
        at = release_folder(release)
        stamp = repr((code_version(), data.prefix[index], volume.after))
        if not output.fresh(f"{at}/check.json.gz", stamp):
            check = check_data(volume.source.check_release(release, checked()))
            output.write(f"{at}/check.json.gz", _packed(json_text(check)), stamp)
        diff = data.diffs[index]
        if index and diff is not None and not output.fresh(f"{at}/changelog.json.gz", stamp):
            # as `changelog` says: only a CR change can put a citation right (a `fix`)
            fixes = checked().fixes[index] if cr and checked().fixes else {}
            before = data.releases[index - 1]
            changes = diff_data(before, release, mark_fixes(diff, fixes), fixes)
            output.write(f"{at}/changelog.json.gz", _packed(json_text(changes)), stamp)


class _Streams:
    """A language's bulk file of releases read whole: an xz stream per `_BATCH` releases
    (each kept in the store by what its releases say), then the end. Made from what is kept
    and the `missing` batches' streams, compressed (`_compress`) wherever the caller likes."""

    def __init__(self, output: Output, volume: _Volume) -> None:
        """Find what the file needs: nothing if it is as last built, else its streams, kept
        or `missing` (their batches' first releases)."""
        self.output, self.volume = output, volume
        data = volume.data
        self.path = _documents_path(data)
        aliases = repr(_aliases(data))
        self.stamp = repr((code_version(), data.prefix[-1], aliases))
        self.keys: list[str] = []
        self.kept: list[bytes | None] = []
        self.missing: list[int] = []
        if output.fresh(self.path, self.stamp):
            return
        count = len(data.releases)
        starts = range(0, count, _BATCH)
        self.keys = [
            entry_key(Kind.BULK, data.language, s, data.prefix[min(s + _BATCH, count) - 1], aliases)
            for s in starts
        ]
        self.kept = [volume.source.derived.get(key, bytes) for key in self.keys]
        self.missing = [starts[i] for i, stream in enumerate(self.kept) if stream is None]

    def write(self, made: list[bytes]) -> None:
        """Write the file (unless fresh), `made`: the missing batches' streams, in order."""
        if not self.keys:
            return
        fresh = iter(made)
        streams = [stream if stream is not None else next(fresh) for stream in self.kept]
        self.volume.source.derived.put_many(
            (key, stream)
            for key, stream, kept in zip(self.keys, streams, self.kept, strict=True)
            if kept is None
        )
        end = _documents_end(self.volume.data.releases[-1].effective_date)
        self.output.write(
            self.path, b"".join([*streams, lzma.compress(end.encode(), preset=3)]), self.stamp
        )


def _compress(missing: list[tuple[_Volume, list[int]]]) -> list[list[bytes]]:
    """Compress the streams of releases read whole of each volume's batches that start at
    the releases `missing` names."""
    return [_batches(volume, starts) for volume, starts in missing]


def _batches(volume: _Volume, starts: list[int]) -> list[bytes]:
    """One volume's streams of the batches that start at `starts` (in order)."""
    data, archive = volume.data, volume.source
    count = len(data.releases)
    shots = snapshots(data.lines, [()] * count, start=starts[0])
    streams = []
    for start in starts:
        batch = range(start, min(start + _BATCH, count))
        pieces = [
            ("," if index else "")
            + compact_json(_document(data, index, archive.load(r), shots[index - starts[0]]))
            for index, r in zip(batch, data.releases[batch.start : batch.stop], strict=True)
        ]
        if start == 0:
            pieces.insert(0, compact_json(_named(data))[:-1] + ',"documents":[')
        streams.append(lzma.compress("".join(pieces).encode(), preset=3))
    return streams


def _documents_end(updated: dt.date) -> str:
    """The end of a bulk file of releases read whole: the documents' list closed, the date."""
    return f'],"updated":"{updated.isoformat()}"}}'


def _document(data: Language, index: int, document: Document, shot: Snapshot) -> dict[str, object]:
    """Return release `index` read whole, as the JSON export gives a release (no changes):
    each rule with the id of the line that holds it there (`shot`), each heading and glossary
    term with its permanent id. A tournament document's
    rules are its units (its sections' texts and parts), its headings its sections' titles,
    and it says the title it prints (the MTR was the DCI Universal Tournament Rules)."""
    ids: dict[str, list[str]] = {}  # two for a number printed twice
    for line_id, rule in shot.rules:
        ids.setdefault(rule.number, []).append(line_id)
    release = data.releases[index]
    titled = {"title": document.title} if release.kind != DocKind.CR else {}
    heading_ids, term_ids = data.heading_ids(index), data.term_ids(index)
    return {
        **release_summary(release),
        **titled,
        "headings": [heading_data(heading, heading_ids) for heading in headings(document)],
        "rules": [rule_data(ids[rule.number].pop(0), rule) for rule in units(document)],
        "glossary": [entry_data(entry, term_ids) for entry in document.glossary],
    }


def _section(line: Line) -> str:
    """The section a rule's file is: that of its number now (or last), '702' for 702.19b, a
    tournament document's '2' for 2.1/philosophy and '113' for the Penalty Guidelines'
    113/definition."""
    section = line.rule.number.partition(PART)[0].partition(".")[0]
    return section if _SECTION.fullmatch(section) else "other"


def _section_path(data: Language, section: str) -> str:
    return f"{_top(data)}/rules/{section}.json.gz"


def rule_document(
    data: Language, line: Line, aliases: Sequence[str], word_diff: WordDiff = diff_words
) -> dict[str, object]:
    """Return one rule's (or a tournament document's section's or part's) API document: its
    id, the ids retired into it, its text now (or last), every number, and its history as
    `history --format json` (with its `--doc`) prints it (`word_diff`: how its examples are
    diffed)."""
    releases = data.releases
    history = History(line.rule.number, line.numbers, line_versions(line, releases, word_diff))
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
        "history": history_data(history, _kind_of(data)),
    }


def _rule_text(volume: _Volume, line: Line, aliases: list[str]) -> str:
    """One rule's API document as compact JSON (see `rule_document`), kept across builds
    (`volume.links`) by the releases up to its last change (or up to the one that dropped
    it), as its page's entry in its chapter's history file is (`RulePages._entry`). A current
    rule's document names the newest release (`last`, and its last version's `until`) and
    counts the releases since its last change: the kept one has placeholders for them, so a
    release that does not change the rule keeps it."""
    data, links = volume.data, volume.links
    newest, changed = len(data.releases) - 1, line.stretches[-1].first
    if links is None:
        return compact_json(rule_document(data, line, aliases, volume.word_diff))
    page = _section_path(data, _section(line))
    if line.last < newest:
        key = links.key(line.id, "gone", data.prefix[line.last + 1], tuple(aliases))
        return links.kept_text(page, key, partial(_rule_json, volume, line, aliases, False))
    key = links.key(line.id, "current", data.prefix[changed], changed, tuple(aliases))
    kept = links.kept_text(page, key, partial(_rule_json, volume, line, aliases, True))
    date = compact_json(data.releases[newest].effective_date.isoformat())
    since = f'"releases":{newest - changed + 1}'
    return kept.replace(_NEWEST, date, 2).replace(_RELEASES, since, 1)


def _rule_json(volume: _Volume, line: Line, aliases: list[str], live: bool) -> str:
    """A rule's document as `_rule_text` keeps it: with placeholders if `live`."""
    document = rule_document(volume.data, line, aliases, volume.word_diff)
    if live:
        document["last"] = _LIVE_NEWEST
        history = cast(HistoryJson, document["history"])
        history["versions"][-1] |= {"until": _LIVE_NEWEST, "releases": _LIVE_RELEASES}
    return compact_json(document)


# What a kept current rule's document has for the newest release and for the releases since
# its last change (no count is negative): as values, and in its JSON.
_LIVE_NEWEST, _LIVE_RELEASES = "\0newest\0", -1
_NEWEST, _RELEASES = compact_json(_LIVE_NEWEST), f'"releases":{_LIVE_RELEASES}'


def _listing(fields: dict[str, str], rules: list[str]) -> str:
    """A file of rules' documents (their compact JSON texts): `fields`, then the list under
    `rules`, as `compact_json` writes them."""
    return compact_json(fields)[:-1] + ',"rules":[' + ",".join(rules) + "]}"


def _write_rules(output: Output, volume: _Volume, stamp: str) -> None:
    """Write the list of releases, the rules by section and their index and bulk file, and
    the newest release read whole and its glossary."""
    archive, data = volume.source, volume.data
    top, named = _top(data), _named(data)
    listed = json_text([release_summary(release) for release in data.releases])
    output.write(f"{top}/releases.json", listed, stamp)
    retired: dict[str, list[str]] = {}
    for alias, line_id in sorted(data.aliases.items()):
        retired.setdefault(line_id, []).append(alias)
    sections: dict[str, list[str]] = {}
    for line in data.lines:
        document = _rule_text(volume, line, retired.get(line.id, []))
        sections.setdefault(_section(line), []).append(document)
    for section, rules in sorted(sections.items()):
        body = _listing({**named, "section": section}, rules)
        output.write(_section_path(data, section), _packed(body), stamp)
    every = [rule for _, rules in sorted(sections.items()) for rule in rules]
    updated = data.releases[-1].effective_date.isoformat()
    bulk = _listing({**named, "updated": updated}, every)
    output.write(_bulk_path(data), _packed(bulk), stamp)
    index = {
        **named,
        "numbers": _holders(data),
        "ids": {line.id: _section(line) for line in data.lines},
        "aliases": dict(sorted(data.aliases.items())),
    }
    output.write(f"{top}/rules.json", compact_json(index), stamp)
    newest = archive.load(data.releases[-1])
    shot = snapshots(data.lines, [()] * len(data.releases), start=len(data.releases) - 1)[0]
    whole = compact_json(_document(data, len(data.releases) - 1, newest, shot))
    output.write(f"{top}/document.json.gz", _packed(whole), stamp)
    if _kind_of(data) != DocKind.CR:
        return  # a tournament document has no glossary
    term_ids = data.term_ids(len(data.releases) - 1)
    glossary = {
        "language": data.language,
        "release": release_label(data.releases[-1]),
        "glossary": [entry_data(entry, term_ids) for entry in newest.glossary],
        "aliases": dict(sorted(data.glossary_aliases.items())),
    }
    output.write(f"{top}/glossary.json", json_text(glossary), stamp)


def _holders(data: Language) -> dict[str, str]:
    """Every number a rule ever had, with the id of the rule that held it last."""
    held: dict[str, tuple[int, str]] = {}
    for line in data.lines:
        for stretch in line.stretches:
            number = stretch.rule.number
            if number not in held or held[number][0] < stretch.last:
                held[number] = (stretch.last, line.id)
    return {number: line_id for number, (_, line_id) in sorted(held.items())}


# Each kind of bulk file: its name, its description, and how it is compressed; the words of
# a tournament document's (its rules are its sections' texts and parts, its releases versions).
_BULK = {
    "rules": ("rule", "Every rule that ever was, with its id, aliases and history.", "gzip"),
    "documents": ("release read whole", "Every release read whole, oldest first.", "xz"),
}
_TOURNAMENT_BULK = {
    "rules": (
        "section and part",
        "Every section and part that ever was, with its id, aliases and history.",
    ),
    "documents": ("version read whole", "Every version read whole, oldest first."),
}


def _write_bulk(output: Output, volumes: list[_Volume], version: str, base_url: str) -> None:
    """Write the list of the bulk files, each with its size and sha256, compressed and not."""
    listed = []
    for volume in volumes:
        data = volume.data
        for kind, path in (("rules", _bulk_path(data)), ("documents", _documents_path(data))):
            name, description, encoding = _BULK[kind]
            title = f"Every {data.language} {name}"
            if volume.kind != DocKind.CR:
                name, description = _TOURNAMENT_BULK[kind]
                title = f"Every {volume.kind.upper()} {data.language} {name}"
            packed = output.current(path).read_bytes()
            size, digest = _unpacked(packed, encoding)
            listed.append(
                {
                    "type": kind,
                    **_named(data),
                    "name": title,
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


def _place(data: Language) -> str:
    """A gathered language's name in the bulk files' names: 'en', 'mtr-en' (as the site's
    data folders name a tournament document's)."""
    kind = _kind_of(data)
    return data.language if kind == DocKind.CR else f"{kind}-{data.language}"


def _bulk_path(data: Language) -> str:
    return f"{ROOT}/bulk/rules-{_place(data)}.json.gz"


def _documents_path(data: Language) -> str:
    return f"{ROOT}/bulk/documents-{_place(data)}.json.xz"


def _write_latest(output: Output, volumes: list[_Volume], version: str, base_url: str) -> None:
    """Write the pointer to each language's newest release and every other entry point, and
    to each other kind of document's (`documents`, only when the archive holds one)."""
    languages: dict[str, dict[str, object]] = {}
    documents: dict[str, dict[str, dict[str, object]]] = {}
    for volume in volumes:
        pointers = _pointers(volume, base_url)
        if volume.kind == DocKind.CR:
            languages[volume.data.language] = pointers
        else:
            documents.setdefault(volume.kind.value, {})[volume.data.language] = pointers
    updated = max(volume.data.releases[-1].effective_date for volume in volumes)
    latest: dict[str, object] = {
        "api_version": API_VERSION,
        "data_version": version,
        "updated": updated.isoformat(),
        "bulk_data": f"{base_url}{ROOT}/bulk-data.json",
        "languages": languages,
    }
    if documents:
        latest["documents"] = documents
    output.write(f"{ROOT}/latest.json", json_text(latest))


def _pointers(volume: _Volume, base_url: str) -> dict[str, object]:
    """The newest release of a language of a kind and the addresses of its files."""
    data = volume.data
    top, newest = f"{base_url}{_top(data)}", data.releases[-1]
    at = f"{base_url}{release_folder(newest)}"
    found: dict[str, object] = {
        "release": release_summary(newest),
        "document": f"{top}/document.json.gz",
        "changelog": f"{at}/changelog.json.gz" if len(data.releases) > 1 else None,
    }
    found["check"] = f"{at}/check.json.gz"
    found |= {"releases": f"{top}/releases.json", "rules": f"{top}/rules.json"}
    if volume.kind == DocKind.CR:
        found["glossary"] = f"{top}/glossary.json"
        found["translation"] = f"{top}/translation.json" if data.language != "en" else None
    return found


def _packed(text: str) -> bytes:
    """Gzip a file's text, with no time in it: the same text is the same bytes."""
    return gzip.compress(text.encode(), compresslevel=6, mtime=0)
