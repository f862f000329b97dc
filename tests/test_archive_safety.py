"""The archive lists and reads only complete releases, survives hostile input, and is durable."""

import datetime as dt
import io
import json
import os
import shutil
import subprocess
import sys
import threading
import zipfile

import pytest
from click.testing import CliRunner
from rulesarchive.corpus.derived import DerivedData
from rulesarchive.corpus.store import Archive, ArchiveError, document_from_json
from rulesarchive.scraper.ingest import Overrides, ingest_bytes, ingest_paths

from rulesarchive.cli import main
from tests.samples import korean_text, modern_text


def _stored(tmp_path, **kwargs) -> Archive:
    archive = Archive(tmp_path / "archive")
    assert ingest_bytes(archive, modern_text(**kwargs).encode(), "cr.txt").status == "added"
    return archive


def test_staging_leftovers_are_never_listed_and_are_removed_by_the_next_writer(tmp_path):
    archive = _stored(tmp_path)
    folder = archive.root / "en" / "2024-11-08"
    leftover = archive.root / "en" / ".incoming-abc123"
    leftover.mkdir()
    (leftover / "release.json").write_bytes((folder / "release.json").read_bytes())
    assert [release.key for release in archive.releases()] == ["en/2024-11-08"]
    assert archive.leftovers() == [leftover]
    outcomes = ingest_paths(archive, [])
    assert [o.status for o in outcomes] == ["recovered"]
    assert "removed en/.incoming-abc123" in outcomes[0].message
    assert not leftover.exists() and archive.leftovers() == []


def test_a_replace_killed_between_renames_stays_readable_and_is_put_back(tmp_path):
    archive = _stored(tmp_path)
    folder = archive.root / "en" / "2024-11-08"
    retired = folder.with_name(".retired-2024-11-08-4242")
    folder.rename(retired)  # what a kill between the two renames of the fallback leaves
    (release,) = archive.releases()
    assert archive.load(release).rule("400.6") is not None
    assert archive.get("en", dt.date(2024, 11, 8)) == release
    assert archive.recover() == ["restored en/2024-11-08 (a replace was interrupted)"]
    assert folder.is_dir() and not retired.exists()


def test_metadata_must_match_its_folder(tmp_path, caplog):
    archive = _stored(tmp_path)
    path = archive.root / "en" / "2024-11-08" / "release.json"
    data = json.loads(path.read_text())
    data["language"] = "../../../tmp/evil"
    path.write_text(json.dumps(data))
    assert archive.releases() == []  # left out, and said so
    assert "not en/2024-11-08 as its folder does: left out" in caplog.text
    with pytest.raises(ArchiveError, match="not en/2024-11-08 as its folder does"):
        archive.get("en", dt.date(2024, 11, 8))


def test_unknown_folders_and_language_codes_are_not_releases(tmp_path):
    archive = _stored(tmp_path)
    (archive.root / "xx" / "2024-11-08").mkdir(parents=True)
    (archive.root / "en" / "2024-13-45").mkdir()
    (archive.root / "en" / "2024-13-45" / "release.json").write_text("{}")
    assert [release.key for release in archive.releases()] == ["en/2024-11-08"]
    with pytest.raises(ArchiveError, match="unknown language '/abs'"):
        archive.releases("/abs")


@pytest.mark.parametrize("language", ["../../x", "/abs", "EN", ""])
def test_ingest_refuses_a_language_outside_the_closed_set(tmp_path, language):
    archive = Archive(tmp_path / "archive")
    outcome = ingest_bytes(archive, modern_text().encode(), "cr.txt", Overrides(language=language))
    if language:
        assert outcome.status == "failed"
        assert "unknown language" in outcome.message
        assert not (tmp_path / "x").exists() and not archive.releases()


def test_a_text_in_another_script_than_lang_is_refused_unless_forced(tmp_path):
    archive = Archive(tmp_path / "archive")
    chinese = (modern_text() + "\n" + "此规则于生效。" * 20000).encode()
    refused = ingest_bytes(archive, chinese, "zh.txt", Overrides(language="en"))
    assert refused.status == "failed"
    assert "written in Chinese characters (zh-Hans), not en as --lang says" in refused.message
    english = ingest_bytes(archive, modern_text().encode(), "en.txt", Overrides(language="zh-Hans"))
    assert english.status == "failed" and "--force" in english.message
    forced = Overrides(language="zh-Hans", force=True)
    assert ingest_bytes(archive, modern_text().encode(), "en.txt", forced).status == "added"


