"""Ingest into the archive: atomic writes, duplicates, damage, overrides."""

import datetime as dt
import errno
import json
import os

from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.ingest import Overrides, ingest_bytes, ingest_paths

from tests.documents import text_to_docx
from tests.samples import modern_text


def _files(archive: Archive) -> dict[str, bytes]:
    """Return the archive's files; .cache/ is left out (derived, never a source of truth)."""
    return {
        str(path.relative_to(archive.root)): path.read_bytes()
        for path in sorted(archive.root.rglob("*"))
        if path.is_file() and path.relative_to(archive.root).parts[0] != ".cache"
    }


def test_ingest_writes_release_folder(tmp_path):
    archive = Archive(tmp_path)
    outcome = ingest_bytes(archive, modern_text().encode(), "cr.txt")
    assert outcome.status == "added"
    folder = tmp_path / "en" / "2024-11-08"
    assert sorted(p.name for p in folder.iterdir()) == [
        "document.json",
        "original.txt",
        "release.json",
        "rules.txt",
    ]
    meta = json.loads((folder / "release.json").read_text())
    assert meta["set_code"] == "FDN"
    assert meta["source"]["encoding"] == "utf-8"
    assert meta["normalisation"]["quotes"] > 0
    rules_txt = (folder / "rules.txt").read_text()
    assert '400.7 Example: A player casts "Giant Growth" targeting a creature.' in rules_txt
    assert archive.load(outcome.release).rule("400.6").printed_text.count("—") == 2


def test_same_bytes_or_same_text_in_another_encoding_changes_nothing(tmp_path):
    archive = Archive(tmp_path)
    text = modern_text()
    ingest_bytes(archive, text.encode(), "a.txt")
    before = _files(archive)
    assert ingest_bytes(archive, text.encode(), "b.txt").status == "unchanged"
    utf16 = b"\xff\xfe" + text.replace("\n", "\r\n").encode("utf-16-le")
    other = ingest_bytes(archive, utf16, "c.txt")
    assert other.status == "unchanged", other.message
    assert _files(archive) == before


def test_different_text_for_a_stored_release_needs_force(tmp_path):
    archive = Archive(tmp_path)
    ingest_bytes(archive, modern_text().encode(), "a.txt")
    before = _files(archive)
    changed = modern_text(who="its owner").encode()
    refused = ingest_bytes(archive, changed, "b.txt")
    assert refused.status == "failed" and "--force" in refused.message
    assert _files(archive) == before
    assert ingest_bytes(archive, changed, "b.txt", Overrides(force=True)).status == "replaced"


def test_damaged_document_is_refused_unless_forced(tmp_path):
    archive = Archive(tmp_path)
    cut = modern_text(footer=False).encode()
    refused = ingest_bytes(archive, cut, "cut.txt")
    assert refused.status == "failed"
    assert refused.message.startswith("cut.txt: damaged document: ends early: no glossary")
    assert not archive.releases()
    forced = ingest_bytes(archive, cut, "cut.txt", Overrides(force=True))
    assert forced.status == "added"
    assert "damaged" in forced.release.flags
    # a good copy of the same release later replaces the damaged one without --force
    assert ingest_bytes(archive, modern_text().encode(), "good.txt").status == "replaced"


def test_rule_count_far_below_neighbours_is_damage(tmp_path):
    archive = Archive(tmp_path)
    ingest_bytes(archive, modern_text(date="February 7, 2025", filler=900).encode(), "big.txt")
    small = ingest_bytes(
        archive, modern_text(date="April 4, 2025", filler=400).encode(), "small.txt"
    )
    assert small.status == "failed"
    assert "only 403 rules where en/2025-02-07 before it has 903" in small.message


def test_a_later_release_measures_only_within_a_year_and_with_slack(tmp_path):
    # Rules accumulate: 2003-07-01 has 647 where 2003-05-26 has 514, a year later far more.
    archive = Archive(tmp_path)
    ingest_bytes(archive, modern_text(date="April 4, 2025", filler=900).encode(), "big.txt")
    grown = ingest_bytes(archive, modern_text(date="February 7, 2025", filler=700).encode(), "a")
    assert grown.status == "added"
    cut = ingest_bytes(archive, modern_text(date="January 7, 2025", filler=400).encode(), "b")
    assert cut.status == "failed"
    assert "only 403 rules where en/2025-02-07, 31 days later, has 703" in cut.message
    old = ingest_bytes(archive, modern_text(date="January 7, 2023", filler=400).encode(), "c")
    assert old.status == "added"  # two years before: no measure


def test_a_release_of_the_other_numbering_is_no_neighbour(tmp_path):
    # Magic 2010 (2009-07-11) renumbered every rule: 1999's 347 rules are not damage beside it.
    archive = Archive(tmp_path)
    ingest_bytes(archive, modern_text(date="July 11, 2009", filler=900).encode(), "m10.txt")
    before = ingest_bytes(archive, modern_text(date="May 1, 2009", filler=400).encode(), "a.txt")
    assert before.status == "added"
    assert archive.neighbours("en", dt.date(2009, 5, 1)) == []


def test_a_batch_measures_a_file_by_its_other_files_whatever_their_order(tmp_path):
    # The file between the small one and the big one comes last: the small one waits for it.
    texts = [
        modern_text(date="April 4, 2025", filler=900),
        modern_text(date="January 7, 2025", filler=400),
        modern_text(date="February 7, 2025", filler=600),
    ]
    paths = []
    for at, text in enumerate(texts):
        paths.append(tmp_path / f"{at}.txt")
        paths[-1].write_text(text)
    outcomes = ingest_paths(Archive(tmp_path / "archive"), paths)
    assert sorted(o.status for o in outcomes) == ["added"] * 3
    assert outcomes[-1].name == "1.txt"  # stored after the others


