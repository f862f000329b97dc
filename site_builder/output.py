"""The site folder being built: the changed files made beside the live site, then moved in.

`site` is a symbolic link to a folder, `.site.a` (or `.site.b`). A first build writes the
whole site into one and points the link at it. A rebuild writes only the files whose inputs
changed (each file's inputs are summed up in a fingerprint kept in `.manifest.json`) into the
other, which holds nothing else; once every page is made, it moves them into the live folder
(one atomic rename each), deletes what the site no longer has, and replaces the manifest
last. A build that fails leaves the live site as it was; one stopped while moving its files
in leaves a site whose old manifest makes the next build write them again. The folder of
the changed files (empty folders by then, or a failed build's files) is renamed out of the
way and deleted by a detached process, so the command returns as soon as the site is live,
as `git gc --auto` does.

Moving the changed files in is what keeps a rebuild the cost of what changed: the site is
18,000 folders for the real archive, and a whole copy of it (hard links) cost seconds of the
kernel's time at every rebuild."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypedDict, cast

from filelock import FileLock, Timeout

MANIFEST = ".manifest.json"
_FORMAT = 2  # of the manifest; another format means nothing in it is trusted
_PRUNING_PREFIX = ".pruning."  # + the site folder's name and a process id: being deleted
_DELETE = "import shutil, sys\nfor top in sys.argv[1:]: shutil.rmtree(top, ignore_errors=True)"
_PRUNERS: list[int] = []  # the deleting processes this process started


class _Manifest(TypedDict):
    """What `.manifest.json` holds: its format, the state built, and each file's entry."""

    format: int
    state: str
    files: dict[str, list[str]]


log = logging.getLogger(__name__)


