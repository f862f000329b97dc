"""The same files give the same archive in any order and any batches (the shared archive)."""

import hashlib
import random
from pathlib import Path

import pytest
from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.ingest import ingest_paths


def _release_files(root: Path) -> dict[str, str]:
    """Return the sha256 of every file of every release folder (`<lang>/<date>/<file>`: not the
    hidden folders, nor a language's id registry, which the commands reading the archive write)."""
    return {
        str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
        and len(path.relative_to(root).parts) == 3
        and not any(part.startswith(".") for part in path.relative_to(root).parts)
    }


def _paths(shared: Path) -> list[Path]:
    return [
        *sorted((shared / "en").glob("*.txt")),
        *sorted((shared / "orig" / "en").iterdir()),
        *sorted((shared / "zh-Hans").glob("*.txt")),
        *sorted((shared / "ko").glob("*.txt")),
    ]


def test_batches_newest_first_and_one_at_a_time_shuffled_give_the_batch_of_all(
    ingested, shared_archive, tmp_path
):
    at_once, _ = ingested  # every file in one batch, oldest first
    expected = _release_files(at_once.root)
    assert len(expected) == 4 * (129 + 19 + 15)
    newest_first = sorted(_paths(shared_archive), key=lambda path: path.stem, reverse=True)
    batches = Archive(tmp_path / "batches")
    quarter = -(-len(newest_first) // 4)
    for start in range(0, len(newest_first), quarter):
        ingest_paths(batches, newest_first[start : start + quarter])
    assert _release_files(batches.root) == expected
    shuffled = _paths(shared_archive)
    random.Random(29).shuffle(shuffled)
    alone = Archive(tmp_path / "alone")
    said = [outcome.message for path in shuffled for outcome in ingest_paths(alone, [path])]
    assert _release_files(alone.root) == expected
    # 2008-05-01's placeholders were read again when a nearer neighbour came, and it said so.
    assert any(line.startswith("repaired en/2008-05-01 SHM again") for line in said)


def test_an_ingest_stopped_before_its_neighbour_repair_is_mended_by_running_it_again(
    shared_archive, tmp_path, monkeypatch
):
    """2009-07-11 prints `?` for ™, repaired from 2009-09-04 once that is stored; a run killed
    between storing 2009-09-04 and that repair is finished by the same ingest run again."""
    from rulesarchive.scraper import ingest

    files = [shared_archive / "en" / name for name in ("2009-07-08.txt", "2009-09-04.txt")]
    whole = Archive(tmp_path / "whole")
    ingest_paths(whole, files)
    stopped = Archive(tmp_path / "stopped")
    repair_again = ingest._repair_again

    def interrupted(archive, release, stored):
        if release.effective_date.isoformat() == "2009-09-04":
            raise KeyboardInterrupt  # Ctrl-C (or kill -9) right after storing it
        return repair_again(archive, release, stored)

    with monkeypatch.context() as killed, pytest.raises(KeyboardInterrupt):
        killed.setattr(ingest, "_repair_again", interrupted)
        ingest_paths(stopped, files)
    assert _release_files(stopped.root) != _release_files(whole.root)  # the repair was missed
    ingest_paths(stopped, files)
    assert _release_files(stopped.root) == _release_files(whole.root)
    assert not list((stopped.root / "en").glob(".repair-*"))
    with monkeypatch.context() as owed_nothing:  # unchanged files leave their neighbours be
        owed_nothing.setattr(ingest, "_repair_again", lambda *_: pytest.fail("repaired again"))
        ingest_paths(stopped, files)
