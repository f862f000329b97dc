"""What `ingest` prepares for the commands after it: a few new releases' diffs and check."""

import pytest
from click.testing import CliRunner
from rulesarchive.differ.classify import diff_documents
from rulesarchive.differ.references import CheckState

from rulesarchive.cli import main
from rulesarchive.library import Library
from tests.samples import modern_text

DATES = ["November 8, 2024", "February 7, 2025", "April 11, 2025", "June 13, 2025"]


def ingest(tmp_path, *dates: str):
    tmp_path.mkdir(exist_ok=True)
    paths = []
    for date in dates:
        path = tmp_path / f"{date.replace(' ', '-').replace(',', '')}.txt"
        path.write_text(
            modern_text(date=date, who="its owner" if "2025" in date else "all players")
        )
        paths.append(str(path))
    result = CliRunner().invoke(main, ["--archive", str(tmp_path / "a"), "ingest", *paths])
    assert result.exit_code == 0, result.output
    return Library(tmp_path / "a")


def test_a_release_added_at_the_end_has_its_diff_and_check_ready(tmp_path, monkeypatch):
    archive = ingest(tmp_path, *DATES[:2])
    whole = archive.check("en")  # a kept check, as after a site build or `check`
    assert whole.releases == tuple(archive.releases("en"))
    archive = ingest(tmp_path, DATES[2])
    releases = archive.releases("en")
    expected = diff_documents(archive.load(releases[1]), archive.load(releases[2]))
    monkeypatch.setattr(CheckState, "extend", lambda *args: pytest.fail("checked again"))
    monkeypatch.setattr(
        "rulesarchive.differ.classify.diff_documents", lambda *a: pytest.fail("diffed again")
    )
    assert archive.diff(releases[1], releases[2]) == expected
    assert archive.check("en").releases == tuple(releases)


def test_a_bulk_ingest_or_a_release_before_the_end_leaves_the_diffs_to_the_first_reader(
    tmp_path, monkeypatch
):
    diffed = []
    real = Library.diff
    monkeypatch.setattr(
        Library, "diff", lambda self, old, new: diffed.append(new) or real(self, old, new)
    )
    ingest(tmp_path, *DATES)  # four at once: more than a few
    assert diffed == []
    ingest(tmp_path / "other", *DATES[1:])
    diffed.clear()
    ingest(tmp_path / "other", DATES[0])  # before the last three
    assert diffed == []
    archive = ingest(tmp_path / "third", DATES[0], DATES[2])
    assert [r.effective_date.isoformat() for r in diffed] == ["2025-04-11"]
    diffed.clear()
    ingest(tmp_path / "third", DATES[1])  # between the two: its diffs with both
    assert [r.effective_date.isoformat() for r in diffed] == ["2025-02-07", "2025-04-11"]
    assert len(archive.releases("en")) == 3