@contextmanager
def building(out: Path) -> Iterator[None]:
    """Hold the site folder's lock (`.DIR.lock` beside it): a second build of the same folder
    waits till the first has finished."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    path = out.with_name(f".{out.name}.lock")
    try:  # filelock takes a lock file it cannot create for one held: waiting for ever (/proc)
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o644))
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(out)) from None
    lock = FileLock(path)
    try:
        lock.acquire(blocking=False)
    except Timeout:
        log.warning("another build is writing %s: waiting for it to finish", out)
        lock.acquire()
    try:
        yield
    finally:
        lock.release()


def inside_site(path: str) -> bool:
    """Tell whether a site path ('en/r/100.1/index.html') names a file inside the site: relative,
    with no empty, '.' or '..' part, no drive, no backslash and no control character."""
    parts = path.split("/")
    return (
        all(part not in ("", ".", "..") for part in parts)
        and parts[0][1:2] != ":"
        and "\\" not in path
        and all(ord(character) >= 32 and character != "\x7f" for character in path)
    )


def wait_for_pruning() -> None:
    """Wait till the old folders this process let go of are deleted."""
    while _PRUNERS:
        os.waitpid(_PRUNERS.pop(), 0)


class Output:
    """Files of the site under construction."""

    def __init__(self, out: Path) -> None:
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        # Absolute and through no symbolic link but the site link itself, as the live folder
        # (the link resolved) is: else a relative `out` never equals its slot, and the staging
        # slot would be the live folder.
        self.out = out.parent.resolve() / out.name
        self.live = self._live_folder()
        slots = [self.out.with_name(f".{self.out.name}.{letter}") for letter in "ab"]
        self.staging = slots[1] if self.live == slots[0] else slots[0]
        _set_aside(self.staging, self.out)  # what a stopped or failed build left there
        self.staging.mkdir()
        # path -> [content sha256, fingerprint, memo (or "")]
        self.previous: dict[str, list[str]] = {}
        if self.live is not None:
            # A file missing from the live site (deleted by hand, or by a build that failed
            # half-way) is not kept, so it is made again.
            live = str(self.live)
            self.previous = {
                path: entry
                for path, entry in _read_manifest(self.live / MANIFEST).items()
                if inside_site(path) and os.path.isfile(os.path.join(live, path))
            }
        self.produced: dict[str, list[str]] = {}
        self.written = 0
        self.changed: set[str] = set()
        self._folders: set[str] = set()  # of the staging folder, made by this process

    def _live_folder(self) -> Path | None:
        """Return the folder the site link points at; move an old-style folder aside first."""
        if self.out.is_symlink():
            return self.out.resolve()
        if not self.out.exists():
            return None
        moved = self.out.with_name(f".{self.out.name}.a")
        _remove_tree(moved)
        self.out.rename(moved)
        self._point_at(moved)
        return moved

    def fresh(self, path: str, fingerprint: str, memo: str = "") -> bool:
        """Keep a file built from the same inputs last time; True when it was kept."""
        entry = self.previous.get(path)
        if entry is None or entry[1] != fingerprint:
            return False
        self.produced[path] = [entry[0], fingerprint, memo]
        return True

    def kept(self, path: str, memo: str, finer: Callable[[], str] | None = None) -> bool:
        """Keep a file whose memo (a sum of its inputs, see `render.Memoised`) is last time's,
        or else whose finer memo is (worked out only then)."""
        entry = self.previous.get(path)
        if entry is None or len(entry) < 3 or not memo:
            return False
        last = entry[2].split(" ")
        if last[0] == memo:
            self.produced[path] = entry
            return True
        if finer is None or len(last) < 2 or last[1] != finer():
            return False
        self.produced[path] = [entry[0], entry[1], f"{memo} {last[1]}"]
        return True

    def write(self, path: str, content: str | bytes, fingerprint: str = "", memo: str = "") -> None:
        """Put a file in the site (written only if its bytes changed)."""
        if not inside_site(path):
            # A path is made of rule numbers and dates read from the archive: nothing read
            # there may steer a write outside the site.
            raise ValueError(f"{self.out}: refusing to write {path!r}: not a path inside the site")
        data = content.encode() if isinstance(content, str) else content
        digest = hashlib.sha256(data).hexdigest()
        self.produced[path] = [digest, fingerprint, memo]
        entry = self.previous.get(path)
        if entry is not None and entry[0] == digest:
            return
        self.changed.add(path)
        self._put(path, data)
        self.written += 1

    def _put(self, path: str, data: bytes) -> None:
        target = os.path.join(self.staging, path)  # not live: written in place, moved in whole
        self._make_folder(os.path.dirname(target))
        with open(target, "wb") as handle:
            handle.write(data)

    def _make_folder(self, folder: str) -> None:
        """Make a folder of the staging site and its parents, once: the folder of a page is
        asked for by every file it holds, and a mkdir that finds it costs a path lookup."""
        if folder not in self._folders:
            os.makedirs(folder, exist_ok=True)
            self._folders.add(folder)

    def current(self, path: str) -> Path:
        """Return where a file of the site being built is now (made by this build or kept)."""
        if path in self.changed or self.live is None:
            return self.staging / path
        return self.live / path

    def stage_for_indexing(self, paths: Iterable[str]) -> None:
        """Link the kept files among `paths` beside the changed ones, for the search indexer
        (which reads one folder); they are not moved in, being the live files already."""
        if self.live is None:
            return
        for path in paths:
            if path not in self.changed and path in self.produced:
                target = os.path.join(self.staging, path)
                self._make_folder(os.path.dirname(target))
                if not os.path.exists(target):
                    os.link(self.live / path, target)

    def finish(self, state: str = "") -> None:
        """Write the manifest (`state` sums up what the site was built from, see `built_from`)."""
        manifest = {"format": _FORMAT, "state": state, "files": self.produced}
        self._put(MANIFEST, json.dumps(manifest, sort_keys=True).encode())

    def commit(self) -> None:
        """Make the site built the live one: point the link at it (a first build), or move the
        changed files and search indexes into the live folder, delete the files it no longer
        has and put the manifest in last; then let go of the folder they were made in."""
        if self.live is None:
            self._point_at(self.staging)
            return
        live = self.live
        for path in sorted(self.changed):
            made, target = self.staging / path, live / path
            try:  # the live site holds the folders of most files already
                os.replace(made, target)
            except FileNotFoundError:
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(made, target)
        indexes = self.staging / "pagefind"
        if indexes.is_dir():
            for made in sorted(indexes.iterdir()):
                _replace_folder(made, live / "pagefind" / made.name)
        for path in self.previous.keys() - self.produced.keys():
            (live / path).unlink(missing_ok=True)
            _remove_empty_folders(live, Path(path).parent)
        os.replace(self.staging / MANIFEST, live / MANIFEST)
        _set_aside(self.staging, self.out)

    def _point_at(self, folder: Path) -> None:
        link = self.out.with_name(f".{self.out.name}.link")
        link.unlink(missing_ok=True)
        link.symlink_to(folder.name, target_is_directory=True)
        os.replace(link, self.out)

    def abandon(self) -> None:
        """Give up after a failure: the live site was never touched; what was made goes."""
        _set_aside(self.staging, self.out)

    def prune(self) -> None:
        """Delete the folders set aside (the one the files were made in, leftovers of stopped
        builds and deletions) in the background: a deletion left unfinished is taken up next."""
        leftovers = sorted(self.out.parent.glob(f"{_PRUNING_PREFIX}{self.out.name}.*"))
        if leftovers:
            quiet = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
            # A new session: not stopped by the Ctrl-C that ends the command.
            arguments = [sys.executable, "-c", _DELETE, *map(str, leftovers)]
            spawned = os.posix_spawn(
                sys.executable, arguments, os.environ, file_actions=quiet, setsid=True
            )
            _PRUNERS.append(spawned)


def built_from(out: Path) -> tuple[str, int] | None:
    """Return the state the live site was built from and its number of files (None: no site)."""
    manifest = _load_manifest(Path(out) / MANIFEST)
    if manifest is None or not manifest.get("state"):
        return None
    return manifest["state"], len(manifest["files"])


def _load_manifest(path: Path) -> _Manifest | None:
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or manifest.get("format") != _FORMAT:
        return None
    return cast(_Manifest, manifest)  # of this format: as `Output.finish` wrote it


def _read_manifest(path: Path) -> dict[str, list[str]]:
    manifest = _load_manifest(path)
    return manifest["files"] if manifest is not None else {}


def _set_aside(folder: Path, out: Path) -> None:
    """Rename a folder out of the way, for `prune` to delete (nothing if there is none)."""
    if folder.exists() and not folder.is_symlink():
        gone = f"{_PRUNING_PREFIX}{out.name}.{os.getpid()}.{time.monotonic_ns()}"
        folder.rename(out.with_name(gone))


def _replace_folder(new: Path, old: Path) -> None:
    """Put a folder in place of another: renamed aside, the new one renamed in, the old deleted."""
    old.parent.mkdir(parents=True, exist_ok=True)
    aside = old.with_name(f".{old.name}.old")
    _remove_tree(aside)
    if old.exists():
        old.rename(aside)
    new.rename(old)
    _remove_tree(aside)


def _remove_empty_folders(top: Path, folder: Path) -> None:
    """Delete `folder` (relative to `top`) and its parents below `top` while they are empty."""
    while folder.parts:
        try:
            (top / folder).rmdir()
        except OSError:  # not empty (or already gone)
            return
        folder = folder.parent


def _remove_tree(top: Path) -> None:
    if top.is_symlink():
        top.unlink()
        return
    for root, _folders, files in os.walk(top, topdown=False):
        for name in files:
            os.unlink(os.path.join(root, name))
        os.rmdir(root)
