"""The archive on disk: one folder per release, written atomically, read back as typed objects.

Layout (git-friendly):  ARCHIVE/<language>/<effective date>/ for the Comprehensive Rules,
ARCHIVE/<kind>/<language>/<effective date>/ for the other kinds (mtr, ipg); each holds
    release.json   metadata (Release)
    document.json  the parsed, normalised document (printed text kept where it differs)
    rules.txt      normalised text, one rule or glossary entry per line, for `git diff`
    original.<ext> the bytes as they were ingested
ARCHIVE/<language>/ids.tsv  the registry of permanent ids of its lines (corpus.ids)

Hidden entries are never releases: .lock (the writer lock), <language>/.incoming-* (a release
being written), <language>/.retired-<date>-<pid> (the old copy during a replace, where folders
cannot be exchanged in one step), .snapshot-<pid>-* (a build's view). What is worked out from
the releases is kept outside the archive (corpus.derived).
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import datetime as dt
import errno
import functools
import hashlib
import json
import json.encoder
import logging
import marshal
import os
import re
import stat
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, replace
from itertools import chain, product, repeat
from pathlib import Path
from sys import intern
from typing import TYPE_CHECKING, Any, Generic, NotRequired, TypedDict, TypeVar

from rulesarchive.corpus.derived import DerivedData, Kind, entry_key, settled
from rulesarchive.corpus.model import (
    LANGUAGES,
    DocKind,
    Document,
    Flag,
    GlossaryEntry,
    Heading,
    Lines,
    Provenance,
    Release,
    Rule,
    Section,
    SectionPart,
)
from rulesarchive.corpus.numbers import CHAPTER, RULE_NUMBER, SECTION, numbering_era
from rulesarchive.system.files import UMASK, fsync_folder, write_file_atomically
from rulesarchive.system.lazy import lazy_module
from rulesarchive.system.once import say_once

if TYPE_CHECKING:
    import ctypes
    import shutil
    import tempfile
    from concurrent import futures

    from filelock import FileLock
    from rulesarchive.corpus import catalogue, ids
    from rulesarchive.corpus import sets as magic_sets
    from rulesarchive.corpus.ids import Registry
    from rulesarchive.corpus.sets import MagicSet
else:  # what only writing uses: a command that reads does not import it (see system.lazy)
    ctypes = lazy_module("ctypes")
    futures = lazy_module("concurrent.futures")
    shutil = lazy_module("shutil")
    tempfile = lazy_module("tempfile")
    # and what only some readers use: the registry of ids, the set list, the catalogue
    ids = lazy_module("rulesarchive.corpus.ids")
    magic_sets = lazy_module("rulesarchive.corpus.sets")
    catalogue = lazy_module("rulesarchive.corpus.catalogue")

T = TypeVar("T")
log = logging.getLogger(__name__)
_DATE = r"\d{4}-\d{2}-\d{2}"
# A release folder, or the old copy a replace set aside (kept readable until the new is in place).
_RELEASE_FOLDER = re.compile(rf"(?P<date>{_DATE})|\.retired-(?P<retired>{_DATE})-\d+")
_SNAPSHOT = re.compile(r"\.snapshot-(\d+)-.*")
_HEADING_NUMBER = re.compile(rf"{SECTION}|{CHAPTER}")
# A tournament document's section address ('3', '3.9', '2.10', '101', 'B', 'B.2'): a path part.
_SECTION_ADDRESS = re.compile(r"(?:\d{1,3}|[A-Z])(?:\.\d{1,3}){0,2}")
_LOCK = ".lock"
_NOT_WRITABLE = (errno.EACCES, errno.EPERM, errno.EROFS)
# What json.dumps(text, ensure_ascii=False) calls for a string (the C version where there is one).
_encode_string = json.encoder.encode_basestring
# marshal's format may change between Python versions: part of a packed document's key.
_PYTHON = f"{sys.implementation.name}-{sys.version_info.major}.{sys.version_info.minor}"


class ArchiveError(Exception):
    """A release that cannot be found, read or written."""


class NotFound(ArchiveError, LookupError):
    """What was asked for is not in the archive (a LookupError too)."""


class UnknownRelease(NotFound):
    """No release of the archive answers to the name given."""


class UnknownRule(NotFound):
    """No rule has the number (or the id) given, in the release asked about."""


class DamagedRelease(ArchiveError):
    """The release asked for is stored, but cannot be read: no other answers in its place."""


class UnreadableDocument(ArchiveError):
    """A release's document.json (or its packed copy) cannot be read: wrong types, bad JSON."""

    def __init__(
        self,
        message: str,
        stamp: tuple[int, int, int],
        kind: DocKind,
        language: str,
        effective_date: dt.date,
    ) -> None:
        super().__init__(message)
        self.stamp = stamp  # of the document.json read (a snapshot's is gone once caught)
        self.release = (DocKind(kind), language, effective_date)

    def __reduce__(self) -> tuple[type[UnreadableDocument], tuple[object, ...]]:
        # raised in a worker process, re-raised in the parent
        return (type(self), (str(self), self.stamp, *self.release))


# The documents found unreadable in this process: (kind, language, date) -> document.json's
# stamp then, and what was wrong. Such a release is left out of the listing until its
# document.json is another file (see `leave_out`); a process-wide record, as one command may
# open the archive anew.
_UNREADABLE: dict[tuple[DocKind, str, dt.date], tuple[tuple[int, int, int], str]] = {}

# The documents of the releases a user named in this process (by date, file date or set
# code), by release and document.json's stamp: one found unreadable is not left out.
_NAMED: set[tuple[tuple[DocKind, str, dt.date], tuple[int, int, int]]] = set()


def leave_out(error: UnreadableDocument) -> bool:
    """Record that a release has an unreadable document, to be left out of the archive's
    listings from now on (they say so); False if it was left out already (nothing new learnt).

    Raise DamagedRelease if the user named that release: another's text in its place would
    mislead whoever cites it.
    """
    if (error.release, error.stamp) in _NAMED:
        raise DamagedRelease(f"{error}: the release asked for is damaged")
    if (left := _UNREADABLE.get(error.release)) is not None and left[0] == error.stamp:
        return False
    _UNREADABLE[error.release] = (error.stamp, str(error))
    return True


def report_damaged(problem: str) -> None:
    """Say on stderr that a damaged release is left out: the one place that does, once a
    problem in this process (a command run again without an unreadable document lists the
    archive anew)."""
    say_once(log, ("damaged release", problem), "%s: left out", problem)


def _document_stamp(folder: Path | str) -> tuple[int, int, int]:
    try:
        status = os.stat(os.path.join(folder, "document.json"))
    except OSError:
        return (0, 0, 0)
    return status.st_ino, status.st_size, status.st_mtime_ns


