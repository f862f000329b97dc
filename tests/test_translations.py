"""Translations against their English base: base release, alignment, staleness, CLI."""

from __future__ import annotations

import datetime as dt
import json

from click.testing import CliRunner
from rulesarchive.corpus.catalogue import entry_for
from rulesarchive.corpus.lookup import find_release
from rulesarchive.corpus.model import Document, Release, Rule, Source
from rulesarchive.corpus.store import Archive
from rulesarchive.differ.lineage import rule_history
from rulesarchive.differ.translations import (
    check_structure,
    compare_translation,
    translation_report,
)
from rulesarchive.scraper.ingest import ingest_paths

from rulesarchive.cli import main

D = dt.date


def test_every_chinese_release_is_tied_to_its_english_base_and_aligns(ingested):
    archive, _ = ingested
    english = {release.effective_date for release in archive.releases("en")}
    for release in archive.releases("zh-Hans"):
        report = translation_report(archive, "zh-Hans", release)
        if release.effective_date in english:
            assert report.base.effective_date == release.effective_date
            if release.effective_date >= D(2023, 10, 13):
                counts = report.counts
                assert counts["missing"] == counts["extra"] == 0, (release.key, counts)
                assert counts["mismatched"] < 0.03 * release.rule_count
        else:  # 2024-03-08: the archive has no English twin; the best numbered before it
            assert report.base.effective_date == D(2024, 2, 2), release.key


def test_staleness_around_english_changes(ingested):
    archive, _ = ingested
    newest = find_release(archive, "2026-04-17", "en")
    changed = [
        change.old_number
        for change in _diff(archive, "2026-02-27", "2026-04-17").of_kind("substantive")
        if change.old_number == change.new_number
    ]
    assert changed
    before = {
        r.number: r
        for r in translation_report(archive, "zh-Hans", _zh(archive, "2026-02-27")).rules
    }
    after = {
        r.number: r
        for r in translation_report(archive, "zh-Hans", _zh(archive, "2026-04-17")).rules
    }
    for number in changed:
        assert before[number].status == "stale"
        assert before[number].stale_since == newest
        assert after[number].status == "current"
    untouched = next(n for n, r in before.items() if r.status == "current")
    assert after[untouched].status == "current"


def _zh(archive, date):
    return find_release(archive, date, "zh-Hans")


def _diff(archive, old, new):
    from rulesarchive.differ.classify import diff_documents

    return diff_documents(
        archive.load(find_release(archive, old, "en")),
        archive.load(find_release(archive, new, "en")),
    )


def test_the_base_follows_when_the_missing_english_release_arrives(shared_archive, tmp_path):
    archive = Archive(tmp_path / "archive")

    def file(language, date):
        return shared_archive / language / f"{entry_for(date).file_date}.txt"

    ingest_paths(archive, [file("en", D(2024, 2, 2)), file("zh-Hans", D(2024, 4, 12))])
    assert translation_report(archive, "zh-Hans").base.effective_date == D(2024, 2, 2)
    ingest_paths(archive, [file("en", D(2024, 4, 12))])
    report = translation_report(archive, "zh-Hans")
    assert report.base.effective_date == D(2024, 4, 12)
    assert report.counts["missing"] == report.counts["extra"] == 0


def test_chinese_history_shows_a_few_changed_characters(ingested):
    archive, _ = ingested
    history = rule_history(archive, "104.6", "zh-Hans")
    changed = [v for v in history.versions if v.phrases]
    # the chapter it cites was renumbered again and again: a reference change each time
    assert {v.kind for v in changed} == {"reference"} and len(changed) >= 4
    for version in changed:
        assert sum(len(p.old) + len(p.new) for p in version.phrases) < len(version.text)


def _release(language, date, count):
    return Release(language, date, "", "", count, 0, "x", Source("s", "x", "txt", "utf-8"))