def test_of_two_files_with_one_text_the_txt_is_kept_in_any_order(tmp_path):
    docx = text_to_docx(modern_text())
    txt = modern_text().encode()
    first = Archive(tmp_path / "txt-first")
    assert ingest_bytes(first, txt, "r.txt").status == "added"
    assert ingest_bytes(first, docx, "r.docx").status == "unchanged"
    second = Archive(tmp_path / "docx-first")
    assert ingest_bytes(second, docx, "r.docx").status == "added"
    replaced = ingest_bytes(second, txt, "r.txt")
    assert replaced.status == "replaced" and "same text as r.docx" in replaced.message
    assert _files(first) == _files(second)


def test_overrides_take_precedence(tmp_path):
    archive = Archive(tmp_path)
    overrides = Overrides(
        language="it", effective_date=dt.date(2030, 1, 2), set_name="Future Set (FUT2)"
    )
    outcome = ingest_bytes(archive, modern_text().encode(), "x.txt", overrides)
    release = outcome.release
    assert (release.language, release.effective_date) == ("it", dt.date(2030, 1, 2))
    assert (release.set_code, release.set_name) == ("FUT2", "Future Set")


def test_one_bad_file_does_not_stop_the_others(tmp_path):
    archive = Archive(tmp_path / "archive")
    good = tmp_path / "good.txt"
    good.write_text(modern_text())
    html = tmp_path / "page.txt"
    html.write_text("<!DOCTYPE html><html><body>Not found</body></html>")
    outcomes = ingest_paths(archive, [html, tmp_path / "missing.txt", good])
    assert [o.status for o in outcomes] == ["failed", "failed", "added"]
    assert "HTML page" in outcomes[0].message
    assert "cannot read" in outcomes[1].message


def test_failed_write_leaves_the_archive_as_it_was(tmp_path, monkeypatch):
    archive = Archive(tmp_path)
    ingest_bytes(archive, modern_text().encode(), "a.txt")
    before = _files(archive)

    def full_disk(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("rulesarchive.corpus.store._write", full_disk)
    changed = modern_text(who="its owner").encode()
    outcome = ingest_bytes(archive, changed, "b.txt", Overrides(force=True))
    assert outcome.status == "failed"
    assert outcome.message == (
        f"b.txt: {archive.root / 'en' / '2024-11-08'}: cannot be written "
        "(No space left on device); nothing was changed"
    )
    assert _files(archive) == before


def _without_terms(text: str, numbers: range) -> str:
    for n in numbers:
        text = text.replace(f"\nSample Term {n}\nA sample glossary entry, number {n}.\n", "")
    return text


def test_a_glossary_far_smaller_than_the_rules_is_damage_even_alone(tmp_path):
    # The 2002-10-07 PDF through pypdf's default mode: 453 rules and 1 glossary entry.
    text = _without_terms(modern_text(filler=900), range(112))
    outcome = ingest_bytes(Archive(tmp_path), text.encode(), "lost.txt")
    assert outcome.status == "failed"
    assert "a glossary of 2 entries is far too small for 903 rules" in outcome.message


def test_a_glossary_far_below_its_neighbours_is_damage(tmp_path):
    # The 2003-06-01 RTF runs entries together: 158 where its neighbours have 214 and 290.
    archive = Archive(tmp_path)
    ingest_bytes(archive, modern_text(date="February 7, 2025", filler=900).encode(), "big.txt")
    text = _without_terms(modern_text(date="April 4, 2025", filler=900), range(20))
    outcome = ingest_bytes(archive, text.encode(), "merged.txt")
    assert outcome.status == "failed"
    assert "only 94 glossary entries where en/2025-02-07 before it has 114" in outcome.message


def test_a_txt_replaces_the_docx_of_its_release_even_with_another_text(tmp_path):
    # The 2002-10-07 PDF prints em dashes where its TXT has hyphens: the TXT is kept either way.
    docx = text_to_docx(modern_text(who="its owner"))
    txt = modern_text().encode()
    first = Archive(tmp_path / "txt-first")
    assert ingest_bytes(first, txt, "r.txt").status == "added"
    refused = ingest_bytes(first, docx, "r.docx")
    assert refused.status == "failed" and "differs from the stored" in refused.message
    second = Archive(tmp_path / "docx-first")
    assert ingest_bytes(second, docx, "r.docx").status == "added"
    assert ingest_bytes(second, txt, "r.txt").status == "replaced"
    assert _files(first) == _files(second)


def test_a_full_disk_after_storing_is_one_line(tmp_path, monkeypatch):
    """What follows storing (ids, lines of descent) meeting a full disk: one line, exit 1,
    and the release stored stays."""
    from click.testing import CliRunner

    from rulesarchive.cli import main
    from rulesarchive.library import Library

    def full(self, added):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Library, "prepare", full)
    path = tmp_path / "cr.txt"
    path.write_text(modern_text())
    root = tmp_path / "archive"
    result = CliRunner().invoke(main, ["--archive", str(root), "ingest", str(path)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"Error: {root}: cannot be written (No space left on device); "
        "the releases said stored are kept"
    ]
    assert len(Archive(root).releases("en")) == 1