def _left_out(kind: DocKind, language: str, date: dt.date, folder: Path | str) -> str:
    """Say what was wrong with a release's document if it was found unreadable and is the
    same file still ('' if not)."""
    left = _UNREADABLE.get((kind, language, date))
    return left[1] if left is not None and left[0] == _document_stamp(folder) else ""


class UnwritableArchive(ArchiveError):
    """The archive's folder cannot be written to (read-only media, another user's folder)."""


def no_releases(root: Path | str, language: str | None = None, doc: str = "cr") -> str:
    """Say that an archive (or one kind or language of it) has no releases, and how to fill it.

    The one wording of every command that finds nothing to read, missing folder or empty.
    """
    which = "".join(f"{word} " for word in (doc if doc != "cr" else "", language) if word)
    missing = "" if os.path.isdir(root) else ", no such folder"  # a mistyped --archive, most often
    return (
        f"no {which}releases in {root}{missing} (fill the archive with 'rulesarchive ingest "
        "FILES' or 'rulesarchive scrape', or point --archive at one)"
    )


def check_language(language: str) -> str:
    """Return a language code of the closed set, or raise ArchiveError naming the known ones."""
    if language not in LANGUAGES:
        raise ArchiveError(f"unknown language {language!r} (known: {', '.join(LANGUAGES)})")
    return language


