"""Derived data: what is worked out from the archive, kept by what it was worked out from.

One SQLite file, `derived.sqlite`, in the user's own cache folder (`RULESARCHIVE_CACHE`, else
the platform's: `~/.cache/rulesarchive` on Linux), never in the archive: an archive folder is
shared (a zip, a network share, a repository of releases), and values are kept as pickles,
which run code when read. A folder or file that another user owns or can write to is not
used. Entries are named by content, not by place: the key of an entry is its kind, the version
of the code and the content hashes it was made from (`entry_key`), so a stale entry is never
found, only left behind, and two archives holding the same releases share their entries.

Every entry is written in one transaction (readers see it whole or not at all), with a digest
of its key and value: a value damaged, or moved under another key, is never read. Whoever reads
names the type it expects; a value of another type is worked out again. The least recently
used entries go when the file holds more than the limit (`RULESARCHIVE_CACHE_LIMIT`
megabytes, 2048 by default), and the pages they held go back to the file system. A file that
cannot be read, or made by another version, is made anew; a cache that cannot be written
(read-only media) is read and only slower. Nothing here is a source of truth: `rulesarchive
cache clear` (or deleting the file) only makes the next commands slower.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import gc
import hashlib
import importlib.util
import logging
import operator
import os
import pickle
import sqlite3
import stat
import sys
import time
import typing
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard, TypeVar

from rulesarchive.system.files import write_file_atomically
from rulesarchive.system.once import say_once

T = TypeVar("T")
log = logging.getLogger(__name__)

FOLDER_VARIABLE = "RULESARCHIVE_CACHE"
LIMIT_VARIABLE = "RULESARCHIVE_CACHE_LIMIT"
DEFAULT_LIMIT = 2048 * 2**20
FILE_NAME = "derived.sqlite"
_FORMAT = "derived-2"  # of the values: a file of another format is made anew
_TOUCH_AFTER = 3600  # seconds: an entry read is marked used at most this often
# The file's tables, as SQLite keeps their statements: a file holding anything else (a column
# missing, a view, a trigger) was made by other code and is made anew.
_SCHEMA = {
    "meta": "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "entries": "CREATE TABLE entries (key TEXT PRIMARY KEY, kind TEXT NOT NULL,"
    " size INTEGER NOT NULL, used INTEGER NOT NULL, digest BLOB NOT NULL, value BLOB NOT NULL)",
    "entries_by_use": "CREATE INDEX entries_by_use ON entries (used)",
}
_EMPTY = "no tables"
_INCREMENTAL = 2  # PRAGMA auto_vacuum's value for INCREMENTAL
# The installed package's stages: their files are the code whose version names entries.
_PACKAGES = (
    "rulesarchive",
    "rulesarchive.corpus",
    "rulesarchive.differ",
    "rulesarchive.commands",
    "rulesarchive.answers",
    "rulesarchive.scraper",
    "rulesarchive.system",
    "rulesarchive.site_builder",
    "rulesarchive.exports",
    "rulesarchive.templates",
)


class Kind(enum.StrEnum):
    """What an entry holds."""

    DOCUMENT = "document"  # a release's document, packed (by its document.json's sha256)
    DIFF = "diff"  # the diff of two releases
    LINES = "lines"  # a language's lines of descent after its first n releases, by chapter
    LISTING = "listing"  # a language's release.json files read (by their stamps)
    CHECK = "check"  # the reference check of a language after its first n releases
    REFERENCES = "references"  # every citation a release makes
    ALIGNMENT = "alignment"  # a translated release's rules paired with its English base's
    BASE = "base"  # which of the English releases around a translation's date it translates
    STRUCTURE = "structure"  # a translated release's structure against its English base's
    TRANSLATION = "translation"  # a translated release against its English base, to the newest
    GATHERED = "gathered"  # what the site's build read of a language's documents
    BULK = "bulk"  # an xz stream of the site's bulk file of releases read whole
    LINKS = "links"  # the site's linked texts, word diffs, API rule documents: last build's
    TEMPLATE = "template"  # the site's templates, compiled
    HTTP = "http"  # a fetched URL's body and validators
    SETS = "sets"  # Scryfall's set list, as scrape last fetched it


# Kinds whose values do not depend on the code that made them (what a server answered):
# their keys name the format of the value instead, so a new version keeps them.
_FORMAT_ONLY = {Kind.HTTP: "http-1", Kind.SETS: "sets-1"}


class Access(enum.Enum):
    """What this process can do with the store's file."""

    NONE = "not in use"
    READ = "read only"
    WRITE = "read and written"