def test_a_korean_text_must_be_said_to_be_korean(tmp_path):
    archive = Archive(tmp_path / "archive")
    korean = korean_text().encode()
    refused = ingest_bytes(archive, korean, "ko.txt", Overrides(language="en"))
    assert "written in Hangul (ko), not en as --lang says" in refused.message
    chinese = ingest_bytes(archive, korean, "ko.txt", Overrides(language="zh-Hans"))
    assert "written in Hangul (ko), not zh-Hans" in chinese.message
    added = ingest_bytes(archive, korean, "ko.txt", Overrides(language="ko"))
    assert added.status == "added", added.message
    assert added.message.startswith("added ko/2021-11-19 VOW (321 rules, 0 glossary entries)")
    assert ingest_bytes(archive, korean, "ko.txt").status == "unchanged"  # detected as ko


def test_permissions_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        archive = _stored(tmp_path)
    finally:
        os.umask(old)
    folder = archive.root / "en" / "2024-11-08"
    assert folder.stat().st_mode & 0o777 == 0o755
    assert {path.stat().st_mode & 0o777 for path in folder.iterdir()} == {0o644}


def test_document_json_is_one_rule_per_line_with_the_set_name(tmp_path):
    archive = _stored(tmp_path)
    text = (archive.root / "en" / "2024-11-08" / "document.json").read_text()
    lines = text.splitlines()
    assert any(line.startswith('  {"number": "400.6", "text": ') for line in lines)
    assert ' "set_name": "Magic: The Gathering Foundations",' in lines
    (release,) = archive.releases()
    assert archive.load(release).set_name == release.set_name


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", ""])
    child.wait()
    return child.pid