class Archive:
    """A folder of releases.

    Only complete releases are ever listed or read: a release is written in a hidden staging
    folder and renamed into place; whatever a killed run leaves behind is hidden, ignored and
    removed by the next writer (`recover`). Writers take an exclusive lock on ARCHIVE/.lock.
    """

    def __init__(
        self,
        root: Path | str,
        *,
        pinned: Path | None = None,
        cache: bool = True,
        derived: DerivedData | None = None,
        kind: DocKind = DocKind.CR,
    ) -> None:
        """Open the archive in `root` for one kind of document; its documents are kept packed
        in `derived` (by default the user's store, none when `cache` is False)."""
        self.root = Path(root)
        if derived is None:
            derived = DerivedData.default() if cache else DerivedData(None)
        self.derived = derived
        self.kind = DocKind(kind)
        # Where releases are read: a snapshot's copy, or the kind's folder (the root for CR,
        # so archives made before there were other kinds stay valid).
        self._data = pinned or kind_folder(self.root, self.kind)
        self._pinned = pinned is not None
        self._lock: FileLock | None = None
        # each language's releases as last read in this process, with their files' stamps
        # (and what was wrong with the others, by date)
        self._listed: dict[
            str, tuple[tuple[object, ...], tuple[Release, ...], dict[dt.date, str]]
        ] = {}

    def of_kind(self, kind: DocKind) -> Archive:
        """Return this archive's view of another kind of document (itself for its own kind)."""
        if kind == self.kind:
            return self
        if self._pinned:
            raise ArchiveError(f"{self._data}: a snapshot holds {self.kind} releases only")
        return Archive(self.root, derived=self.derived, kind=kind)

    @property
    def data_folder(self) -> Path:
        """Where releases are read: the archive's folder, or a snapshot's copy of it."""
        return self._data

    def releases(self, language: str | None = None) -> list[Release]:
        """Return the stored releases, oldest first (of one language, or all)."""
        found = []
        for lang in [check_language(language)] if language else LANGUAGES:
            found += self._language_releases(lang)
        return sorted(found, key=lambda release: (release.language, release.effective_date))

    def _language_releases(self, language: str) -> list[Release]:
        """Read a language's release.json files, oldest first; say which are left out."""
        found, damaged = self._listing(language)
        for problem in damaged.values():
            report_damaged(problem)
        return list(found)

    def _listing(self, language: str) -> tuple[tuple[Release, ...], dict[dt.date, str]]:
        """Read a language's release.json files: the sound releases, oldest first, and what
        is wrong with the others by date, saying nothing.

        Read again only when one of them is another file, by its stamp (inode, size, times):
        within this process, and across commands through the derived data (a listing kept
        under the stamps of all of them). Reading them is most of a quick command's work.
        """
        folders = sorted(self._folders(language))
        stamp = tuple(_stamp(folder, status) for _lang, _date, folder, status in folders)
        listed = self._listed.get(language)
        if listed is not None and listed[0] == stamp:
            return listed[1], listed[2]
        entry = entry_key(Kind.LISTING, self.kind.value, language, stamp)
        # a snapshot's folders are new at every build: its listing would never be read again
        keep = bool(folders) and not self._pinned
        kept = self.derived.get(entry, tuple[Release, ...]) if keep else None
        if kept is not None and len(kept) != len(folders):
            kept = None
        found, damaged = [], {}
        for at, (lang, date, folder, _status) in enumerate(folders):
            if _UNREADABLE and (problem := _left_out(self.kind, lang, date, folder)):
                damaged[date] = problem
                continue
            try:
                found.append(
                    kept[at] if kept is not None else _read_release(folder, lang, date, self.kind)
                )
            except ArchiveError as error:  # one bad release costs only itself: said, left out
                damaged[date] = self._shown(error, folder)
        if (
            keep
            and kept is None
            and not damaged
            and settled(status.st_ctime_ns for *_, status in folders)
        ):
            self.derived.put(entry, tuple(found))
        self._listed[language] = (stamp, tuple(found), damaged)
        return tuple(found), damaged

    def damage(self, language: str, effective_date: dt.date) -> str:
        """Say what is wrong with the release stored for a date, named where the user can
        mend it ('' when it is sound, or there is none): a folder that cannot be looked into,
        a release.json that cannot be read, a document found unreadable. Said here, not
        reported: the caller decides (a release asked for is an error, not left out)."""
        if effective_date not in self._candidates(language):
            return ""  # none stored
        try:
            folder = self._readable(language, effective_date)
            os.listdir(folder or self._folder(language, effective_date))
        except OSError as error:  # a folder that may not be looked into
            shown = self._live(self._folder(language, effective_date))
            return f"{shown}: cannot be read ({error.strerror or error})"
        if folder is None:
            return ""  # being written: not a release yet
        if _UNREADABLE and (problem := _left_out(self.kind, language, effective_date, folder)):
            return problem  # found since the listing was read
        try:  # its release.json alone: the listing would look at every release's
            _read_release(folder, language, effective_date, self.kind)
        except ArchiveError as error:
            return self._shown(error, folder)
        return ""

    def set_code_damage(self, language: str, code: str) -> str:
        """Say what is wrong with the release a set code names when that is a damaged one
        ('' when it is sound, or none names the code): the newest of the releases naming it,
        a damaged one's release.json read as JSON alone (its set code may still be read)."""
        found, damaged = self._listing(language)
        code = code.upper()
        sound = [release.effective_date for release in found if release.set_code.upper() == code]
        for date in sorted(damaged, reverse=True):
            if sound and sound[-1] > date:
                break
            if self._named_set_code(language, date) == code:
                return damaged[date]
        return ""

    def _named_set_code(self, language: str, effective_date: dt.date) -> str | None:
        """The set code a stored release.json names, upper case, read as JSON alone: what a
        damaged release still says it is. If it says none (not JSON, or no code as a string),
        the catalogue's for a CR release effective that day (None if it has none)."""
        try:
            folder = self._readable(language, effective_date)
            data = json.loads((folder / "release.json").read_bytes()) if folder else None
        except (OSError, ValueError):  # a folder that may not be looked into, or not JSON
            data = None
        code = data.get("set_code") if isinstance(data, dict) else None
        if isinstance(code, str):
            return code.upper()
        entry = catalogue.entry_for(effective_date) if self.kind == DocKind.CR else None
        return entry.set_code.upper() if entry and entry.effective_date == effective_date else None

    def _shown(self, error: ArchiveError, folder: Path | str) -> str:
        """Return a release's problem named where the user can mend it, not in a snapshot."""
        return str(error).replace(str(folder), str(self._live(Path(folder))))

    def name(self, release: Release) -> Release:
        """Record that the user named this release: if its document proves unreadable, the
        command fails rather than answer from another release (see `leave_out`)."""
        folder = self._readable(release.language, release.effective_date)
        if folder is not None:
            key = (self.kind, release.language, release.effective_date)
            _NAMED.add((key, _document_stamp(folder)))
        return release

    def get(self, language: str, effective_date: dt.date) -> Release | None:
        """Return the release of this language and date, or None."""
        folder = self._readable(language, effective_date)
        if folder is None:
            return None
        if _UNREADABLE and (problem := _left_out(self.kind, language, effective_date, folder)):
            report_damaged(problem)
            return None
        return _read_release(folder, language, effective_date, self.kind)

    def neighbours(self, language: str, effective_date: dt.date) -> list[Release]:
        """Return the stored releases just before and just after a date, oldest first.

        Only releases numbered as that date's are neighbours (corpus.numbers.numbering_era):
        a release of the other numbering is no measure of its rules. Only those two
        release.json files are read, and only the folders nearest the date are looked into:
        ingesting a whole archive asks this for every file, and reading (or even stat-ing)
        every release each time made that quadratic.
        """
        candidates = self._candidates(language)
        era = numbering_era(effective_date)
        dates = sorted(date for date in candidates if numbering_era(date) == era)
        at = bisect.bisect_left(dates, effective_date)
        before = _nearest(candidates, reversed(dates[:at]))
        after = _nearest(
            candidates, dates[at + (at < len(dates) and dates[at] == effective_date) :]
        )
        return [
            release
            for found in (before, after)
            if found is not None
            and (release := _readable_release(found[1], language, found[0], self.kind))
        ]

    def folder_dates(self, language: str) -> list[dt.date]:
        """Return the dates of a language's release folders, sound or damaged, oldest first."""
        return sorted(self._candidates(language))

    def _candidates(self, language: str) -> dict[dt.date, list[Path]]:
        """Return the folders that may hold each date's release, in the order _folders prefers.

        Named by the folder names alone: whether they hold a release.json is not looked at
        (a file named as a folder is no folder, as the listing has it).
        """
        parent = self._data / check_language(language)
        try:
            with os.scandir(parent) as entries:
                names = [entry.name for entry in entries if _is_folder(entry)]
        except (FileNotFoundError, NotADirectoryError):
            return {}
        candidates: dict[dt.date, list[Path]] = {}
        for name in names:
            match = _RELEASE_FOLDER.fullmatch(name)
            if not match:
                continue
            try:
                date = dt.date.fromisoformat(match["date"] or match["retired"])
            except ValueError:
                continue  # 2024-13-45: not a date, not a release
            folders = candidates.setdefault(date, [])
            if match["date"]:
                folders.insert(0, parent / name)
            else:
                folders.append(parent / name)
        return candidates

    def load(self, release: Release) -> Document:
        """Read the document of a release (from its packed form, kept by content, if any).

        The packed form is named by the sha256 of document.json's bytes: a document.json
        rewritten (by hand, by a restore) is read afresh, never answered from an older entry.
        """
        return self._read_document(release, unpack_document, _whole)

    def rule(self, release: Release, number: str) -> Rule | None:
        """Return a release's rule with this number, or None if it prints none: from the
        packed document, one rule is made, not the 3,000 of a whole document (`rule`)."""
        return self._read_document(
            release, functools.partial(unpack_rule, number=number), lambda d: d.rule(number)
        )

    def _read_document(
        self, release: Release, unpack: Callable[[bytes], T], take: Callable[[Document], T]
    ) -> T:
        """Return what `unpack` reads of a release's packed document, kept by content, or
        what `take` takes of the document read from its document.json (then packed)."""
        folder = self._readable(release.language, release.effective_date)
        path = (folder or self._folder(release.language, release.effective_date)) / "document.json"
        try:
            data = path.read_bytes()
            entry = entry_key(Kind.DOCUMENT, _PYTHON, hashlib.sha256(data).hexdigest())
            packed = self.derived.get(entry, bytes)
            if packed is not None:
                with contextlib.suppress(Exception):  # packed by other code: read afresh
                    found = unpack(packed)
                    log.info("document %s: from the cache", release.key)
                    return found
            document = document_from_json(json.loads(data))
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            # named where the user can mend it: a snapshot's copy is gone once this is said
            shown = self._live(path)
            raise UnreadableDocument(
                f"{shown}: unreadable document ({error})",
                _document_stamp(path.parent),
                self.kind,
                release.language,
                release.effective_date,
            ) from None
        if self.derived.folder is not None:
            log.info("document %s: not in the cache, computing", release.key)
            self.derived.put(entry, pack_document(document))
        return take(document)

    def _release_status(self, folder: str) -> os.stat_result | None:
        """Return the status of a folder's release.json, None if it holds none (one still
        being written does not); one that cannot be looked into is said, once, and left out."""
        try:
            status = os.stat(os.path.join(folder, "release.json"))
            if stat.S_ISREG(status.st_mode):
                return status
        except OSError:
            pass
        try:
            os.listdir(folder)  # no release.json yet, or no way to look?
        except (FileNotFoundError, NotADirectoryError):
            return None
        except OSError as error:
            report_damaged(
                f"{self._live(Path(folder))}: cannot be read ({error.strerror or error})"
            )
        return None

    def _live(self, path: Path) -> Path:
        """Return where a file read from a snapshot lives in the archive itself."""
        if not self._pinned:
            return path
        return kind_folder(self.root, self.kind) / path.relative_to(self._data)

    def original(self, release: Release) -> bytes:
        """Return the bytes a release was ingested from (its original.<format>)."""
        folder = self._readable(release.language, release.effective_date)
        path = (folder or self._folder(release.language, release.effective_date)) / (
            f"original.{release.source.format}"
        )
        try:
            return path.read_bytes()
        except OSError as error:
            raise ArchiveError(f"{path}: unreadable ({error.strerror or error})") from None

    def save(
        self,
        release: Release,
        document: Document | None,
        raw: bytes,
        rules_text: str | bytes | None = None,
        document_json: str | bytes | None = None,
    ) -> None:
        """Write a release, replacing any with the same key; all or nothing, durable.

        `rules_text` is render_rules_text(document) and `document_json`
        render_document_json(document) (or either encoded) when the caller has them already;
        with both given, the document may be None (ingest need not rebuild it).
        """
        if self._pinned:
            raise ArchiveError(f"{self._data}: a snapshot is read-only")
        target = self._folder(release.language, release.effective_date)
        with self.lock(), _unwritten(target):
            _make_folder(target.parent)
            staging = Path(tempfile.mkdtemp(prefix=".incoming-", dir=target.parent))
            try:
                os.chmod(staging, 0o777 & ~UMASK)
                if rules_text is None or document_json is None:
                    assert document is not None, "save needs the document or both its files"
                    if rules_text is None:
                        rules_text = render_rules_text(document)
                    if document_json is None:
                        document_json = render_document_json(document)
                files: dict[str, str | bytes] = {
                    "release.json": json.dumps(release_to_json(release), indent=1),
                    "document.json": document_json,
                    "rules.txt": rules_text,
                    f"original.{release.source.format}": raw,
                }
                _write_files(staging, files)
                fsync_folder(staging)
                _swap_into_place(staging, target)
            finally:
                shutil.rmtree(staging, ignore_errors=True)

    def ids_file(self, language: str, lines: Lines = Lines.RULES) -> Path:
        """Return where a language's registry of ids is kept: ARCHIVE/<language>/ids.tsv (and
        glossary-ids.tsv, heading-ids.tsv), or ARCHIVE/<kind>/<language>/ids.tsv for a
        tournament document's sections."""
        return ids.ids_file(kind_folder(self.root, self.kind), language, lines)

    def registry(self, language: str, lines: Lines = Lines.RULES) -> Registry:
        """Return a language's registry of permanent ids (ARCHIVE/<language>/ids.tsv); the
        package's for the shared archive when the archive has none yet."""
        text = self.registry_text(language, lines)
        if text is None:
            return ids.shipped_registry(language, self.kind, lines)
        try:
            return ids.parse_registry(text, str(self.ids_file(language, lines)))
        except ids.RegistryError as error:
            raise ArchiveError(str(error)) from None

    def registry_text(self, language: str, lines: Lines = Lines.RULES) -> str | None:
        """Return the text of a language's registry of ids, None when the archive has none."""
        path = self.ids_file(check_language(language), lines)
        try:
            return path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return None
        except OSError as error:
            raise ArchiveError(f"{path}: unreadable ({error.strerror})") from None

    def save_registry(self, language: str, text: str, lines: Lines = Lines.RULES) -> bool:
        """Write a language's registry of ids into the archive (never a snapshot's copy: ids
        are for good); return False when the archive cannot be written to."""
        path = self.ids_file(check_language(language), lines)
        try:
            with self.lock():
                _make_folder(path.parent)
                write_file_atomically(path, text.encode("utf-8"))
        except UnwritableArchive:
            return False
        except OSError as error:
            if error.errno in _NOT_WRITABLE:
                return False
            raise
        return True

    def save_sets(self, sets: list[MagicSet]) -> None:
        """Keep the set list (fetched by scrape) for naming releases the catalogue lacks."""
        self.derived.put(entry_key(Kind.SETS), tuple(sets))

    def sets(self) -> tuple[MagicSet, ...] | None:
        """Return the kept set list, or None when scrape never fetched one."""
        return self.derived.get(entry_key(Kind.SETS), tuple[magic_sets.MagicSet, ...])

    @contextmanager
    def lock(self) -> Iterator[None]:
        """Hold the archive's writer lock, ARCHIVE/.lock (re-entrant within this object)."""
        if self._lock is None:
            from filelock import FileLock  # only writers lock: readers never load it

            self._lock = FileLock(self.root / _LOCK, mode=0o644)
        try:
            if not self._lock.is_locked:
                _make_folder(self.root)
            self._lock.acquire()
        except OSError as error:
            if error.errno not in _NOT_WRITABLE:
                raise
            raise UnwritableArchive(
                f"{self.root}: the archive cannot be written to ({error.strerror})"
            ) from None
        try:
            yield
        finally:
            self._lock.release()

    @contextmanager
    def snapshot(self) -> Iterator[Archive]:
        """Yield a read-only view of the archive as it is now; later writes do not change it.

        The view is a hard-link copy of the release folders, taken under the writer lock:
        writers never modify a file in place (each release is new files in a new folder), so
        linked files keep the content they had. An archive this process cannot write to
        (read-only media) is read as it is.
        """
        folder = self._take_snapshot() if self.root.is_dir() else None
        if folder is None:
            yield self
            return
        try:
            yield Archive(self.root, pinned=folder, derived=self.derived, kind=self.kind)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    def _take_snapshot(self) -> Path | None:
        try:
            with self.lock():
                for stale in self._dead_snapshots():  # a build killed (SIGTERM, SIGKILL) left it
                    shutil.rmtree(stale, ignore_errors=True)
                folder = Path(tempfile.mkdtemp(prefix=f".snapshot-{os.getpid()}-", dir=self.root))
                try:
                    for language, date, release_folder, _ in self._folders(None):
                        _link_files(Path(release_folder), folder / language / date.isoformat())
                except BaseException:
                    shutil.rmtree(folder, ignore_errors=True)
                    raise
        except UnwritableArchive:
            return None
        except OSError as error:
            if error.errno in _NOT_WRITABLE:
                return None
            raise
        return folder

    def leftovers(self) -> list[Path]:
        """Return what killed runs left: staging folders, set-aside copies, dead snapshots
        (of every kind of document: the archive has one writer lock)."""
        if self._pinned or not self.root.is_dir():
            return []
        found = self._dead_snapshots()
        for kind, language in product(DocKind, LANGUAGES):
            folder = kind_folder(self.root, kind) / language
            if folder.is_dir():
                found += [
                    path
                    for path in folder.iterdir()
                    if path.name.startswith((".incoming-", ".retired-"))
                ]
        return sorted(found)

    def _dead_snapshots(self) -> list[Path]:
        """Return the snapshots whose process is gone: never read again, safe to delete."""
        return [
            path
            for path in self.root.iterdir()
            if (match := _SNAPSHOT.fullmatch(path.name)) and not _alive(int(match.group(1)))
        ]

    def recover(self) -> list[str]:
        """Remove what killed runs left (putting back a release a replace had set aside)."""
        messages = []
        with self.lock():
            for path in self.leftovers():
                match = _RELEASE_FOLDER.fullmatch(path.name)
                if match and match["retired"] and not (path.parent / match["retired"]).exists():
                    path.rename(path.parent / match["retired"])
                    fsync_folder(path.parent)
                    name = f"{path.parent.name}/{match['retired']}"
                    messages.append(f"restored {name} (a replace was interrupted)")
                    continue
                shutil.rmtree(path, ignore_errors=True)
                messages.append(
                    f"removed {path.relative_to(self.root)} (left by an interrupted run)"
                )
        return messages

    def _folder(self, language: str, effective_date: dt.date) -> Path:
        return self._data / check_language(language) / effective_date.isoformat()

    def _readable(self, language: str, effective_date: dt.date) -> Path | None:
        """Return the folder holding a release: its own, or the copy a replace set aside."""
        folder = self._folder(language, effective_date)
        if (folder / "release.json").exists():
            return folder
        prefix = f".retired-{effective_date.isoformat()}-"
        try:
            names = os.listdir(folder.parent)
        except (FileNotFoundError, NotADirectoryError):
            return None
        retired = sorted(folder.parent / name for name in names if name.startswith(prefix))
        return next((path for path in retired if (path / "release.json").exists()), None)

    def _folders(self, language: str | None) -> Iterator[tuple[str, dt.date, str, os.stat_result]]:
        """Yield (language, date, folder, its release.json's status) of every complete
        release; nothing else is listed. Folders as strings: every command lists them, and a
        Path a folder was a tenth of a warm listing."""
        for lang in [check_language(language)] if language else LANGUAGES:
            parent = os.path.join(self._data, lang)  # strings: a Path a folder cost more
            try:
                names = os.listdir(parent)
            except (FileNotFoundError, NotADirectoryError):
                continue
            chosen: dict[str, tuple[str, os.stat_result]] = {}
            for name in names:
                match = _RELEASE_FOLDER.fullmatch(name)
                folder = os.path.join(parent, name)
                if not match or not (status := self._release_status(folder)):
                    continue
                if match["date"]:
                    chosen[match["date"]] = (folder, status)
                else:
                    chosen.setdefault(match["retired"], (folder, status))
            for name, (folder, status) in chosen.items():
                try:
                    yield lang, dt.date.fromisoformat(name), folder, status
                except ValueError:
                    continue  # 2024-13-45: not a date, not a release