class UnwritableCache(Exception):
    """The store's file cannot be written."""


@functools.cache
def code_version() -> str:
    """Return a hash of the installed package's files (code, templates, data).

    Part of every key: what other code worked out is never read. The hash of the files'
    contents is kept beside the package's bytecode (rulesarchive/__pycache__/code-version),
    under a stamp of their names, sizes, inodes and modification and change times: a start
    stats the files instead of reading them all. Writing a file changes its change time,
    which no program can set, so a changed file is always read again.
    """
    files = _package_files()
    stamps = [_file_stamp(path) for _name, path in files]
    stamp = hashlib.sha256(repr(list(zip(files, stamps, strict=True))).encode())
    marked = f"{stamp.hexdigest()[:32]} "
    memo = _memo_path()
    with contextlib.suppress(OSError, UnicodeDecodeError):
        kept = memo.read_text(encoding="ascii").strip()
        if kept.startswith(marked):
            return kept.removeprefix(marked)
    digest = hashlib.sha256()
    for name, path in files:
        digest.update(f"{name}\0".encode())
        with open(path, "rb") as handle:
            digest.update(handle.read())
    version = digest.hexdigest()[:16]
    # written where Python writes its bytecode
    if settled(changed for *_rest, changed in stamps) and not sys.dont_write_bytecode:
        _write_memo(memo, f"{marked}{version}\n")
    return version


def _package_files() -> list[tuple[str, str]]:
    """Return the files of the installed package's stages, each named by its package and
    its path there, in order."""
    found = []
    for name in _PACKAGES:
        spec = importlib.util.find_spec(name)
        assert spec is not None and spec.submodule_search_locations is not None
        for top in spec.submodule_search_locations:
            for folder, folders, files in os.walk(top):
                # each package's own files: its subpackages are listed on their own; the demo
                # archive (site_builder/sample) is data, read through the store by content
                folders[:] = sorted(
                    f
                    for f in folders
                    if f not in {"__pycache__", "sample"}
                    and not os.path.exists(os.path.join(folder, f, "__init__.py"))
                )
                inner = folder[len(top) + 1 :]  # the folder's path in the package ('' at its top)
                for file in sorted(files):
                    if not file.endswith(".pyc"):
                        label = f"{name}:{os.path.join(inner, file)}"
                        found.append((label, os.path.join(folder, file)))
    return found


_SETTLED = 2 * 10**9  # nanoseconds since the last change of a file before its stamp is trusted


def settled(changed: Iterable[int]) -> bool:
    """Tell whether files last changed at these times (change times, in nanoseconds) may be
    known by their stamps: a file changed within the file system's clock tick may keep its
    times (as git's "racy" files), so only files still for a while are."""
    return max(changed, default=0) < time.time_ns() - _SETTLED


def _file_stamp(path: str) -> tuple[int, int, int, int]:
    status = os.stat(path)
    return status.st_size, status.st_ino, status.st_mtime_ns, status.st_ctime_ns


def _memo_path() -> Path:
    """Where the code's version is kept: beside the top package's bytecode."""
    spec = importlib.util.find_spec(_PACKAGES[0])
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parent / "__pycache__" / "code-version"


def _write_memo(path: Path, text: str) -> None:
    """Replace the kept code version in one step (a reader sees the old or the new); where
    it cannot be written (a read-only installation), the files are hashed at every start."""
    with contextlib.suppress(OSError):
        path.parent.mkdir(exist_ok=True)
        write_file_atomically(path, text.encode("ascii"))


def entry_key(kind: Kind, *inputs: object) -> str:
    """Return the key of an entry: its kind, the code's version and what it is made from.

    `inputs` are strings, numbers or tuples of them: the content hashes (and dates, numbers)
    the value was worked out from.
    """
    stamp = _FORMAT_ONLY.get(kind) or code_version()
    named = repr((kind.value, stamp, inputs)).encode()
    return f"{kind.value}:{hashlib.sha256(named).hexdigest()[:40]}"