def test_a_build_killed_leaves_no_snapshot_past_the_next_build(tmp_path):
    """A build killed by SIGTERM or SIGKILL cannot remove its snapshot: the next snapshot
    taken removes it (its process is gone), and `build` does not call it unfinished."""
    archive = _stored(tmp_path)
    dead = archive.root / f".snapshot-{_dead_pid()}-abc"
    shutil.copytree(archive.root / "en", dead / "en")
    live = archive.root / f".snapshot-{os.getppid()}-abc"  # a build still running
    live.mkdir()
    assert archive.leftovers() == [dead]
    out = tmp_path / "site"
    result = CliRunner().invoke(main, ["--archive", str(archive.root), "build", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "unfinished" not in result.stderr
    assert sorted(archive.root.glob(".snapshot-*")) == [live]
    assert archive.leftovers() == []


def test_a_snapshot_keeps_what_it_saw_while_the_archive_changes(tmp_path):
    archive = _stored(tmp_path)
    with archive.snapshot() as frozen:
        changed = modern_text(who="its owner").encode()
        assert ingest_bytes(archive, changed, "b.txt", Overrides(force=True)).status == "replaced"
        ingest_bytes(archive, modern_text(date="February 7, 2025").encode(), "c.txt")
        (release,) = frozen.releases()
        assert "its owner looks" not in frozen.load(release).rule("400.6").text
        assert len(archive.releases()) == 2
    assert archive.leftovers() == []
    assert not list(archive.root.glob(".snapshot-*"))


def test_two_ingests_of_one_release_at_once_add_it_once(tmp_path):
    data = modern_text().encode()
    statuses = []
    runs = [
        threading.Thread(
            target=lambda: statuses.append(
                ingest_bytes(Archive(tmp_path / "archive"), data, "cr.txt").status
            )
        )
        for _ in range(4)
    ]
    for run in runs:
        run.start()
    for run in runs:
        run.join()
    assert sorted(statuses) == ["added", "unchanged", "unchanged", "unchanged"]


def _zip(parts: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_each_bad_file_is_one_error_and_the_batch_goes_on(tmp_path):
    files = {
        "broken.docx": _zip(
            {"[Content_Types].xml": b"<Types><unclosed", "word/document.xml": b"<"}
        ),
        "broken.pdf": b"%PDF-1.4\n1 0 obj << /Length 999999 >> stream\nxx\nendstream\n%%EOF",
        "zero.txt": b"\x00" * 10,
        "bomb.docx": _zip({"word/document.xml": b"\x00" * (3 * 2**20)}),
        "good.txt": modern_text().encode(),
    }
    paths = []
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
        paths.append(tmp_path / name)
    outcomes = ingest_paths(Archive(tmp_path / "archive"), paths, Overrides(max_bytes=2**20))
    assert [o.status for o in outcomes] == ["failed"] * 4 + ["added"]
    assert all("\n" not in o.message for o in outcomes)
    assert "not a readable DOCX file" in outcomes[0].message
    assert "not a readable PDF file" in outcomes[1].message
    assert "DOCX parts unpack to 3145728 bytes, over the limit" in outcomes[3].message


def test_a_file_over_the_size_limit_is_refused_without_reading_it_all(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text(modern_text() + "x" * 2**20)
    (outcome,) = ingest_paths(Archive(tmp_path / "archive"), [big], Overrides(max_bytes=2**20))
    assert outcome.status == "failed"
    assert "over the size limit of 1 MB (raise it with --max-size" in outcome.message


def test_a_tampered_rule_number_cannot_name_a_path(tmp_path):
    archive = _stored(tmp_path)
    path = archive.root / "en" / "2024-11-08" / "document.json"
    path.write_text(path.read_text().replace('"number": "400.6"', '"number": "../../../x"'))
    (release,) = archive.releases()
    with pytest.raises(ArchiveError, match=r"'\.\./\.\./\.\./x' is not a rule number"):
        archive.load(release)


def test_a_loaded_document_is_kept_compactly_and_read_back_equal(tmp_path):
    archive = _stored(tmp_path)
    (release,) = archive.releases()
    path = archive.root / "en" / "2024-11-08" / "document.json"
    expected = document_from_json(json.loads(path.read_text(encoding="utf-8")))
    assert archive.load(release) == expected
    assert [(row.kind, row.entries) for row in archive.derived.summary()] == [("document", 1)]
    assert archive.load(release) == expected  # now from the cache


def test_a_document_rewritten_after_caching_is_read_afresh(tmp_path):
    archive = _stored(tmp_path)
    (release,) = archive.releases()
    archive.load(release)
    path = archive.root / "en" / "2024-11-08" / "document.json"
    path.write_text(path.read_text().replace('"number": "400.6"', '"number": "../../../x"'))
    with pytest.raises(ArchiveError, match=r"'\.\./\.\./\.\./x' is not a rule number"):
        archive.load(release)


def test_a_document_is_read_where_its_cache_cannot_be_written(tmp_path):
    archive = _stored(tmp_path)
    (archive.root / ".cache").write_text("not a folder")
    (release,) = archive.releases()
    assert archive.load(release).rule("400.6") is not None


def test_the_cached_release_list_follows_replaces_and_removals(tmp_path):
    archive = _stored(tmp_path)
    (first,) = archive.releases()
    assert archive.releases() == [first]  # now from the cache
    changed = modern_text(who="its owner").encode()
    assert ingest_bytes(archive, changed, "b.txt", Overrides(force=True)).status == "replaced"
    (replaced,) = archive.releases()
    assert replaced.content_sha256 != first.content_sha256
    shutil.rmtree(archive.root / "en" / "2024-11-08")
    assert archive.releases() == []


def test_reading_an_archive_writes_nothing_into_its_folder(tmp_path, derived_data):
    stored = _stored(tmp_path)
    before = sorted(path.relative_to(stored.root) for path in stored.root.rglob("*"))
    archive = Archive(tmp_path / "archive")
    (release,) = archive.releases()
    assert archive.load(release).rule("400.6") is not None
    after = sorted(path.relative_to(stored.root) for path in stored.root.rglob("*"))
    assert after == before and not (archive.root / ".cache").exists()
    assert "document" in {row.kind for row in DerivedData(derived_data).summary()}  # outside it
    nothing = Archive(tmp_path / "archive", cache=False)  # keeps nothing anywhere
    assert nothing.load(release) == archive.load(release) and nothing.derived.folder is None


def test_an_archive_that_cannot_be_written_is_read_as_it_is(tmp_path, monkeypatch):
    archive = _stored(tmp_path)

    def read_only(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("rulesarchive.corpus.store.os.open", read_only)
    with archive.snapshot() as view:
        assert view is archive and len(view.releases()) == 1


def test_an_ingest_into_an_archive_it_cannot_write_fails_in_one_line(tmp_path, monkeypatch):
    archive = _stored(tmp_path)
    real_open = os.open

    def no_lock_file(path, *args, **kwargs):
        if str(path).endswith(".lock"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr("rulesarchive.corpus.store.os.open", no_lock_file)
    changed = modern_text(who="its owner").encode()
    outcome = ingest_bytes(archive, changed, "b.txt", Overrides(force=True))
    assert outcome.status == "failed"
    expected = f"b.txt: {archive.root}: the archive cannot be written to (Permission denied)"
    assert outcome.message == expected
    assert len(archive.releases()) == 1


def test_a_replace_without_an_atomic_exchange_sets_the_old_copy_aside(tmp_path, monkeypatch):
    archive = _stored(tmp_path)
    monkeypatch.setattr("rulesarchive.corpus.store.exchange_paths", lambda first, second: False)
    changed = modern_text(who="its owner").encode()
    assert ingest_bytes(archive, changed, "b.txt", Overrides(force=True)).status == "replaced"
    (release,) = archive.releases()
    assert "its owner looks" in archive.load(release).rule("400.6").text
    assert archive.leftovers() == []