def _is_folder(entry: os.DirEntry[str]) -> bool:
    """Tell whether a folder's entry is a folder (through a link), False if it cannot tell."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def kind_folder(root: Path, kind: DocKind) -> Path:
    """Return the folder holding a kind's language folders: the root itself for CR."""
    return root if kind == DocKind.CR else root / kind.value


def _stamp(folder: str, status: os.stat_result) -> tuple[str, int, int, int, int]:
    return folder, status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns


def _nearest(
    candidates: dict[dt.date, list[Path]], dates: Iterable[dt.date]
) -> tuple[dt.date, Path] | None:
    """Return the first of the dates whose folders hold a release, and that folder."""
    for date in dates:
        for folder in candidates[date]:
            if (folder / "release.json").is_file():
                return date, folder
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _make_folder(path: Path) -> None:
    """Create a folder (and its parents), making the new entries durable."""
    if path.is_dir():
        return
    _make_folder(path.parent)
    try:
        path.mkdir()
    except FileExistsError:
        return
    fsync_folder(path.parent)


def _write_files(folder: Path, files: dict[str, str | bytes]) -> None:
    """Write and fsync files side by side: their fsyncs then wait for the disk together."""
    writers = _writers()
    for written in [
        writers.submit(_write, folder / name, content) for name, content in files.items()
    ]:
        written.result()