def test_structure_mismatches_are_flagged_not_silently_paired():
    english = Rule("702.19b", "See rule 702.19c. Deal 3 damage.", ("Example: a.", "Example: b."))
    translated = Rule("702.19b", "参见规则702.19d。造成3点伤害。", ("例如：甲。",))
    assert check_structure(translated, english) == (
        "1 examples, English has 2",
        "cites 702.19d, English cites 702.19c",
    )


def test_an_excerpt_misses_only_rules_of_its_own_chapters():
    base = Document(
        "en", D(2024, 11, 8), rules=(Rule("616.1", "a"), Rule("616.2", "b"), Rule("100.1", "c"))
    )
    excerpt = Document(
        "it", D(2024, 11, 23), rules=(Rule("616.1", "a"), Rule("616.9", "z")), excerpt=True
    )
    report = compare_translation(
        _release("it", D(2024, 11, 23), 2), excerpt, _release("en", D(2024, 11, 8), 3), base, []
    )
    assert {(r.number, r.status) for r in report.rules} == {
        ("616.1", "current"),
        ("616.9", "extra"),
        ("616.2", "missing"),
    }


def test_cli_translations_json_and_stale_filter(ingested):
    archive, _ = ingested
    runner = CliRunner()
    folder = str(archive.root)
    command = ["--archive", folder, "translations", "zh-Hans", "--release", "2026-02-27"]
    result = runner.invoke(main, [*command, "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"language", "release", "base_release", "counts", "rules"} <= set(data)
    assert set(data["counts"]) >= {"current", "stale", "missing", "extra"}
    assert {"number", "status", "stale_since"} <= set(data["rules"][0])
    stale = json.loads(runner.invoke(main, [*command, "--stale", "--format", "json"]).output)
    assert {rule["status"] for rule in stale["rules"]} == {"stale"}
    assert len(stale["rules"]) == data["counts"]["stale"]
    assert all(rule["stale_since"] == "2026-04-17" for rule in stale["rules"])
    text = runner.invoke(main, ["--archive", folder, "translations", "--stale"]).output
    assert text.startswith("zh-Hans ")
    rule = runner.invoke(main, ["--archive", folder, "rule", "100.1", "--lang", "zh-Hans"])
    assert rule.exit_code == 0 and "万智牌" in rule.output
    history = runner.invoke(
        main, ["--archive", folder, "history", "104.6", "--lang", "zh-Hans", "--format", "json"]
    )
    assert json.loads(history.output)["versions"][0]["effective_date"] == "2022-06-10"


def test_an_italian_wiki_page_is_compared_with_the_english_before_it(shared_archive, tmp_path):
    from pathlib import Path

    archive = Archive(tmp_path / "archive")
    fixture = Path(__file__).parent / "fixtures" / "it_wiki_616.html"
    english = [
        shared_archive / "en" / f"{entry_for(date).file_date}.txt"
        for date in (D(2024, 9, 20), D(2024, 11, 8))
    ]
    outcomes = ingest_paths(archive, [*english, fixture])
    assert [o.status for o in outcomes] == ["added"] * 3, [o.message for o in outcomes]
    report = translation_report(archive, "it")
    assert report.base.effective_date == D(2024, 11, 8)
    by_number = {rule.number: rule.status for rule in report.rules}
    assert by_number["616.1"] == by_number["616.1f"] == "current"
    assert by_number["616.1b"] == "missing"  # quoted chapter, rule left out of the page
    assert "100.1" not in by_number  # not a chapter the page quotes


def test_english_card_names_kept_in_a_translation_must_be_in_the_english():
    english = Rule("616.1f", "Repeat.", ("Example: Essence of the Wild says something.",))
    right = Rule(
        "616.1f", "Ripeti.", ("Esempio: Essenza del Selvaggio (Essence of the Wild) dice.",)
    )
    wrong = Rule("616.1f", "Ripeti.", ("Esempio: Voce Omnia (Voice of All) dice.",))
    assert check_structure(right, english) == ()
    assert check_structure(wrong, english) == ("names Voice of All are not in the English",)
