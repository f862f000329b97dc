"""Read files into Documents and store them as releases: the `ingest` stage."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from rulesarchive.corpus.catalogue import entry_for
from rulesarchive.corpus.derived import collection_paused
from rulesarchive.corpus.model import DocKind, Document, Flag, Provenance, Release
from rulesarchive.corpus.sets import LOOKAHEAD, choose_set
from rulesarchive.corpus.store import (
    Archive,
    ArchiveError,
    check_language,
    document_from_json,
    kind_folder,
    pack_document,
    render_document_json,
    render_rules_text,
    unpack_document,
)
from rulesarchive.corpus.typography import Normalisation
from rulesarchive.scraper.errors import InputError
from rulesarchive.scraper.extract import Extracted, Format, extract_text, sniff_format
from rulesarchive.scraper.integrity import Neighbour, compare_with_neighbours, find_damage
from rulesarchive.scraper.normalise import normalise_document
from rulesarchive.scraper.outcome import STORED, Outcome, Status
from rulesarchive.scraper.parse import detect_language, parse_document
from rulesarchive.scraper.placeholders import repair_placeholders, unrepaired
from rulesarchive.scraper.settings import MAX_BYTES
from rulesarchive.scraper.tournament import document_kind, read_tournament
from rulesarchive.scraper.wiki import is_wiki_page, parse_wiki
from rulesarchive.system.processes import (
    MEMORY_LIMIT,
    TIME_LIMIT,
    OverLimit,
    bound_worker,
    time_limit,
    usable_cores,
)


@dataclass(frozen=True, slots=True)
class Overrides:
    """What the user says about a file, taking precedence over what the document says."""

    language: str | None = None
    effective_date: dt.date | None = None
    set_name: str | None = None
    force: bool = False
    max_bytes: int = MAX_BYTES  # ceiling on a file's size and on its extracted text
    kind: DocKind | None = None  # the kind of document (default: named by its text)


@dataclass(frozen=True, slots=True)
class _Rendered:
    """The files a document is stored as, made where it was read (a worker).

    Valid for that document, named `set_name`, only: storing makes them anew for a document
    the placeholder repair changed or the set list named otherwise. A worker makes them after
    the repair of a document no rule of which asks for it (that repair reads no neighbour).
    """

    set_name: str
    rules_text: bytes
    content_sha256: str
    document_json: bytes
    damage: tuple[str, ...]
    source_sha256: str  # of the file's bytes
    asks: bool  # a rule prints a `?`: the placeholder repair looks at the neighbours


def _render(document: Document, set_name: str, data: bytes) -> _Rendered:
    rules_text = render_rules_text(document).encode()
    return _Rendered(
        set_name,
        rules_text,
        hashlib.sha256(rules_text).hexdigest(),
        render_document_json(replace(document, set_name=set_name)).encode(),
        tuple(find_damage(document)) if document.kind == DocKind.CR else (),
        hashlib.sha256(data).hexdigest(),
        any("?" in rule.text for rule in document.rules),
    )


@dataclass(frozen=True, slots=True)
class _Read:
    """A document read, as storing it needs it: its head and counts, whole only when needed.

    A worker sends the whole document (packed) only when the main process needs it whole:
    when a rule asks the neighbours for the placeholder repair, or when the set list names it
    (its files may be made anew). Any other is rebuilt from its document.json only if a later
    file's repair reads it as a neighbour: packing, sending and unpacking every document cost
    more than the rest of the main process's work on it.
    """

    head: Document  # without headings, rules, glossary and sections
    rule_count: int
    glossary_count: int
    packed: bytes | None = None  # the whole document, from a worker
    section_count: int = 0

    @classmethod
    def of(cls, document: Document, packed: bool = False) -> _Read:
        """Describe a document read; `packed` sends it whole."""
        return cls(
            replace(document, headings=(), rules=(), glossary=(), sections=()),
            len(document.rules),
            len(document.glossary),
            pack_document(document, interned=False) if packed else None,
            len(document.sections),
        )

    def whole(self, rendered: _Rendered) -> Document:
        """Return the whole document: unpacked, or rebuilt from its document.json."""
        if self.packed is not None:
            return unpack_document(self.packed)
        return _from_json(rendered.document_json)


# What a worker sends back for a file it read: its bytes, its document, how it was read, its files.
_Reading = tuple[bytes, _Read, Extracted, _Rendered]


def _from_json(document_json: bytes) -> Document:
    return document_from_json(json.loads(document_json))


def read_document(
    data: bytes, name: str, overrides: Overrides = Overrides()
) -> tuple[Document, Extracted]:
    """Decode, extract, parse and normalise one file's bytes."""
    if len(data) > overrides.max_bytes:
        raise InputError(_too_big(len(data), overrides.max_bytes))
    if overrides.language:
        _check_language_code(overrides.language)
    kind = overrides.kind or document_kind(data, sniff_format(data, name))
    if kind != DocKind.CR:
        document, extracted = read_tournament(data, name, kind, overrides.max_bytes)
    elif is_wiki_page(data):
        document = parse_wiki(data)
        extracted = Extracted("", Format.WIKI, "utf-8")
    else:
        extracted = extract_text(data, name, overrides.max_bytes)
        if overrides.language and not overrides.force:
            _check_script(extracted.text, overrides.language)
        document = parse_document(extracted.text, language=overrides.language)
    if overrides.effective_date:
        document = replace(document, effective_date=overrides.effective_date)
    if document.effective_date is None:
        raise InputError("no effective date found in the document (give --effective-date)")
    return normalise_document(document), extracted