_WRITER_POOL: list[futures.ThreadPoolExecutor] = []


def _writers() -> futures.ThreadPoolExecutor:
    """Return this process's writer threads (started once: four for every release cost more)."""
    if not _WRITER_POOL:
        pool = futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="archive-write")
        _WRITER_POOL.append(pool)
    return _WRITER_POOL[0]


# A forked child has none of its parent's threads: it starts its own writers when it writes.
if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_WRITER_POOL.clear)


@contextlib.contextmanager
def _unwritten(target: Path) -> Iterator[None]:
    """Turn a failed write (a full disk, a read-only folder) into one ArchiveError line.

    The release written is in a hidden staging folder till its last byte is synced, and the
    staging folder goes: what was stored before stays as it was.
    """
    try:
        yield
    except OSError as error:
        why = error.strerror or str(error)
        raise ArchiveError(f"{target}: cannot be written ({why}); nothing was changed") from None


def _write(path: Path, content: str | bytes) -> None:
    data = content.encode("utf-8") if isinstance(content, str) else content
    with path.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _link_files(source: Path, target: Path) -> None:
    target.mkdir(parents=True)
    for path in source.iterdir():
        try:
            os.link(path, target / path.name)
        except OSError:
            shutil.copy2(path, target / path.name)  # a file system without hard links


def _swap_into_place(staging: Path, target: Path) -> None:
    """Put the finished folder at `target`; a reader sees the old release or the new, never none.

    On Linux both folders are exchanged in one step (the old one then sits in `staging`, which
    the caller deletes). Elsewhere the old folder is renamed aside first; until the new one is
    in place readers read the set-aside copy, and `recover` puts it back after a crash.
    """
    if not target.exists():
        staging.rename(target)
    elif not exchange_paths(staging, target):
        retired = target.with_name(f".retired-{target.name}-{os.getpid()}")
        target.rename(retired)
        try:
            staging.rename(target)
        except OSError:
            retired.rename(target)
            raise
        fsync_folder(target.parent)
        shutil.rmtree(retired, ignore_errors=True)
    fsync_folder(target.parent)


def exchange_paths(first: Path, second: Path) -> bool:
    """Swap two paths atomically (Linux renameat2 RENAME_EXCHANGE); False where unsupported."""
    renameat2 = _renameat2()
    if renameat2 is None:
        return False
    if renameat2(_AT_FDCWD, os.fsencode(first), _AT_FDCWD, os.fsencode(second), 2) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(second))


_AT_FDCWD = -100


@functools.cache
def _renameat2() -> Callable[..., int] | None:
    """The C library's renameat2, or None where there is none."""
    try:
        found: Callable[..., int] = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return None
    return found


def render_rules_text(document: Document) -> str:
    """Render the normalised text one rule (and one glossary entry) per line.

    A tournament document's: each section's number and title, then each of its paragraphs
    behind its number (and part name).
    """
    lines = []
    for section in document.sections:
        lines.append(f"{section.number} {section.title}".rstrip())
        lines.extend(f"{section.number} ¶ {paragraph}" for paragraph in section.paragraphs)
        for part in section.parts:
            lines.extend(f"{section.number} {part.name}: {text}" for text in part.paragraphs)
    for rule in document.rules:
        lines.append(f"{rule.number} {rule.text}")
        lines.extend(f"{rule.number} Example: {example}" for example in rule.examples)
    lines.extend(
        f"Glossary: {entry.term}: {entry.text.replace(chr(10), ' ¶ ')}"
        for entry in document.glossary
    )
    return "\n".join(lines) + "\n"


