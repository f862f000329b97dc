"""The reference check on the real archive: the known 2009 cases, and the whole archive's counts."""

from pathlib import Path

import pytest
from rulesarchive.corpus.lookup import find_release
from rulesarchive.differ.classify import diff_documents
from rulesarchive.differ.references import ProblemKind, mark_fixes
from rulesarchive.differ.report import check_all_data, check_all_text

from rulesarchive.library import Library

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def english(ingested):
    archive, _ = ingested
    return archive, Library(archive.root, archive.derived).check("en")


def _problem(check, release, rule):
    [found] = [p for p in check.at(release) if p.rule == rule]
    return found


def test_the_2009_10_01_cases_are_reported_and_fixed_in_2010_02_01(english):
    archive, check = english
    zendikar = find_release(archive, "2009-10-01")
    worldwake = find_release(archive, "2010-02-01")
    # No release ever had a 405.3c: the rule meant is 405.6c.
    dangling = _problem(check, zendikar, "605.3b")
    assert (dangling.cites, dangling.kind) == ("405.3c", "dangling")
    assert (dangling.suggestion, dangling.guess) == ("405.6c", True)
    assert dangling.since == find_release(archive, "2009-07-11")  # since Magic 2010
    # 112.5a-j moved to 112.6a-j in this very release; 112.3a was left behind.
    stale = _problem(check, zendikar, "112.3a")
    assert (stale.cites, stale.kind, stale.suggestion) == ("112.5a-j", "stale", "112.6a–j")
    assert stale.since == zendikar
    lives = {(p.rule, p.cites): p for p in check.problems}
    assert lives[("605.3b", "405.3c")].fixed == worldwake
    assert lives[("112.3a", "112.5a-j")].fixed == worldwake
    assert not [p for p in check.at(worldwake) if p.rule in {"605.3b", "112.3a"}]


def test_the_changelog_of_2010_02_01_says_which_citations_it_fixed(english):
    archive, check = english
    before, after = find_release(archive, "2009-10-01"), find_release(archive, "2010-02-01")
    fixes = check.fixes[check.releases.index(after)]
    assert fixes["605.3b"] == ("405.3c",) and fixes["112.3a"] == ("112.5a-j",)
    diff = mark_fixes(diff_documents(archive.load(before), archive.load(after)), fixes)
    [change] = [c for c in diff.changes if c.new_number == "605.3b"]
    assert change.kind == "reference"


def test_the_whole_archive_counts_are_the_ones_in_the_readme(english):
    archive, check = english
    summaries = [check_all_text(check_all_data(check)).splitlines()[0]]
    library = Library(archive.root, archive.derived)
    chinese, korean = library.check("zh-Hans"), library.check("ko")
    for translated in (chinese, korean):
        summaries.append(check_all_text(check_all_data(translated)).splitlines()[0])
    for summary in summaries:
        assert summary in README, summary
    # Every problem names a kind, a release it appeared in, and a fix no earlier than that.
    for problem in (*check.problems, *chinese.problems, *korean.problems):
        assert problem.kind in ProblemKind.__members__.values()
        assert problem.fixed is None or problem.fixed.effective_date > problem.since.effective_date