def _too_big(size: int, limit: int) -> str:
    return (
        f"{size / 2**20:.0f} MB is over the size limit of {limit / 2**20:.0f} MB "
        "(raise it with --max-size if the file is genuine)"
    )


def _check_language_code(language: str) -> None:
    try:
        check_language(language)
    except ArchiveError as error:
        raise InputError(str(error)) from None


_SCRIPTS = {"zh-Hans": "Chinese characters", "ko": "Hangul"}


def _check_script(text: str, language: str) -> None:
    """Refuse a text whose script contradicts the language it is said to be in."""
    found = detect_language(text)
    script = _SCRIPTS.get(found, "Latin letters")
    if script != _SCRIPTS.get(language, "Latin letters"):
        raise InputError(
            f"written in {script} ({found}), not {language} as --lang says "
            "(use --force to store it as given)"
        )


def ingest_paths(
    archive: Archive,
    paths: Iterable[Path],
    overrides: Overrides = Overrides(),
    progress: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Ingest files one by one; a bad file is reported and does not stop the others."""
    paths = [Path(path) for path in paths]
    outcomes = recover_leftovers(archive)
    for outcome in outcomes:
        if progress:
            progress(outcome)
    # Reading (decode, parse, normalise) is the costly part and independent per file: do it on
    # every core.  Storing stays in this process, in the given order, so neighbour checks see
    # the releases stored before.
    stored = _Stored()
    # A file far smaller than a stored neighbour waits for the batch's other files: a release
    # between the two, stored later in the batch, is the nearer neighbour to measure it by.
    waiting: list[tuple[Path, _Reading]] = []

    def store(path: Path, reading: _Reading | str, wait: bool) -> None:
        if isinstance(reading, str):
            outcome = Outcome(str(path), Status.FAILED, f"{path}: {reading}")
        else:
            data, read, extracted, rendered = reading
            try:
                outcome = _store_reading(
                    archive, str(path), data, read, extracted, overrides, _LOCAL_FILE, rendered,
                    stored, wait,
                )  # fmt: skip
            except _Shortfall:
                waiting.append((path, reading))
                return
        for done in (outcome, *outcome.also):
            outcomes.append(done)
            if progress:
                progress(done)

    reads = [partial(_read_path, path, overrides) for path in paths]
    for path, reading in zip(paths, _readings(reads), strict=True):
        store(path, reading, wait=len(paths) > 1)
    for path, reading in waiting:
        store(path, reading, wait=False)
    return outcomes


def _readings(reads: Sequence[Callable[[], _Reading | str]]) -> Iterator[_Reading | str]:
    """Do the reads (of a file, or of bytes fetched) in worker processes, on every core, in
    order.

    Each worker is bounded (system.processes: memory, and CPU time per file). A worker that
    dies (the kernel's limit, the OOM killer, kill -9) breaks the pool and every file in flight:
    the file awaited is then read again alone, in a pool of its own, and costs only itself if
    it kills that one too; the rest go on in a new pool.
    """
    at, alone = 0, False
    while at < len(reads):
        pool = ProcessPoolExecutor(
            max_workers=1 if alone else min(len(reads) - at, usable_cores()),
            initializer=bound_worker,
            initargs=(os.getpid(),),
        )
        try:
            chosen = reads[at : at + 1] if alone else reads[at:]
            for future in [pool.submit(read) for read in chosen]:
                reading = future.result()
                at, alone = at + 1, False
                yield reading
        except BrokenProcessPool:
            if alone:
                at, alone = at + 1, False
                yield _WORKER_DIED
            else:
                alone = True
        finally:
            pool.shutdown(cancel_futures=True)


_WORKER_DIED = (
    f"the process reading it was killed (past {MEMORY_LIMIT // 2**30} GB of memory or "
    f"{TIME_LIMIT} s, or by the system)"
)
# Bytes read from a local file: no URL; ingest fills in the name, digest, format and encoding.
_LOCAL_FILE = Provenance()


class _Stored:
    """The last few documents a batch stored, kept to serve as the next files' neighbours.

    Files arrive in date order as a rule, so a file's neighbour is usually the one stored just
    before it: reading that back from the archive would cost more than the file's own reading.
    """

    _KEEP = 4

    def __init__(self) -> None:
        # The document, or its document.json to rebuild it from when it is asked for.
        self._documents: dict[str, tuple[Release, Document | bytes]] = {}

    def add(self, release: Release, document: Document | bytes) -> None:
        """Remember a stored release's document, forgetting the oldest beyond a few."""
        self._documents.pop(release.key, None)
        self._documents[release.key] = (release, document)
        while len(self._documents) > self._KEEP:
            del self._documents[next(iter(self._documents))]

    def load(self, archive: Archive, release: Release) -> Document:
        """Return the document of a stored release: remembered if it is the same, else read."""
        kept = self._documents.get(release.key)
        if kept is None or kept[0] != release:
            return archive.load(release)
        document = kept[1]
        if isinstance(document, bytes):
            document = _from_json(document)
            self._documents[release.key] = (release, document)
        return document


def recover_leftovers(archive: Archive) -> list[Outcome]:
    """Clean what an interrupted run left (no lock is taken when there is nothing)."""
    notes = archive.recover() if archive.leftovers() else []
    return [Outcome(str(archive.root), Status.RECOVERED, note) for note in notes]


def _read_path(path: Path, overrides: Overrides) -> _Reading | str:
    """Read one file in a worker: its bytes, its document (_Read), how it was read, its files.

    A document travels back packed (corpus.store.pack_document), and only when it is needed
    whole: pickling the Document itself (a slotted dataclass per rule) cost both sides
    several times as much. The reason comes back as a string when the file cannot be read.

    Whatever a library raises becomes that string: exceptions do not all survive the trip
    back from a worker process (lxml's cannot be pickled), and one file must not end the batch.
    """
    try:
        if stat.S_ISFIFO(path.stat().st_mode):  # opening one waits for a writer: for ever
            return "a named pipe, not a file: give a file"
        with path.open("rb") as handle:
            data = handle.read(overrides.max_bytes + 1)  # bounded: /dev/zero, a huge file
        if len(data) > overrides.max_bytes:
            return _too_big(max(len(data), path.stat().st_size), overrides.max_bytes)
    except OSError as error:
        return f"cannot read ({error.strerror or error})"
    return _read_bytes(data, path, overrides)


def _read_bytes(data: bytes, path: Path, overrides: Overrides) -> _Reading | str:
    """Read one file's bytes in a bounded worker (see _read_path), within its time bound."""
    try:
        # A document's thousands of rules and texts are freed by their counts: the collector's
        # passes over them cost a twentieth of the reading. (It collects a library's cycles,
        # if any, after the file.)
        with collection_paused(), time_limit():
            return _read_data(data, path, overrides)
    except OverLimit as error:
        return f"refused: reading it {error} (a rules document takes a few seconds)"
    except OSError as error:
        return f"cannot read ({error.strerror or error})"
    except InputError as error:
        return str(error)
    except MemoryError:
        return f"refused: reading it takes more than {MEMORY_LIMIT // 2**30} GB of memory"
    except Exception as error:  # a library failing on one hostile file
        return f"cannot be read ({type(error).__name__}: {_first_line(error)})"


def _read_data(
    data: bytes, path: Path, overrides: Overrides
) -> tuple[bytes, _Read, Extracted, _Rendered]:
    """Read one file's bytes into what _read_path sends back."""
    document, extracted = read_document(data, str(path), overrides)
    known = _set_without_archive(document, overrides)
    rendered = _render(document, known[1] if known else "", data)
    # No rule asks: the repair reads no neighbour, and is done here (only a text holding a
    # `?`, which its document.json then holds too, can change).
    if not rendered.asks and b"?" in rendered.document_json:
        repaired = repair_placeholders(document, [])
        if repaired != document:
            document, rendered = repaired, _render(repaired, rendered.set_name, data)
    # How it was read, without the text read: storing needs the format, encoding and repairs.
    how = replace(extracted, text="")
    return data, _Read.of(document, packed=rendered.asks or not known), how, rendered


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:200] if text else "no details"


def ingest_bytes(
    archive: Archive,
    data: bytes,
    name: str,
    overrides: Overrides = Overrides(),
    provenance: Provenance = _LOCAL_FILE,
) -> Outcome:
    """Ingest one document's bytes into the archive; never raises for bad input.

    The bytes are read as a file is, in a bounded worker (the scraper's documents too).
    """
    reading = next(_readings([partial(_read_bytes, data, Path(name), overrides)]))
    if isinstance(reading, str):
        return Outcome(name, Status.FAILED, f"{name}: {reading}")
    data, read, extracted, rendered = reading
    return _store_reading(archive, name, data, read, extracted, overrides, provenance, rendered)


def _store_reading(
    archive: Archive,
    name: str,
    data: bytes,
    read: _Read,
    extracted: Extracted,
    overrides: Overrides,
    provenance: Provenance,
    rendered: _Rendered,
    stored: _Stored | None = None,
    wait: bool = False,
) -> Outcome:
    """Repair, name, check and store a document read; `rendered` are the files a worker made.

    With `wait`, a document only far smaller than a neighbour raises _Shortfall, unrefused.
    """
    stored = stored or _Stored()
    archive = archive.of_kind(read.head.kind)
    try:
        document = read.head  # the whole document only where it is needed
        whole = None
        changed = False
        if rendered.asks:  # else the worker did the repair
            whole = read.whole(rendered)
            repaired = repair_placeholders(whole, _neighbour_documents(archive, whole, stored))
            # (A repair that changed nothing returns an equal document: mostly the same objects.)
            changed = repaired != whole
            document = whole = repaired
        found_set = _find_set(archive, document, overrides)
        if changed or rendered.set_name != found_set[1]:
            whole = whole or read.whole(rendered)
            rendered = _render(whole, found_set[1], data)
        release = _describe_release(
            document, read, extracted, name, found_set, provenance, rendered
        )
        document = replace(document, set_name=release.set_name)
        whole = whole and replace(whole, set_name=release.set_name)
        # Check and store under the writer lock: two ingests of one release cannot both add it.
        with archive.lock():
            release = _check_integrity(archive, document, release, overrides.force, rendered)
            owed = _owed_repair(archive, release)
            was_owed = owed.exists()  # a run was stopped between storing it and its repair
            owed.parent.mkdir(parents=True, exist_ok=True)
            owed.touch()
            try:
                outcome = _store(
                    archive, release, whole, data, rendered, overrides.force, found_set[2]
                )
            except (InputError, ArchiveError):
                if not was_owed:
                    owed.unlink(missing_ok=True)
                raise
            if outcome.status in STORED:
                stored.add(release, whole or rendered.document_json)
            if outcome.status in STORED or (outcome.status == Status.UNCHANGED and was_owed):
                outcome = replace(outcome, also=tuple(_repair_again(archive, release, stored)))
            owed.unlink(missing_ok=True)
    except (InputError, ArchiveError) as error:
        if wait and isinstance(error, _Shortfall):
            raise

        return Outcome(name, Status.FAILED, f"{name}: {error}")
    return outcome


_GIVE_SET = 'give --set-name "Name (CODE)"'


def _find_set(archive: Archive, document: Document, overrides: Overrides) -> tuple[str, str, str]:
    """Return the set code, name and, when it was not given or catalogued, how it was chosen."""
    known = _set_without_archive(document, overrides)
    if known:
        return known
    assert document.effective_date is not None
    sets = archive.sets()
    if sets is None:
        why = f"no set list yet: run 'rulesarchive scrape' to fetch Scryfall's, or {_GIVE_SET}"
        return "", "", f"set unknown ({why})"
    chosen = choose_set(document.effective_date, sets)
    if chosen is None:
        return (
            "",
            "",
            (
                f"set unknown (no core or expansion set in the set list released within "
                f"{LOOKAHEAD.days} days from {document.effective_date}: {_GIVE_SET})"
            ),
        )
    found, why = chosen
    return found.code, found.name, f"set {found.code} {found.name}: {why}"


def _set_without_archive(document: Document, overrides: Overrides) -> tuple[str, str, str] | None:
    """Return the set given, catalogued or named by the document; None for the set list to say.

    A tournament document (MTR, IPG) is named by no set.
    """
    assert document.effective_date is not None
    if document.kind != DocKind.CR:
        return "", "", ""
    entry = entry_for(document.effective_date)
    if overrides.set_name:
        return (*_split_set(overrides.set_name, entry.set_code if entry else ""), "")
    if entry:
        return entry.set_code, entry.set_name, ""
    if document.set_name:  # the Italian wiki names its set
        return "", document.set_name, ""
    return None


def _describe_release(
    document: Document,
    read: _Read,
    extracted: Extracted,
    name: str,
    found_set: tuple[str, str, str],
    provenance: Provenance,
    rendered: _Rendered,
) -> Release:
    assert document.effective_date is not None
    set_code, set_name, set_note = found_set
    typos = tuple(note for note in document.notes if note.startswith("typo"))
    source = replace(
        provenance,
        name=Path(name).name,
        sha256=rendered.source_sha256,
        format=extracted.format,
        encoding=extracted.encoding,
    )
    flags: tuple[Flag, ...] = (Flag.TYPOS_REPAIRED,) if typos else ()
    if document.excerpt:
        flags = (*flags, Flag.EXCERPT)
    return Release(
        language=document.language,
        effective_date=document.effective_date,
        set_code=set_code,
        set_name=set_name,
        rule_count=read.rule_count,
        glossary_count=read.glossary_count,
        content_sha256=rendered.content_sha256,
        source=source,
        flags=flags,
        notes=(*document.notes, set_note) if set_note else document.notes,
        normalisation=document.normalisation,
        decode_repairs=extracted.repairs,
        kind=document.kind,
        section_count=read.section_count,
    )


def _split_set(label: str, default_code: str) -> tuple[str, str]:
    """Read '--set-name "Foundations (FDN)"' as code and name; a bare name keeps the code."""
    match = re.fullmatch(r"(.*?)\s*\(([0-9A-Z]{2,5})\)", label.strip())
    return (match.group(2), match.group(1)) if match else (default_code, label.strip())


def _check_integrity(
    archive: Archive, document: Document, release: Release, force: bool, rendered: _Rendered
) -> Release:
    if document.excerpt:
        return release  # a few chapters by design: no glossary, credits or full rule count
    if release.kind != DocKind.CR:
        return _check_sections(archive, release, force)
    problems = list(rendered.damage)
    neighbours = [
        other
        for other in archive.neighbours(release.language, release.effective_date)
        if Flag.DAMAGED not in other.flags
    ]
    shortfalls = (
        compare_with_neighbours(
            release.rule_count,
            release.effective_date,
            [Neighbour(n.key, n.effective_date, n.rule_count) for n in neighbours],
        ),
        # Real glossaries never shrink by a sixth from one release to the next; the 2003-06-01
        # RTF, whose source runs entries together ("FadingFading is…"), has 160 for 217 / 290.
        compare_with_neighbours(
            release.glossary_count,
            release.effective_date,
            [Neighbour(n.key, n.effective_date, n.glossary_count) for n in neighbours],
            "glossary entries",
            0.85,
        ),
    )
    problems += [shortfall for shortfall in shortfalls if shortfall]
    if not problems:
        return release
    if not force:
        refusal = _Shortfall if not rendered.damage else InputError
        raise refusal(f"damaged document: {problems[0]} (use --force to store it flagged damaged)")
    flags = (*release.flags, Flag.DAMAGED)
    return replace(release, flags=flags, notes=(*release.notes, *problems))


class _Shortfall(InputError):
    """A document far smaller than a neighbour (and whole by itself)."""


def _owed_repair(archive: Archive, release: Release) -> Path:
    """The mark of a release whose neighbours' placeholders are yet to be repaired again from
    it: made before it is stored, removed after (see `_repair_again`)."""
    folder = kind_folder(archive.root, archive.kind) / release.language
    return folder / f".repair-{release.effective_date.isoformat()}"


def _repair_again(archive: Archive, release: Release, stored: _Stored) -> Iterator[Outcome]:
    """Repair again the placeholders of the releases beside one just stored.

    A release's placeholders are repaired from its nearest stored neighbours of its numbering;
    one stored since between it and them is nearer. Repaired again from its neighbours as they
    now are, it reads as it would had every file come in one batch, in any order.
    """
    for neighbour in archive.neighbours(release.language, release.effective_date):
        document = stored.load(archive, neighbour)
        if not _prints_question_marks(document):
            continue
        repaired = repair_placeholders(
            unrepaired(document), _neighbour_documents(archive, document, stored)
        )
        if repaired == document:
            continue
        data = archive.original(neighbour)
        rendered = _render(repaired, neighbour.set_name, data)
        again = replace(
            neighbour,
            content_sha256=rendered.content_sha256,
            normalisation=repaired.normalisation,
        )
        archive.save(again, repaired, data, rendered.rules_text, rendered.document_json)
        stored.add(again, repaired)
        count = dict(repaired.normalisation).get(_PLACEHOLDERS, 0)
        label = f"{again.key} {again.set_code}".rstrip()
        message = (
            f"repaired {label} again: its `?` placeholders read beside {release.key}, "
            f"stored since ({count} repaired)"
        )
        yield Outcome(again.source.name, Status.REPAIRED, message, again)


_PLACEHOLDERS = Normalisation.PLACEHOLDERS.value


def _prints_question_marks(document: Document) -> bool:
    return any(
        "?" in rule.printed_text or any("?" in e for e in rule.printed_examples)
        for rule in document.rules
    ) or any("?" in entry.printed_text for entry in document.glossary)


def _check_sections(archive: Archive, release: Release, force: bool) -> Release:
    """Refuse a tournament document with far fewer sections than the releases around it."""
    neighbours = [
        Neighbour(other.key, other.effective_date, other.section_count)
        for other in archive.neighbours(release.language, release.effective_date)
        if Flag.DAMAGED not in other.flags
    ]
    problem = compare_with_neighbours(
        release.section_count, release.effective_date, neighbours, "sections", 0.4
    )
    if problem is None:
        return release
    if not force:
        raise InputError(f"damaged document: {problem} (use --force to store it flagged damaged)")
    return replace(release, flags=(*release.flags, Flag.DAMAGED), notes=(*release.notes, problem))


def _neighbour_documents(archive: Archive, document: Document, stored: _Stored) -> list[Document]:
    """Load the neighbours' documents (for a document that prints a `?` somewhere)."""
    assert document.effective_date is not None
    neighbours = archive.neighbours(document.language, document.effective_date)
    return [stored.load(archive, release) for release in neighbours]


def _store(
    archive: Archive,
    release: Release,
    document: Document | None,
    data: bytes,
    rendered: _Rendered,
    force: bool,
    set_note: str = "",
) -> Outcome:
    existing = archive.get(release.language, release.effective_date)
    label = f"{release.key} {release.set_code}".rstrip()
    counts = f"{release.rule_count} rules, {release.glossary_count} glossary entries"
    if release.kind != DocKind.CR:
        counts = f"{release.section_count} sections"
        set_note = "; ".join(release.notes)  # a date the file's name or cover has otherwise
    if existing is not None:
        same = existing.source.sha256 == release.source.sha256
        if same or (
            existing.content_sha256 == release.content_sha256
            and _preferred(existing) <= _preferred(release)
        ):
            why = "same bytes" if same else f"same text as {existing.source.name}"
            return Outcome(
                release.source.name, Status.UNCHANGED, f"unchanged {label} ({why})", existing
            )
        if existing.content_sha256 == release.content_sha256:
            archive.save(release, document, data, rendered.rules_text, rendered.document_json)
            message = (
                f"replaced {label} (same text as {existing.source.name}, which it is kept "
                f"before: {_PREFERENCE})"
            )
            return Outcome(release.source.name, Status.REPLACED, message, release)
        upgrade = Flag.DAMAGED in existing.flags and Flag.DAMAGED not in release.flags
        # A TXT is the text as published, a DOCX, PDF or RTF a reading of it (the 2002-10-07
        # PDF prints em dashes its TXT has as hyphens): the better format is kept in any order.
        upgrade |= _preferred(release)[0] < _preferred(existing)[0]
        if not (upgrade or force):
            raise InputError(
                f"differs from the stored {release.key} ({existing.source.name}); "
                "use --force to replace it"
            )
        archive.save(release, document, data, rendered.rules_text, rendered.document_json)
        message = f"replaced {label} ({counts}){_also(set_note)}"
        return Outcome(release.source.name, Status.REPLACED, message, release)
    archive.save(release, document, data, rendered.rules_text, rendered.document_json)
    damaged = " [damaged]" if Flag.DAMAGED in release.flags else ""
    message = f"added {label} ({counts}){damaged}{_also(set_note)}"
    return Outcome(release.source.name, Status.ADDED, message, release)


# Of two files giving one text (a release's TXT and DOCX), the one kept whatever their order.
_FORMATS = tuple(Format)
_PREFERENCE = "TXT, then DOCX, PDF, RTF, then the lower sha256"


def _preferred(release: Release) -> tuple[int, str]:
    source = release.source
    rank = _FORMATS.index(Format(source.format)) if source.format in _FORMATS else len(_FORMATS)
    return rank, source.sha256


def _also(note: str) -> str:
    return f"; {note}" if note else ""