def release_to_json(release: Release) -> dict[str, object]:
    """Return the JSON form of a release's metadata."""
    data = asdict(release)
    data["effective_date"] = release.effective_date.isoformat()
    data["normalisation"] = dict(release.normalisation)
    if release.kind == DocKind.CR:  # as before there were other kinds
        del data["kind"], data["section_count"]
    return data


_RELEASE_FIELDS = {
    **dict.fromkeys(("language", "effective_date", "set_code", "set_name", "content_sha256"), str),
    **dict.fromkeys(("rule_count", "glossary_count"), int),
    **dict.fromkeys(("flags", "notes", "decode_repairs"), list),
    **dict.fromkeys(("source", "normalisation"), dict),
}
_JSON_NAMES = {str: "a string", int: "a whole number", list: "a list", dict: "an object"}


_PROVENANCE_FIELDS = frozenset(field.name for field in dataclasses.fields(Provenance))


def _checked_fields(data: object) -> dict[str, Any]:
    """Return release.json's data if each field is there with its JSON type; else raise
    TypeError saying which is not."""
    if not isinstance(data, dict):
        raise TypeError("not an object")
    for key, json_type in _RELEASE_FIELDS.items():
        if key not in data:
            raise TypeError(f"{key} is missing")
        if not _is(data[key], json_type):
            raise TypeError(f"{key} is not {_JSON_NAMES[json_type]}")
    if not _is(data.get("section_count", 0), int):
        raise TypeError("section_count is not a whole number")
    for key in ("flags", "notes", "decode_repairs"):
        if not all(isinstance(item, str) for item in data[key]):
            raise TypeError(f"{key} holds other than strings")
    if not all(_is(count, int) for count in data["normalisation"].values()):
        raise TypeError("normalisation holds other than whole numbers")
    if unknown := sorted(data["source"].keys() - _PROVENANCE_FIELDS):
        raise TypeError(f"source has no field {unknown[0]!r}")
    if not all(isinstance(value, str) for value in data["source"].values()):
        raise TypeError("source holds other than strings")
    return data


def _is(value: object, json_type: type) -> bool:
    """Tell whether a JSON value is of a type (true and false are no whole numbers)."""
    return isinstance(value, json_type) and not isinstance(value, bool)


def _readable_release(
    folder: Path, language: str, effective_date: dt.date, kind: DocKind = DocKind.CR
) -> Release | None:
    """Read a release's metadata, or say why it cannot be read and return None."""
    try:
        return _read_release(folder, language, effective_date, kind)
    except ArchiveError as error:
        report_damaged(str(error))
        return None


def _read_release(
    folder: Path | str, language: str, effective_date: dt.date, kind: DocKind = DocKind.CR
) -> Release:
    """Read a release's metadata; it must name the kind, language and date of its folder."""
    path = os.path.join(folder, "release.json")
    try:
        with open(path, "rb") as handle:
            data = _checked_fields(json.loads(handle.read()))
        release = Release(
            language=data["language"],
            effective_date=dt.date.fromisoformat(data["effective_date"]),
            set_code=data["set_code"],
            set_name=data["set_name"],
            rule_count=data["rule_count"],
            glossary_count=data["glossary_count"],
            content_sha256=data["content_sha256"],
            source=Provenance(**data["source"]),
            flags=tuple(map(Flag, data["flags"])),
            notes=tuple(data["notes"]),
            normalisation=tuple(data["normalisation"].items()),
            decode_repairs=tuple(data["decode_repairs"]),
            kind=DocKind(data.get("kind", DocKind.CR)),
            section_count=data.get("section_count", 0),
        )
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ArchiveError(f"{path}: unreadable release metadata ({error})") from None
    if (release.kind, release.language, release.effective_date) != (kind, language, effective_date):
        place = replace(release, kind=kind, language=language, effective_date=effective_date).key
        raise ArchiveError(f"{path}: says {release.key}, not {place} as its folder does")
    return release


def render_document_json(document: Document) -> str:
    """Render a document as JSON for `git diff`: one key per line, one rule or entry per line."""
    lines = []
    for key, value in _document_fields(document, _rule_line, _entry_line).items():
        if isinstance(value, list) and value:
            compact = map(_compact, value) if key not in _RENDERED_ITEMS else value
            items = ",\n".join(f"  {item}" for item in compact)
            lines.append(f" {json.dumps(key)}: [\n{items}\n ]")
        else:
            lines.append(f" {json.dumps(key)}: {_compact(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _compact(value: object) -> str:
    """Return json.dumps(value, ensure_ascii=False), quicker for the strings, lists and dicts here.

    json.dumps builds a new encoder for every call with a non-default option; called once per
    rule, that was most of the cost of writing a release.
    """
    if isinstance(value, str):
        return _encode_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(map(_compact, value)) + "]"
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(
                [
                    f"{_encode_string(key)}: "
                    + (_encode_string(item) if type(item) is str else _compact(item))
                    for key, item in value.items()
                ]
            )
            + "}"
        )
    return json.dumps(value, ensure_ascii=False)


class SectionPartJson(TypedDict):
    """The JSON form of a part of a tournament document's section."""

    name: str
    paragraphs: list[str]
    original: NotRequired[list[str]]


class SectionJson(TypedDict):
    """The JSON form of a tournament document's section."""

    number: str
    title: str
    paragraphs: list[str]
    original: NotRequired[list[str]]
    parts: NotRequired[list[SectionPartJson]]


class RuleJson(TypedDict):
    """The JSON form of a rule in document.json."""

    number: str
    text: str
    examples: NotRequired[list[str]]
    original: NotRequired[str]
    original_examples: NotRequired[list[str]]


class EntryJson(TypedDict):
    """The JSON form of a glossary entry in document.json."""

    term: str
    text: str
    original: NotRequired[str]


RuleForm = TypeVar("RuleForm")
EntryForm = TypeVar("EntryForm")


class DocumentFields(TypedDict, Generic[RuleForm, EntryForm]):
    """A document's fields as document.json holds them, its rules and entries in some form."""

    language: str
    effective_date: str | None
    title: str
    introduction: str
    contents: list[str]
    headings: list[list[str]]  # [number, title]
    rules: list[RuleForm]
    glossary: list[EntryForm]
    credits: str
    notes: list[str]
    normalisation: dict[str, int]
    set_name: str
    excerpt: bool
    glossary_omitted: NotRequired[bool]  # only when true
    kind: NotRequired[str]  # only for the other kinds than the Comprehensive Rules
    sections: NotRequired[list[SectionJson]]  # likewise


DocumentJson = DocumentFields[RuleJson, EntryJson]


def document_to_json(document: Document) -> DocumentJson:
    """Return the JSON form of a document, leaving out printed text equal to the normalised."""
    return _document_fields(document, _rule_to_json, _entry_to_json)


