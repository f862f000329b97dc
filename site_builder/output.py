"""The site folder being built: two copies side by side, the live one never touched.

`site` is a symbolic link to one of two folders, `.site.a` and `.site.b`. A build starts the
folder that is not live as a hard-link copy of the live one (made in another process while
the archive is read), writes only the files whose inputs changed (each file's inputs are
summed up in a fingerprint kept in `.manifest.json`), points the link at it in one atomic
rename and then deletes the folder that was live: one copy of the site at rest, so the
folder fits the free static hosts (file count and size). The deletion (18,000 folders for the
real archive, seconds of a rebuild) is done by a detached process once the old folder is
renamed out of the way, so the command returns as soon as the new site is live, as `git gc
--auto` does. A build that fails leaves the live site as it was; a build stopped between the
rename and the deletion leaves the old folder, which the next build catches up with the live
one (the two manifests say which files differ) instead of copying the site again."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from multiprocessing import get_context
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Event
from pathlib import Path

from rulesarchive.corpus.children import watch_parent

MANIFEST = ".manifest.json"
_FORMAT = 2  # of the manifest; another format means nothing in it is trusted
_PRUNING_PREFIX = ".pruning."  # + the site folder's name and a process id: being deleted
_DELETE = "import shutil, sys\nfor top in sys.argv[1:]: shutil.rmtree(top, ignore_errors=True)"
_PRUNERS: list[int] = []  # the deleting processes this process started


def wait_for_pruning() -> None:
    """Wait till the old folders this process let go of are deleted."""
    while _PRUNERS:
        os.waitpid(_PRUNERS.pop(), 0)


class Output:
    """Files of the site under construction."""

    def __init__(self, out: Path) -> None:
        self.out = Path(out)
        self.out.parent.mkdir(parents=True, exist_ok=True)
        live = self._live_folder()
        slots = [self.out.with_name(f".{self.out.name}.{letter}") for letter in "ab"]
        self.staging = slots[1] if live == slots[0] else slots[0]
        own = _read_manifest(self.staging / MANIFEST)
        (self.staging / MANIFEST).unlink(missing_ok=True)  # unknown until this build ends
        # path -> [content sha256, fingerprint, memo (or "")]
        self.produced: dict[str, list[str]] = {}
        self.written = 0
        self.changed: set[str] = set()
        self._pending: list[tuple[str, bytes]] = []
        self._copying: BaseProcess | None = None  # the hard-link copy of the live site
        self._copied: Event | None = None  # set by that copy once it is whole
        if live is None:
            self.previous = own
            self.staging.mkdir(parents=True, exist_ok=True)
        elif own:  # the folder live before the last build: link over what it changed
            self.previous = _read_manifest(live / MANIFEST)
            _catch_up(live, self.staging, own, self.previous)
        else:  # first rebuild: start from a hard-link copy of the live site, made meanwhile
            self.previous = _read_manifest(live / MANIFEST)
            # In another process: a thread would fight the rendering for the interpreter lock.
            # Spawned (not forked from a process that may run threads), and a plain process,
            # not a pool: a pool's thread would make forking this process unsafe while the
            # copy runs (see workers.make_files).
            context = get_context("spawn")
            self._copied = context.Event()
            self._copying = context.Process(
                target=_copy_tree, args=(live, self.staging, self._copied, os.getpid())
            )
            self._copying.start()

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

    def kept(self, path: str, memo: str) -> bool:
        """Keep a file whose memo (a sum of its inputs, see `render.Memoised`) is last time's."""
        entry = self.previous.get(path)
        if entry is None or len(entry) < 3 or not memo or entry[2] != memo:
            return False
        self.produced[path] = entry
        return True

    def write(self, path: str, content: str | bytes, fingerprint: str = "", memo: str = "") -> None:
        """Put a file in the site (written only if its bytes changed)."""
        data = content.encode() if isinstance(content, str) else content
        digest = hashlib.sha256(data).hexdigest()
        self.produced[path] = [digest, fingerprint, memo]
        entry = self.previous.get(path)
        if entry is not None and entry[0] == digest:
            return
        self.changed.add(path)
        if self.copying():
            self._pending.append((path, data))
            return
        self.flush()
        self._put(path, data)
        self.written += 1

    def copying(self) -> bool:
        """Tell whether the copy of the live site is still being made (writes wait for it)."""
        return self._copied is not None and not self._copied.is_set()

    def _put(self, path: str, data: bytes) -> None:
        target = self.staging / path
        target.parent.mkdir(parents=True, exist_ok=True)
        temporary = target.with_name(f".{target.name}.incoming")
        temporary.write_bytes(data)
        # Always a new inode, never writing into the old file: after the first copy, files
        # (the manifest too) are hard links shared with the live site.
        temporary.replace(target)

    def flush(self) -> None:
        """Wait for the staged copy, then write what waited for it."""
        if self._copying is not None:
            copying, self._copying = self._copying, None
            copying.join()
            if not self._copied.is_set():  # type: ignore[union-attr]
                raise OSError(f"{self.staging}: the copy of the live site failed")
        elif self._copied is not None and not self._copied.is_set():
            return  # in a process forked while the copy runs: its writes wait (`pending`)
        for path, data in self._pending:
            self._put(path, data)
            self.written += 1
        self._pending.clear()

    def finish(self, state: str = "") -> None:
        """Write what waits, delete what the site no longer has, and write the manifest.

        `state` sums up what the site was built from (see `built_from`).
        """
        self.flush()
        for path in self.previous.keys() - self.produced.keys():
            (self.staging / path).unlink(missing_ok=True)
        manifest = {"format": _FORMAT, "state": state, "files": self.produced}
        self._put(MANIFEST, json.dumps(manifest, sort_keys=True).encode())

    def swap(self) -> None:
        """Point the site link at the folder just built (one atomic rename)."""
        self._point_at(self.staging)

    def prune(self) -> None:
        """Delete the folder that was live before the swap (after `swap`), in the background.

        It is renamed out of the way at once (the slot is free for the next build) and deleted
        by a detached process; a deletion left unfinished is taken up by the next prune.
        """
        for letter in "ab":
            slot = self.out.with_name(f".{self.out.name}.{letter}")
            if slot != self.staging and slot.exists() and not slot.is_symlink():
                gone = f"{_PRUNING_PREFIX}{self.out.name}.{os.getpid()}.{time.monotonic_ns()}"
                slot.rename(slot.with_name(gone))
        leftovers = sorted(self.out.parent.glob(f"{_PRUNING_PREFIX}{self.out.name}.*"))
        if leftovers:
            quiet = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_RDWR, 0) for fd in (0, 1, 2)]
            # A new session: not stopped by the Ctrl-C that ends the command.
            arguments = [sys.executable, "-c", _DELETE, *map(str, leftovers)]
            spawned = os.posix_spawn(
                sys.executable, arguments, os.environ, file_actions=quiet, setsid=True
            )
            _PRUNERS.append(spawned)

    def _point_at(self, folder: Path) -> None:
        link = self.out.with_name(f".{self.out.name}.link")
        link.unlink(missing_ok=True)
        link.symlink_to(folder.name, target_is_directory=True)
        os.replace(link, self.out)

    def abandon(self) -> None:
        """Give up after a failure; the live site was never touched."""
        if self._copying is not None:
            self._copying.kill()
            self._copying.join()

    def forked(self) -> None:
        """Forget the writes of the process this one was forked from (they are its own)."""
        self._copying = None
        self._pending = []

    def take_pending(self) -> list[tuple[str, bytes]]:
        """Return the writes still waiting for the copy, for the process that forked this one."""
        pending, self._pending = self._pending, []
        return pending

    def add_pending(self, pending: list[tuple[str, bytes]]) -> None:
        """Take writes made in a forked process that waited for the copy: written with ours."""
        self._pending.extend(pending)
        if not self.copying():
            self.flush()

    def remove_stale(self, prefix: str) -> None:
        """Delete the files under `prefix` that this build no longer makes."""
        self.flush()
        for path in self.previous.keys() - self.produced.keys():
            if path.startswith(prefix):
                (self.staging / path).unlink(missing_ok=True)