def default_folder() -> Path:
    """Return the folder of the cache: `RULESARCHIVE_CACHE`, else the platform's user cache."""
    chosen = os.environ.get(FOLDER_VARIABLE)
    if chosen:
        return Path(chosen)
    import platformdirs  # only when no folder is given

    return Path(platformdirs.user_cache_dir("rulesarchive", appauthor=False))


def default_limit() -> int:
    """Return the most bytes the cache keeps (`RULESARCHIVE_CACHE_LIMIT`, in megabytes)."""
    given = os.environ.get(LIMIT_VARIABLE)
    return DEFAULT_LIMIT if given is None else _limit(given)


@functools.cache  # warned once per value
def _limit(given: str) -> int:
    try:
        return max(int(given), 1) * 2**20
    except ValueError:
        log.warning(
            "%s=%r is not a whole number of megabytes: the cache keeps at most %d MB",
            LIMIT_VARIABLE,
            given,
            DEFAULT_LIMIT // 2**20,
        )
        return DEFAULT_LIMIT


@dataclass(frozen=True, slots=True)
class KindSummary:
    """What the cache holds of one kind."""

    kind: str  # a Kind, or the name of a kind this version does not know (a newer one's)
    entries: int
    size: int  # bytes of values


class DerivedData:
    """The store of derived data (see the module's doc); `folder=None` keeps nothing."""

    def __init__(self, folder: Path | None, limit: int | None = None) -> None:
        self.folder = Path(folder) if folder is not None else None
        self.limit = default_limit() if limit is None else limit
        self._connection: sqlite3.Connection | None = None
        self._pid = 0  # the process the connection was opened in
        self._usable = self.folder is not None
        self._writable = True
        self._reason = "" if self._usable else "no folder given"  # why not used, or not written

    @classmethod
    def default(cls) -> DerivedData:
        """Return the user's store (see `default_folder`)."""
        return cls(default_folder())

    @property
    def path(self) -> Path | None:
        """The file the entries are kept in (None: nothing is kept)."""
        return self.folder / FILE_NAME if self.folder is not None else None

    @property
    def reason(self) -> str:
        """Why the file is not used, or not written ('' when it is)."""
        return self._reason

    def access(self) -> Access:
        """Open the file if need be; tell whether it is read and written, read only, or not used."""
        if self._open() is None:
            return Access.NONE
        return Access.WRITE if self._writable else Access.READ

    def outside(self, folder: Path) -> DerivedData:
        """Return this store, or one keeping nothing (with a warning) when its folder is
        `folder` or inside it: an archive's folder holds nothing but releases."""
        if self.folder is None or not _inside(self.folder, folder):
            return self
        say_once(
            log,
            ("cache inside the archive", self.folder, folder),
            "cache %s not used: it is inside the archive %s, which holds only releases (set %s)",
            self.folder,
            folder,
            FOLDER_VARIABLE,
        )
        return DerivedData(None, self.limit)

    def get(self, entry: str, expect: type[T]) -> T | None:
        """Return the value kept under a key, or None: absent, or damaged or not an `expect`
        (then it goes).

        `expect` is a class, or a tuple type (`tuple[Rule, ...]`) whose items are checked too.
        """
        connection = self._open()
        if connection is None:
            return None
        try:
            row = connection.execute(
                "SELECT CAST(value AS BLOB), digest, used FROM entries WHERE key = ?", (entry,)
            ).fetchone()
        except sqlite3.Error as error:
            self._failed(error)
            return None
        if row is None:
            return None
        data, digest, used = row
        if not isinstance(data, bytes) or digest != _digest(entry, data):
            _say_damaged(self.path, "values not as written", "working them out again")
            self.discard(entry)
            return None
        value = _decoded(data, expect)
        if value is None:
            self.discard(entry)
            return None
        now = int(time.time())
        if now - (used if type(used) is int else 0) > _TOUCH_AFTER:
            self._write(
                lambda c: c.execute("UPDATE entries SET used = ? WHERE key = ?", (now, entry))
            )
        return value

    def has(self, entry: str) -> bool:
        """Tell whether a value is kept under a key (without reading it)."""
        connection = self._open()
        if connection is None:
            return False
        try:
            return (
                connection.execute("SELECT 1 FROM entries WHERE key = ?", (entry,)).fetchone()
                is not None
            )
        except sqlite3.Error as error:
            self._failed(error)
            return False

    def put(self, entry: str, value: object) -> None:
        """Keep a value under a key (see `entry_key`), replacing what was kept there."""
        self.put_many([(entry, value)])

    def put_many(self, items: Iterable[tuple[str, object]]) -> None:
        """Keep several values in one transaction: all or none of them are kept."""
        if self._open() is None or not self._writable:
            return
        self._insert([(entry, _dumps(value)) for entry, value in items])

    def put_contents(self, kind: Kind, values: Iterable[object]) -> list[str]:
        """Keep values named by their content, in one transaction; return their keys.

        A value's key is `entry_key(kind, <sha256 of the value>)`: a value kept already
        (unchanged since it was kept) is not written again.
        """
        encoded = [_dumps(value) for value in values]
        keys = [entry_key(kind, hashlib.sha256(data).hexdigest()) for data in encoded]
        if self._open() is not None and self._writable:
            fresh = {entry for entry in keys if not self.has(entry)}
            self._insert([(e, data) for e, data in zip(keys, encoded, strict=True) if e in fresh])
            self.touch(set(keys) - fresh)
        return keys

    def touch(self, keys: Iterable[str]) -> None:
        """Mark entries in use again (not the least recently used, whenever first kept)."""
        now, chosen = int(time.time()), [(entry,) for entry in keys]
        if chosen and self._open() is not None and self._writable:
            self._write(
                lambda c: c.executemany(f"UPDATE entries SET used = {now} WHERE key = ?", chosen)
            )

    def _insert(self, items: list[tuple[str, bytes]]) -> None:
        if not items:
            return
        now = int(time.time())
        rows = [
            (entry, entry.partition(":")[0], len(data), now, _digest(entry, data), data)
            for entry, data in items
        ]

        def insert(connection: sqlite3.Connection) -> None:
            connection.executemany(
                "INSERT OR REPLACE INTO entries (key, kind, size, used, digest, value) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )

        if self._write(insert):
            self._prune()

    def cached(self, entry: str, compute: Callable[[], T], expect: type[T], label: str = "") -> T:
        """Return the `expect` kept under a key, or compute, keep and return it.

        `label` names the value in the log ('diff en/2024-11-08 -> en/2025-02-07').
        """
        found = self.get(entry, expect)
        if found is not None:
            log.info("%s: from the cache", label or entry)
            return found
        if self._usable:
            log.info("%s: not in the cache, computing", label or entry)
        value = compute()
        self.put(entry, value)
        return value

    def latest(self, keys: list[str], expect: type[T]) -> T | None:
        """Return the work kept for the most steps, or None.

        For work that goes a step (a release) at a time: `keys[n]` names it after the first n
        steps, and what is kept under it is an `expect` whose `count` is n.
        """
        if self._open() is None:
            return None
        for count in range(len(keys) - 1, 0, -1):
            if not self.has(keys[count]):
                continue
            found = self.get(keys[count], expect)
            if getattr(found, "count", None) == count:
                return found
        return None

    def keep_latest(self, keys: list[str], value: object, count: int, since: int) -> None:
        """Keep work done for `count` steps under `keys[count]`, in place of that of `since`."""
        self.put(keys[count], value)
        if since and since != count:  # superseded: the work kept now answers everything it did
            self.discard(keys[since])

    def summary(self) -> list[KindSummary]:
        """Return what is kept, by kind."""
        connection = self._open()
        if connection is None:
            return []
        try:
            rows = connection.execute(
                "SELECT kind, COUNT(*), SUM(size) FROM entries GROUP BY kind ORDER BY kind"
            ).fetchall()
        except sqlite3.Error as error:
            self._failed(error)
            return []
        return [KindSummary(str(kind), count, int(size or 0)) for kind, count, size in rows]

    def clear(self, kinds: Iterable[Kind] = ()) -> int:
        """Delete what is kept (of these kinds; none named: everything, of any kind); return
        how many. Raise UnwritableCache when the file cannot be written."""
        chosen = list(kinds)
        if self.folder is None:
            return 0
        deleted: list[int] = []

        def delete(connection: sqlite3.Connection) -> None:
            if chosen:
                marks = ", ".join("?" * len(chosen))
                query = f"DELETE FROM entries WHERE kind IN ({marks})"
                deleted.append(connection.execute(query, chosen).rowcount)
            else:
                deleted.append(connection.execute("DELETE FROM entries").rowcount)

        if self._open() is None or not self._write(delete):
            raise UnwritableCache(f"{self.path}: cannot be written ({self._reason})")
        self._give_back_pages()
        return deleted[0]

    def close(self) -> None:
        """Close the file (this process's connection)."""
        if self._connection is not None and self._pid == os.getpid():
            self._connection.close()
        self._connection = None

    def _open(self) -> sqlite3.Connection | None:
        """Return this process's connection to the file (opened now if need be), or None."""
        if not self._usable:
            return None
        if self._connection is not None and self._pid == os.getpid():
            return self._connection
        # A connection opened before a fork is never used in the child: SQLite forbids it.
        self._connection = None
        assert self.folder is not None
        path = self.folder / FILE_NAME
        try:
            _check_place(self.folder, path)
        except _Refused as refused:
            advice = f" ({refused.advice})" if refused.advice else ""
            say_once(
                log,
                ("cache not used", refused.path, refused.reason),
                "cache %s not used: %s%s",
                refused.path,
                refused.reason,
                advice,
                level=refused.level,
            )
            self._usable, self._reason = False, refused.reason
            return None
        for attempt in (1, 2):
            try:
                self._connection, unwritable = _connect(path)
            except sqlite3.OperationalError as error:  # cannot be opened, nor read
                self._not_used(path, str(error), logging.INFO)
                return None
            except sqlite3.DatabaseError as error:  # not a database, damaged, another version's
                if attempt == 2:
                    self._not_used(path, str(error), logging.WARNING)
                    return None
                if isinstance(error, _OtherLayout):
                    log.info("cache %s: %s: making it anew", path, error)
                else:
                    _say_damaged(path, str(error))
                _remove_database(path)
                continue
            self._pid = os.getpid()
            self._writable, self._reason = not unwritable, unwritable
            return self._connection
        return None

    def _not_used(self, path: Path, reason: str, level: int) -> None:
        say_once(
            log,
            ("cache not used", path, reason),
            "cache %s not used: %s",
            path,
            reason,
            level=level,
        )
        self._usable, self._reason = False, reason

    def _write(self, change: Callable[[sqlite3.Connection], object]) -> bool:
        """Run a change in one transaction; False when it could not be written."""
        connection = self._open()
        if connection is None or not self._writable:
            return False
        try:
            with connection:
                change(connection)
            return True
        except sqlite3.OperationalError as error:  # read-only, full disk, locked too long
            log.info("cache not written (%s)", error)
            self._reason = str(error)
            if "readonly" in str(error) or "read-only" in str(error):
                self._writable = False
            return False
        except sqlite3.DatabaseError as error:
            self._failed(error)
            return False

    def discard(self, entry: str) -> None:
        """Forget what is kept under a key (work superseded by what is kept now)."""
        self._write(lambda c: c.execute("DELETE FROM entries WHERE key = ?", (entry,)))

    def _prune(self) -> None:
        """Delete the least recently used entries while the file holds more than the limit."""
        connection = self._open()
        if connection is None:
            return
        try:
            total = connection.execute("SELECT COALESCE(SUM(size), 0) FROM entries").fetchone()[0]
        except sqlite3.Error:
            return
        if total <= self.limit:
            return
        goal = self.limit * 4 // 5  # a margin: pruning again at the next entry would be slow
        doomed = []
        for entry, size in connection.execute("SELECT key, size FROM entries ORDER BY used, key"):
            if total <= goal:
                break
            doomed.append((entry,))
            total -= size
        if self._write(lambda c: c.executemany("DELETE FROM entries WHERE key = ?", doomed)):
            self._give_back_pages()

    def _give_back_pages(self) -> None:
        """Give the file system back the pages deleted entries held."""
        connection = self._open()
        if connection is not None and self._writable:
            # execute() would step the pragma once, freeing one page; a script runs it through
            with contextlib.suppress(sqlite3.Error):
                connection.executescript("PRAGMA incremental_vacuum")

    def _failed(self, error: sqlite3.Error) -> None:
        """A file found damaged while in use: it is made anew by the next command."""
        _say_damaged(self.path, str(error))
        self.close()
        self._usable, self._reason = False, f"damaged ({error})"
        if self.path is not None:
            _remove_database(self.path)


def _say_damaged(path: Path | None, why: str, done: str = "making it anew") -> None:
    """Say that the store's file is damaged and what is done about it: once a file, however
    it shows (unreadable pages, an emptied file, values not as written)."""
    say_once(log, ("cache damaged", path), "cache %s is damaged (%s): %s", path, why, done)


def _decoded(data: bytes, expect: type[T]) -> T | None:
    """Return the value stored as `data`, or None: made by other code, or not an `expect`."""
    try:
        with collection_paused():
            value: object = pickle.loads(data)
    except Exception:  # made by other code: worked out again
        return None
    return value if _is_an(value, expect) else None


def _is_an(value: object, expect: type[T]) -> TypeGuard[T]:
    """Tell whether a value is an `expect` (see `DerivedData.get`)."""
    # mypy takes a class's __hash__ for an unbound method, so no class is Hashable to it
    return _checker(expect)(value)  # type: ignore[arg-type]


def _digest(entry: str, data: bytes) -> bytes:
    """Return the digest of an entry's key and value (a key has no NUL: the pair is one)."""
    digest = hashlib.sha256(entry.encode())
    digest.update(b"\0")
    digest.update(data)
    return digest.digest()


@functools.cache
def _checker(expect: Any) -> Callable[[object], bool]:
    """Return a test of whether a value is an `expect` (see `DerivedData.get`)."""
    origin = typing.get_origin(expect)
    if origin is None:
        return lambda value: isinstance(value, expect)
    items = typing.get_args(expect)
    if origin is not tuple or not items:  # other generics: their class alone
        return lambda value: isinstance(value, origin)
    if len(items) == 2 and items[1] is Ellipsis:
        each = _checker(items[0])
        return lambda value: isinstance(value, tuple) and all(map(each, value))
    checks = tuple(map(_checker, items))
    return lambda value: (
        isinstance(value, tuple)
        and len(value) == len(checks)
        and all(map(operator.call, checks, value))
    )


class _OtherLayout(sqlite3.DatabaseError):
    """The file's tables are not this version's."""


def _connect(path: Path) -> tuple[sqlite3.Connection, str]:
    """Open the file to read and write it, else (read-only media) to read it; return the
    connection and why it cannot be written ('' when it can)."""
    try:
        return _connect_writable(path), ""
    except sqlite3.OperationalError as error:
        unwritable = str(error)
    address = path.absolute().as_uri()
    # A file in WAL mode is read only beside its -shm, made if need be: on read-only media
    # without one, it is read as immutable (nothing can change it there).
    for query in ("mode=ro", "mode=ro&immutable=1"):
        try:
            connection = sqlite3.connect(f"{address}?{query}", uri=True, timeout=60)
        except sqlite3.OperationalError:
            continue
        try:
            problem = _layout_problem(connection)
        except sqlite3.OperationalError:
            connection.close()
            continue
        except BaseException:
            connection.close()
            raise
        if problem:
            connection.close()
            raise sqlite3.OperationalError(f"{problem}, and {unwritable}")
        return connection, unwritable
    raise sqlite3.OperationalError(unwritable)


def _connect_writable(path: Path) -> sqlite3.Connection:
    emptied = _emptied(path)
    fresh = not path.exists()
    connection = sqlite3.connect(path, timeout=60, isolation_level=None)
    try:
        if fresh:
            with contextlib.suppress(OSError):
                os.chmod(path, 0o600)
        # Taken only before the first table is made, and never inside a transaction (SQLite
        # ignores it there): every connection asks first, so whichever makes the tables has it.
        connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
        problem = _layout_problem(connection)
        if problem == _EMPTY:
            if emptied:
                _say_damaged(path, "an empty file")
            with connection:
                connection.execute("BEGIN IMMEDIATE")
                if _layout_problem(connection) == _EMPTY:  # not made meanwhile by another process
                    for statement in _SCHEMA.values():
                        connection.execute(statement)
                    connection.execute("INSERT INTO meta VALUES ('format', ?)", (_FORMAT,))
            problem = _layout_problem(connection)
        if problem:
            raise _OtherLayout(problem)
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = NORMAL")
        connection.isolation_level = "DEFERRED"  # `with connection` commits a transaction
    except BaseException:
        connection.close()
        raise
    return connection


def _emptied(path: Path) -> bool:
    """Tell whether the file is empty and was not made just now (by another process, whose
    tables are on their way): truncated, as a full disk or a careless copy leaves it."""
    try:
        status = path.stat()
    except OSError:
        return False
    return status.st_size == 0 and status.st_mtime < time.time() - 2


def _layout_problem(connection: sqlite3.Connection) -> str:
    """Return how the file differs from what this version makes ('' if it does not; _EMPTY)."""
    found = dict(
        connection.execute("SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL").fetchall()
    )
    if not found:
        return _EMPTY
    if found != _SCHEMA:
        return "tables of another version"
    if connection.execute("PRAGMA auto_vacuum").fetchone()[0] != _INCREMENTAL:
        return "pages never given back (auto_vacuum off)"
    row = connection.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
    if row is None or row[0] != _FORMAT:
        return f"values of another format ({row[0] if row else 'none'})"
    return ""


def _remove_database(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            path.with_name(path.name + suffix).unlink()


class _Refused(Exception):
    """A cache that is not to be used: where, why, what to do, and how loudly to say it."""

    def __init__(
        self, path: Path, reason: str, advice: str = "", level: int = logging.WARNING
    ) -> None:
        super().__init__(reason)
        self.path, self.reason, self.advice, self.level = path, reason, advice, level


def _check_place(folder: Path, path: Path) -> None:
    """Make the folder (0700); raise _Refused unless only this user can change it and the
    file (with its -wal and -shm) that pickles, which run code when read, are read from."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        status = folder.stat()
    except (FileExistsError, NotADirectoryError):
        raise _Refused(folder, "not a folder") from None
    except OSError as error:  # cannot be made (read-only media, no permission)
        raise _Refused(folder, str(error), level=logging.INFO) from None
    if not stat.S_ISDIR(status.st_mode):
        raise _Refused(folder, "not a folder")
    if others := _other_writers(status):
        raise _Refused(folder, others, f"make it yours and 0700, or set {FOLDER_VARIABLE}")
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            status = file.stat()
        except FileNotFoundError:
            continue
        except OSError as error:
            raise _Refused(file, str(error)) from None
        if not stat.S_ISREG(status.st_mode):
            raise _Refused(file, "not a file", "remove it")
        if others := _other_writers(status):
            raise _Refused(file, others, "make it yours and 0600, or remove it")


def _other_writers(status: os.stat_result) -> str:
    """Return who else can change a file or folder ('' when only this user can)."""
    if not hasattr(os, "geteuid"):  # Windows: modes do not say who can write
        return ""
    if status.st_uid != os.geteuid():
        return "owned by another user"
    if status.st_mode & 0o022:
        return "other users can write to it"
    return ""


def _inside(inner: Path, outer: Path) -> bool:
    """Tell whether a folder is `outer` or inside it (the folders compared as the file system
    knows them where they exist: another spelling or a link is the same folder)."""
    inner, outer = inner.resolve(), outer.resolve()
    try:
        target = outer.stat()
    except OSError:
        return inner.is_relative_to(outer)
    for folder in (inner, *inner.parents):
        with contextlib.suppress(OSError):
            if os.path.samestat(folder.stat(), target):
                return True
    return False


def _dumps(value: object) -> bytes:
    buffer = _Buffer()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return bytes(buffer.data)


class _Buffer:
    def __init__(self) -> None:
        self.data = bytearray()

    def write(self, chunk: bytes) -> int:
        self.data += chunk
        return len(chunk)


class _Pickler(pickle.Pickler):
    """Store each dataclass as a call of its class with its fields.

    Read back, that is one __init__ per object; pickle's default for slotted dataclasses looks
    up the fields again for every object, which made reading a language's lines of descent
    (57,000 objects) take most of a second.
    """

    def reducer_override(self, obj: object) -> tuple[type, tuple[object, ...]]:
        cls: type = type(obj)
        names = _field_names(cls)
        if names is None:
            # pickle's own way; mypy allows NotImplemented (typed Any) in operator methods only
            return NotImplemented  # type: ignore[no-any-return]
        return cls, tuple(getattr(obj, name) for name in names)


@functools.cache
def _field_names(cls: type) -> tuple[str, ...] | None:
    """Return the fields a dataclass's __init__ takes, in order; None for other classes."""
    if not dataclasses.is_dataclass(cls):
        return None
    fields = dataclasses.fields(cls)
    if not all(field.init for field in fields):
        return None
    return tuple(field.name for field in fields)


@contextlib.contextmanager
def collection_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many objects that form no cycles.

    Unpickling 50,000 tuples and dataclasses otherwise triggers collection after collection,
    each walking everything built so far: reading the lines of descent took three times as long.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
