"""The output of a reading command line (`diff`, `changelog`), kept by all it was made from.

A kept output is named by the command and its values, the state of the archive (every
release's files by inode, size and time: any ingest, replacement or edit changes it) and
the code that made it (the content of the CLI's, the corpus's and the differ's files), so
an output is never answered stale, only left behind. Kept under
ARCHIVE/.cache/outputs/<sha256 of the name, 32 hex digits>.txt, written atomically.

Beside them, what `changelog` prints of a release in every format (`KeptChangelog`), named
by the release's date instead of the command line: kept by the ingest that added the release
(and by every `changelog` the library answers), so the first `changelog` after an ingest, of
the newest release by default, by its date or with any format, reads it.

This module imports little beyond what Python loads at start-up: the quick path (`launch`)
reads kept outputs without click or the library.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import sys

import rulesarchive
import rulesarchive.corpus
import rulesarchive.differ
from rulesarchive.defaults import DIFF_FORMATS

_FORMAT = "outputs-1"  # part of every name: outputs kept by another layout are never read
LIMIT = 200  # outputs kept at most: one per command line asked since the last ingest, mostly
OUTPUTS = "outputs"  # the folders under ARCHIVE/.cache: outputs by command line,
CHANGELOGS = "changelogs"  # changelogs by release


class KeptOutput:
    """The kept output of one request: a command and its values, on one archive."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *request: str,
        folder: str = OUTPUTS,
        state: list[str] | None = None,
    ) -> None:
        """Name the output by `request` and the archive's `state` (as it is now by default)."""
        self.folder = os.path.join(os.fspath(root), ".cache", folder)
        self.root = os.fspath(root)
        self.request = request
        self.state = archive_state(self.root) if state is None else state
        self.name = _name(request, self.state)

    def read(self) -> str | None:
        """Return the kept output, or None when there is none for this state of things."""
        try:
            with open(self._path(), encoding="utf-8", newline="") as handle:
                return handle.read()
        except (OSError, UnicodeDecodeError):
            return None

    def keep(self, text: str) -> None:
        """Keep `text` as the output, unless the archive changed while it was made."""
        if archive_state(self.root) != self.state:
            return  # an ingest ran meanwhile: the output may mix two states
        path = self._path()
        temporary = f"{path}.{os.getpid()}.incoming"
        try:
            os.makedirs(self.folder, exist_ok=True)
            with open(temporary, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
            os.replace(temporary, path)
            self._prune()
        except (OSError, UnicodeEncodeError):  # not kept: only made again next time
            _remove(temporary)

    def _prune(self) -> None:
        """Remove the least recently kept outputs beyond LIMIT (an older state's are never read)."""
        with os.scandir(self.folder) as found:
            outputs = [(entry.stat().st_mtime_ns, entry.path) for entry in found]
        outputs = sorted(output for output in outputs if output[1].endswith(".txt"))
        for _time, path in outputs[: max(0, len(outputs) - LIMIT)]:
            _remove(path)

    def _path(self) -> str:
        return os.path.join(self.folder, f"{self.name}.txt")


def _name(request: tuple[str, ...], state: list[str]) -> str:
    parts = [_FORMAT, sys.version, code_fingerprint(), *request, *state]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]


class KeptChangelog:
    """What `changelog` prints of one release (named by its date) in each format."""

    def __init__(self, root: str | os.PathLike[str], language: str, date: str, state: list[str]):
        """Name the outputs by the archive's `state` when the changelog was begun."""
        self.outputs = {
            output: KeptOutput(
                root, "changelog", language, date, output, folder=CHANGELOGS, state=state
            )
            for output in DIFF_FORMATS
        }

    def keep(self, texts: dict[str, str]) -> None:
        """Keep the output of every format (text, markdown, json)."""
        for output, kept in self.outputs.items():
            kept.keep(texts[output])


def kept_changelog(root: str, reference: str, language: str, output: str) -> str | None:
    """Return the kept output of `changelog [RELEASE]`, RELEASE a date or "" (the newest).

    None when none is kept for the archive as it is, or when only the library can tell which
    release is meant (a set code, a date no release's folder bears).
    """
    date = _release_date(root, language, reference)
    if date is None:
        return None
    return KeptOutput(root, "changelog", language, date, output, folder=CHANGELOGS).read()


def _release_date(root: str, language: str, reference: str) -> str | None:
    """Return the folder (a date) of the release named by `reference`, as the store finds it."""
    folder = os.path.join(root, language)
    try:
        names = os.listdir(folder)
    except OSError:
        return None
    if any(name.startswith(".retired-") for name in names):
        return None  # a release being replaced: the store may read it there
    dates = sorted(
        name
        for name in names
        if _is_date(name) and os.path.isfile(os.path.join(folder, name, "release.json"))
    )
    if not reference:
        return dates[-1] if dates else None
    return reference if reference in dates else None


def _is_date(name: str) -> bool:
    if not (len(name) == 10 and name[4] == name[7] == "-" and name.replace("-", "").isdigit()):
        return False
    try:
        dt.date.fromisoformat(name)
    except ValueError:
        return False
    return True


def _remove(path: str) -> None:
    # contextlib.suppress would cost the quick path its import
    try:
        os.unlink(path)
    except OSError:
        return  # another process removed it first


def archive_state(root: str) -> list[str]:
    """Return a stamp of every file a release is read from (and of the archive's own files)."""
    stamps = []
    try:
        entries = sorted(os.scandir(root), key=lambda entry: entry.name)
    except OSError:
        return ["no archive"]
    for entry in entries:
        if entry.name.startswith("."):
            continue  # the cache and the lock: derived or transient
        stamps.append(_stamp(entry.path, entry.name))
        if entry.is_dir():  # a language: its folder's time changes as releases come and go
            try:
                releases = sorted(os.listdir(entry.path))
            except OSError:
                stamps.append(f"{entry.name}/:unlisted")  # unreadable: so stamped
                continue
            for release in releases:
                for name in ("release.json", "document.json"):
                    path = os.path.join(entry.path, release, name)
                    stamps.append(_stamp(path, f"{entry.name}/{release}/{name}"))
    return stamps


def _stamp(path: str, label: str) -> str:
    try:
        stat = os.stat(path)
    except OSError:
        return f"{label}:-"
    return f"{label}:{stat.st_ino}:{stat.st_size}:{stat.st_mtime_ns}"


_fingerprint: str | None = None  # functools.cache would cost the quick path its import


def code_fingerprint() -> str:
    """Return a hash of the code a reading command runs: the CLI, the corpus, the differ.

    Each package's own files count, code and data (the release catalogue in corpus/data),
    not its subpackages' (in a wheel, rulesarchive/ holds the others).
    """
    global _fingerprint
    if _fingerprint is None:
        digest = hashlib.sha256()
        for package in (rulesarchive, rulesarchive.corpus, rulesarchive.differ):
            for top in package.__path__:
                for folder, folders, files in os.walk(top):
                    folders[:] = sorted(
                        name
                        for name in folders
                        if name != "__pycache__"
                        and not os.path.exists(os.path.join(folder, name, "__init__.py"))
                    )
                    for name in sorted(files):
                        with open(os.path.join(folder, name), "rb") as handle:
                            digest.update(f"{folder[len(top) :]}/{name}\0".encode())
                            digest.update(handle.read())
        _fingerprint = digest.hexdigest()
    return _fingerprint