# The document keys whose items render_document_json renders itself, one line each.
_RENDERED_ITEMS = ("rules", "glossary")


def _document_fields(
    document: Document,
    rule_form: Callable[[Rule], RuleForm],
    entry_form: Callable[[GlossaryEntry], EntryForm],
) -> DocumentFields[RuleForm, EntryForm]:
    fields: DocumentFields[RuleForm, EntryForm] = {
        "language": document.language,
        "effective_date": document.effective_date.isoformat() if document.effective_date else None,
        "title": document.title,
        "introduction": document.introduction,
        "contents": list(document.contents),
        "headings": [[heading.number, heading.title] for heading in document.headings],
        "rules": [rule_form(rule) for rule in document.rules],
        "glossary": [entry_form(entry) for entry in document.glossary],
        "credits": document.credits,
        "notes": list(document.notes),
        "normalisation": dict(document.normalisation),
        "set_name": document.set_name,
        "excerpt": document.excerpt,
    }
    # only when true: the documents of every language but Korean keep their bytes
    if document.glossary_omitted:
        fields["glossary_omitted"] = True
    # only for the other kinds: a Comprehensive Rules document keeps its bytes
    if document.kind != DocKind.CR:
        fields["kind"] = document.kind.value
        fields["sections"] = list(map(section_to_json, document.sections))
    return fields


def section_to_json(section: Section) -> SectionJson:
    """Return the JSON form of a section, leaving out printed text equal to the normalised."""
    data: SectionJson = {
        "number": section.number,
        "title": section.title,
        "paragraphs": list(section.paragraphs),
    }
    if section.original:
        data["original"] = list(section.original)
    if section.parts:
        data["parts"] = list(map(_part_to_json, section.parts))
    return data


def _part_to_json(part: SectionPart) -> SectionPartJson:
    data: SectionPartJson = {"name": part.name, "paragraphs": list(part.paragraphs)}
    if part.original:
        data["original"] = list(part.original)
    return data


def _section_from_json(data: SectionJson) -> Section:
    return Section(
        data["number"],
        data["title"],
        tuple(data["paragraphs"]),
        tuple(
            SectionPart(part["name"], tuple(part["paragraphs"]), tuple(part.get("original", ())))
            for part in data.get("parts", ())
        ),
        tuple(data.get("original", ())),
    )


def _rule_to_json(rule: Rule) -> RuleJson:
    data: RuleJson = {"number": rule.number, "text": rule.text}
    if rule.examples:
        data["examples"] = list(rule.examples)
    if rule.original:
        data["original"] = rule.original
    if rule.original_examples:
        data["original_examples"] = list(rule.original_examples)
    return data


def _entry_to_json(entry: GlossaryEntry) -> EntryJson:
    data: EntryJson = {"term": entry.term, "text": entry.text}
    if entry.original:
        data["original"] = entry.original
    return data


# _compact(_rule_to_json(rule)) and _compact(_entry_to_json(entry)), written out: 300,000 rules
# in a full ingest, and building each dict to encode it cost more than encoding the texts.
def _rule_line(rule: Rule) -> str:
    line = f'{{"number": {_encode_string(rule.number)}, "text": {_encode_string(rule.text)}'
    if rule.examples:
        line += f', "examples": [{", ".join(map(_encode_string, rule.examples))}]'
    if rule.original:
        line += f', "original": {_encode_string(rule.original)}'
    if rule.original_examples:
        originals = ", ".join(map(_encode_string, rule.original_examples))
        line += f', "original_examples": [{originals}]'
    return line + "}"


def _entry_line(entry: GlossaryEntry) -> str:
    line = f'{{"term": {_encode_string(entry.term)}, "text": {_encode_string(entry.text)}'
    if entry.original:
        line += f', "original": {_encode_string(entry.original)}'
    return line + "}"


def check_numbers(
    rules: Iterable[str], headings: Iterable[str], sections: Iterable[str] = ()
) -> None:
    """Refuse numbers that are no rule, chapter or section numbers (raise ValueError).

    Rule and heading numbers become parts of the site's paths: a tampered document (or a
    tampered packed copy of one) must not be able to name a page outside it ('../../x').
    """
    for number in rules:
        if not isinstance(number, str) or not RULE_NUMBER.fullmatch(number):
            raise ValueError(f"{number!r} is not a rule number")
    for number in headings:
        if not isinstance(number, str) or not _HEADING_NUMBER.fullmatch(number):
            raise ValueError(f"{number!r} is not a section or chapter number")
    for number in sections:
        if not isinstance(number, str) or not _SECTION_ADDRESS.fullmatch(number):
            raise ValueError(f"{number!r} is not a tournament document's section number")


def check_types(
    strings: Iterable[object], string_tuples: Iterable[object], nested: Sequence[object] = ()
) -> None:
    """Refuse a decoded document whose texts are not texts (raise TypeError): each of
    `strings` must be a str, each of `string_tuples` a tuple of str, each of `nested` a tuple
    of such tuples (a column of examples). C-level passes over whole columns: a load of 3,000
    rules barely notices."""
    for value in strings:
        if not isinstance(value, str):
            raise TypeError(f"{_shown(value)} where a text was expected")
    for column in nested:
        if not isinstance(column, tuple) or not all(map(isinstance, column, repeat(tuple))):
            raise TypeError(f"{_shown(column)} where lists of texts were expected")
    # (every column is a tuple by now: the test only tells the checker so)
    flattened = (
        tuple(chain.from_iterable(column)) for column in nested if isinstance(column, tuple)
    )
    for column in (*string_tuples, *flattened):
        if not isinstance(column, tuple) or not all(map(isinstance, column, repeat(str))):
            raise TypeError(f"{_shown(column)} where texts were expected")


def _shown(value: object) -> str:
    if isinstance(value, tuple):
        value = next((item for item in value if not isinstance(item, str)), value)
    return f"{type(value).__name__} {repr(value)[:40]}"


def _check_document(document: Document) -> None:
    """Refuse a document with a non-text where a text belongs (see `check_types`)."""
    rules, glossary = document.rules, document.glossary
    check_types(
        (document.title, document.introduction, document.credits, document.set_name),
        (
            document.contents,
            document.notes,
            tuple(heading.title for heading in document.headings),
            tuple(rule.original for rule in rules),
            tuple(entry.term for entry in glossary),
            tuple(entry.text for entry in glossary),
            tuple(entry.original for entry in glossary),
            *_section_texts(document.sections),
        ),
        (tuple(rule.original_examples for rule in rules),),
    )


def _section_texts(sections: Iterable[Section]) -> Iterator[object]:
    for section in sections:
        yield (section.title,)
        yield section.paragraphs
        yield section.original
        for part in section.parts:
            yield part.paragraphs
            yield part.original