def built_from(out: Path) -> tuple[str, int] | None:
    """Return the state the live site was built from and its number of files (None: no site)."""
    manifest = _load_manifest(Path(out) / MANIFEST)
    if manifest is None or not manifest.get("state"):
        return None
    return manifest["state"], len(manifest["files"])


def _load_manifest(path: Path) -> dict | None:
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or manifest.get("format") != _FORMAT:
        return None
    return manifest


def _read_manifest(path: Path) -> dict[str, list[str]]:
    manifest = _load_manifest(path)
    return manifest["files"] if manifest is not None else {}


def _catch_up(live: Path, staging: Path, own: dict, files: dict) -> None:
    """Make `staging` (which holds the files of `own`) hold the live files (`files`)."""
    for path, entry in files.items():
        if own.get(path) != entry:
            target = staging / path  # not live: no need to replace it atomically
            target.parent.mkdir(parents=True, exist_ok=True)
            target.unlink(missing_ok=True)
            os.link(live / path, target)
    for path in own.keys() - files.keys():
        (staging / path).unlink(missing_ok=True)
    # The search index is not in the manifest (Pagefind writes it): take the live one.
    _remove_tree(staging / "pagefind")
    if (live / "pagefind").is_dir():
        _link_tree(live / "pagefind", staging / "pagefind")


def _copy_tree(live: Path, staging: Path, copied: Event, parent: int) -> None:
    watch_parent(parent)
    try:
        _remove_tree(staging)
        _link_tree(live, staging)
    except OSError:
        raise SystemExit(1) from None  # told by `copied` left unset (flush says so)
    copied.set()


def _link_tree(source: Path, target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    _link_folder(_open_folder(source), _open_folder(target))


def _link_folder(source: int, target: int) -> None:
    """Hard-link a folder's files into another, folder by folder; closes both descriptors.

    By names relative to open folders: a third less of the kernel's time than by paths (each
    path walked again from the root), for a copy of 36,000 names made at every rebuild.
    """
    try:
        with os.scandir(source) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    os.mkdir(entry.name, dir_fd=target)
                    _link_folder(_open_folder(entry.name, source), _open_folder(entry.name, target))
                else:
                    os.link(
                        entry.name,
                        entry.name,
                        src_dir_fd=source,
                        dst_dir_fd=target,
                        follow_symlinks=False,
                    )
    finally:
        os.close(source)
        os.close(target)


def _open_folder(path: str | Path, within: int | None = None) -> int:
    return os.open(path, os.O_RDONLY | os.O_DIRECTORY, dir_fd=within)


def _remove_tree(top: Path) -> None:
    if top.is_symlink():
        top.unlink()
        return
    for root, _folders, files in os.walk(top, topdown=False):
        for name in files:
            os.unlink(os.path.join(root, name))
        os.rmdir(root)