def document_from_json(data: DocumentJson) -> Document:
    """Rebuild a Document from its JSON form; numbers that are no rule numbers are refused
    (see `check_numbers`)."""
    date = data["effective_date"]
    sections = tuple(map(_section_from_json, data.get("sections", ())))
    check_numbers(
        [rule["number"] for rule in data["rules"]],
        [number for number, _ in data["headings"]],
        [section.number for section in sections],
    )
    document = Document(
        language=data["language"],
        effective_date=dt.date.fromisoformat(date) if date else None,
        title=data["title"],
        introduction=data["introduction"],
        contents=tuple(data["contents"]),
        headings=tuple(Heading(number, title) for number, title in data["headings"]),
        # Interned: a text that several loaded releases share is one object (less memory, and
        # comparing releases compares pointers, not characters). The printed forms are not, as
        # in pack_document.
        rules=tuple(
            Rule(
                intern(r["number"]),
                intern(r["text"]),
                tuple(map(intern, r.get("examples", ()))),
                r.get("original", ""),
                tuple(r.get("original_examples", ())),
            )
            for r in data["rules"]
        ),
        glossary=tuple(
            GlossaryEntry(g["term"], g["text"], g.get("original", "")) for g in data["glossary"]
        ),
        credits=data["credits"],
        notes=tuple(data["notes"]),
        normalisation=tuple(data["normalisation"].items()),
        set_name=data.get("set_name", ""),
        excerpt=data.get("excerpt", False),
        glossary_omitted=data.get("glossary_omitted", False),
        kind=DocKind(data.get("kind", DocKind.CR)),
        sections=sections,
    )
    _check_document(document)
    return document


def pack_document(document: Document, interned: bool = True) -> bytes:
    """Return a document in its compact cached form: marshal of flat tuples, one per field.

    The rules' numbers, texts and examples are interned first, and marshal reads interned
    strings back interned: the interning that lets the differ compare loaded releases by
    pointer then costs no Python call per string. The printed forms (`original`), a third of
    the characters, are only compared when a rule's text is unchanged: they stay plain, which
    spares a load hashing them (a tenth of its time). A column per field builds the Rule
    objects with one map each. Documents sent between processes for storing only need no
    interning (`interned=False`).
    """
    rules, glossary, headings = document.rules, document.glossary, document.headings
    keep = intern if interned else str  # str() of a str is that same str
    date = document.effective_date
    return marshal.dumps(
        (
            document.language,
            date.toordinal() if date else 0,
            document.title,
            document.introduction,
            document.contents,
            tuple(heading.number for heading in headings),
            tuple(heading.title for heading in headings),
            tuple(keep(rule.number) for rule in rules),
            tuple(keep(rule.text) for rule in rules),
            tuple(tuple(map(keep, rule.examples)) for rule in rules),
            tuple(rule.original for rule in rules),
            tuple(rule.original_examples for rule in rules),
            tuple(entry.term for entry in glossary),
            tuple(entry.text for entry in glossary),
            tuple(entry.original for entry in glossary),
            document.credits,
            document.notes,
            document.normalisation,
            document.set_name,
            document.excerpt,
            document.glossary_omitted,
            document.kind.value,
            tuple(map(_section_row, document.sections)),
        )
    )


# A section as pack_document keeps it: number, title, paragraphs, parts, printed paragraphs;
# each part as name, paragraphs, printed paragraphs.
_PartRow = tuple[str, tuple[str, ...], tuple[str, ...]]
_SectionRow = tuple[str, str, tuple[str, ...], tuple[_PartRow, ...], tuple[str, ...]]


def _section_row(section: Section) -> _SectionRow:
    parts = tuple((part.name, part.paragraphs, part.original) for part in section.parts)
    return (section.number, section.title, section.paragraphs, parts, section.original)


def _section_from_row(row: _SectionRow) -> Section:
    number, title, paragraphs, parts, original = row
    return Section(number, title, paragraphs, tuple(SectionPart(*part) for part in parts), original)


def _build(cls: type[T], *columns: tuple[object, ...]) -> tuple[T, ...]:
    """Return objects of a slotted dataclass made from one column of values per field, in order.

    A frozen dataclass's __init__ sets each field through object.__setattr__: for the 3,000
    rules of a release that was most of the time of loading it. Here each field's slot is
    filled for all objects at once (one map over its descriptor), with no Python call per object.
    No __post_init__ runs: these classes have none, and the values come from such objects.
    """
    objects = tuple(map(_new_object, repeat(cls, len(columns[0]))))
    for setter, column in zip(_SLOT_SETTERS[cls], columns, strict=True):
        deque(map(setter, objects, column), maxlen=0)
    return objects


_new_object = object.__new__
# Each field's slot descriptor setter, in field order, of the classes a document is made of.
_SLOT_SETTERS: dict[type, tuple[Callable[[object, object], None], ...]] = {
    cls: tuple(getattr(cls, field.name).__set__ for field in dataclasses.fields(cls))
    for cls in (Heading, Rule, GlossaryEntry)
}


def _whole(document: Document) -> Document:
    return document


def unpack_rule(packed: bytes, number: str) -> Rule | None:
    """Return the rule numbered `number` of a packed document (pack_document), or None."""
    columns = marshal.loads(packed)
    numbers = columns[7]
    try:
        at = numbers.index(number)
    except ValueError:
        return None
    fields = tuple(columns[column][at : at + 1] for column in range(7, 12))
    check_types((), (*fields[:2], fields[3]), (fields[2], fields[4]))
    return _build(Rule, *fields)[0]


def unpack_document(packed: bytes) -> Document:
    """Rebuild the Document that pack_document packed (rule texts interned as on reading JSON)."""
    (language, ordinal, title, introduction, contents, heading_numbers, heading_titles) = (
        columns := marshal.loads(packed)
    )[:7]
    numbers, texts, examples, originals, original_examples = columns[7:12]
    terms, definitions, printed, credits, notes, normalisation, set_name = columns[12:19]
    excerpt, glossary_omitted, kind, section_rows = columns[19:]
    sections = tuple(map(_section_from_row, section_rows))
    check_numbers(numbers, heading_numbers, [section.number for section in sections])
    check_types(
        (title, introduction, credits, set_name),
        (
            *(contents, notes, heading_titles, texts, originals, terms, definitions, printed),
            *_section_texts(sections),
        ),
        (examples, original_examples),
    )
    document = Document(
        language=language,
        effective_date=dt.date.fromordinal(ordinal) if ordinal else None,
        title=title,
        introduction=introduction,
        contents=contents,
        headings=_build(Heading, heading_numbers, heading_titles),
        rules=_build(Rule, numbers, texts, examples, originals, original_examples),
        glossary=_build(GlossaryEntry, terms, definitions, printed),
        credits=credits,
        notes=notes,
        normalisation=normalisation,
        set_name=set_name,
        excerpt=excerpt,
        glossary_omitted=glossary_omitted,
        kind=DocKind(kind),
        sections=sections,
    )
    return document
