"""Translations against their English base: base release, alignment, staleness, CLI."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re

import jsonschema
import pytest
from click.testing import CliRunner
from rulesarchive.corpus.catalogue import entry_for
from rulesarchive.corpus.derived import DerivedData
from rulesarchive.corpus.lookup import find_release
from rulesarchive.corpus.model import Document, Provenance, Release, Rule
from rulesarchive.corpus.store import Archive, render_rules_text
from rulesarchive.differ.changes import Change
from rulesarchive.differ.classify import ReleaseDiff
from rulesarchive.differ.kinds import Kind
from rulesarchive.differ.translation_align import Shift, align_translation
from rulesarchive.differ.translations import (
    base_release,
    check_structure,
    compare_translation,
)
from rulesarchive.exports.jsonfiles import schema_path
from rulesarchive.scraper.ingest import ingest_paths
from rulesarchive.site_builder.translations import pair_translations

from rulesarchive.cli import main
from rulesarchive.library import Library

D = dt.date


def _library(archive: Archive) -> Library:
    return Library(archive.root, archive.derived)


def _report(archive: Archive, language: str, release: Release | None = None):
    return _library(archive).translation(language, release)


def _gather(archive: Archive, language: str):
    return _library(archive).gather(language)


def _history(archive: Archive, number: str, language: str):
    return _library(archive).history(number, language)


def test_every_chinese_release_is_tied_to_its_english_base_and_aligns(ingested):
    archive, _ = ingested
    english = {release.effective_date for release in archive.releases("en")}
    for release in archive.releases("zh-Hans"):
        report = _report(archive, "zh-Hans", release)
        if release.effective_date in english:
            assert report.base.effective_date == release.effective_date
            if release.effective_date >= D(2023, 10, 13):
                counts = report.counts
                assert counts["missing"] == counts["extra"] == 0, (release.key, counts)
                assert counts["mismatched"] < 0.03 * release.rule_count
        else:  # 2024-03-08: the archive has no English twin; the best numbered before it
            assert report.base.effective_date == D(2024, 2, 2), release.key
        assert report.printed_date_release is None  # content and printed date agree


# Korean releases revised for a later English release without a new printed date: ko
# 2017-07-08 holds Commander 2017's rules (its last revision was made for it), ko 2017-01-20
# Amonkhet's and part of Hour of Devastation's.
KOREAN_BASES = {"2017-01-20": "2017-07-08", "2017-07-08": "2017-08-25"}


def test_every_korean_release_is_paired_with_the_english_its_content_translates(ingested):
    archive, _ = ingested
    releases = archive.releases("ko")
    assert len(releases) == 15
    for release in releases:
        report = _report(archive, "ko", release)
        printed = release.effective_date.isoformat()
        assert report.base.effective_date.isoformat() == KOREAN_BASES.get(printed, printed)
        if printed in KOREAN_BASES:
            assert report.printed_date_release.effective_date == release.effective_date
        else:  # 2021-02-15 ties en 2021-02-05 by numbers: the printed date wins
            assert report.printed_date_release is None, release.key
        counts = report.counts
        if release.effective_date >= D(2020, 7, 3):  # numbered as the English
            assert counts["missing"] == counts["extra"] == 0, (release.key, counts)
        else:  # the 17 subgame rules left out ('(생략)'); 504.3 kept until 2019-05-03
            assert 17 <= counts["missing"] <= 23 and counts["extra"] <= 1, (release.key, counts)
    newest = _report(archive, "ko")
    assert newest.release.effective_date == D(2021, 11, 19)
    assert newest.counts["current"] > 0.8 * newest.release.rule_count


def test_the_commands_read_korean_as_they_read_chinese(ingested, tmp_path):
    archive, _ = ingested

    def run(*args: str) -> str:
        result = CliRunner().invoke(main, ["--archive", str(archive.root), *args])
        assert result.exit_code == 0, result.output
        return result.output

    assert "Magic 규칙은" in run("rule", "100.1", "--lang", "ko")
    history = json.loads(run("history", "702.19b", "--lang", "ko", "--format", "json"))
    assert history["versions"][0]["effective_date"] == "2016-11-11"
    changelog = json.loads(run("changelog", "--lang", "ko", "--format", "json"))
    assert (changelog["old"]["effective_date"], changelog["new"]["effective_date"]) == (
        "2021-02-15",
        "2021-11-19",
    )
    assert "added 309.1" in run("diff", "2021-02-15", "2021-11-19", "--lang", "ko")
    check = json.loads(run("check", "--lang", "ko", "--format", "json"))
    cited = {(ref["rule"], ref["cites"]) for ref in check["references"]}
    assert {("100.1b", "8"), ("701.34g", "708")} <= cited  # '8절 "…"', '규칙 708'
    run("export", "json", str(tmp_path / "json"), "--lang", "ko")
    exported = json.loads((tmp_path / "json" / "ko.json").read_text(encoding="utf-8"))
    schema = json.loads(schema_path("export.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(exported, schema, format_checker=jsonschema.FormatChecker())
    assert len(exported["releases"]) == 15 and exported["releases"][0]["glossary"] == []


def _paired(numbers: list[str]) -> Document:
    return Document("ko", None, rules=tuple(Rule(number, "x") for number in numbers))


def test_the_base_is_the_nearby_english_release_whose_numbers_match_best():
    printed = D(2017, 7, 8)
    translated = _release("ko", printed, 3)
    numbers = {
        D(2017, 4, 28): {"1.1", "1.2"},
        D(2017, 7, 8): {"1.1", "1.2", "1.3"},
        D(2017, 8, 25): {"1.1", "1.2", "1.3", "1.4"},
        D(2017, 9, 29): {"1.1", "1.2", "1.3", "1.4", "1.5"},
    }
    english = [_release("en", day, len(found)) for day, found in numbers.items()]

    def base(found: list[str], among: list[Release] = english) -> D | None:
        numbers_of = lambda release: numbers[release.effective_date]  # noqa: E731
        chosen = base_release(translated, _paired(found), among, numbers_of)
        return chosen.effective_date if chosen else None

    assert base(["1.1", "1.2", "1.3", "1.4"]) == D(2017, 8, 25)  # revised for a later release
    assert base(["1.1", "1.2", "1.3"]) == printed
    numbers[D(2017, 4, 28)] = {"1.1", "1.2", "1.3"}
    assert base(["1.1", "1.2", "1.3"]) == printed  # a tie: the printed date
    without_twin = [r for r in english if r.effective_date != printed]
    # no English release of its date: it translates one the archive lacks, never a later one
    assert base(["1.1", "1.2", "1.3", "1.4"], without_twin) == D(2017, 4, 28)
    assert base(["1.1"], english[1:]) == printed  # nothing before: still its date's
    assert base(["1.1"], english[2:]) is None  # only later ones, none of its date


def test_the_report_says_when_the_printed_date_and_the_content_disagree(ingested):
    archive, _ = ingested
    folder = str(archive.root)
    command = ["--archive", folder, "translations", "ko", "--release", "2017-07-08"]
    text = CliRunner().invoke(main, command)
    assert text.exit_code == 0, text.output
    assert text.output.splitlines()[:2] == [
        "ko Hour of Devastation (HOU) 2017-07-08: translates en Commander 2017 (C17) 2017-08-25",
        "printed 2017-07-08; its content translates en 2017-08-25, "
        "not en Hour of Devastation (HOU) 2017-07-08",
    ]
    data = json.loads(CliRunner().invoke(main, [*command, "--format", "json"]).output)
    assert data["printed_date_release"]["effective_date"] == "2017-07-08"
    assert data["base_release"]["effective_date"] == "2017-08-25"
    newest = json.loads(CliRunner().invoke(main, [*command[:4], "--format", "json"]).output)
    assert newest["printed_date_release"] is None
    schema = json.loads(schema_path("translation.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    for report in (data, newest):
        jsonschema.validate(report, schema, format_checker=jsonschema.FormatChecker())


def test_staleness_around_english_changes(ingested):
    archive, _ = ingested
    newest = find_release(archive, "2026-04-17", "en")
    changed = [
        change.old_number
        for change in _of_kind(_diff(archive, "2026-02-27", "2026-04-17"), "substantive")
        if change.old_number == change.new_number
    ]
    assert changed
    before = {r.number: r for r in _report(archive, "zh-Hans", _zh(archive, "2026-02-27")).rules}
    after = {r.number: r for r in _report(archive, "zh-Hans", _zh(archive, "2026-04-17")).rules}
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


def _of_kind(diff, kind):
    """The diff's changes of one kind."""
    return [change for change in diff.changes if change.kind == kind]


def test_the_base_follows_when_the_missing_english_release_arrives(shared_archive, tmp_path):
    archive = Archive(tmp_path / "archive")

    def file(language, date):
        return shared_archive / language / f"{entry_for(date).file_date}.txt"

    ingest_paths(archive, [file("en", D(2024, 2, 2)), file("zh-Hans", D(2024, 4, 12))])
    assert _report(archive, "zh-Hans").base.effective_date == D(2024, 2, 2)
    ingest_paths(archive, [file("en", D(2024, 4, 12))])
    report = _report(archive, "zh-Hans")
    assert report.base.effective_date == D(2024, 4, 12)
    assert report.counts["missing"] == report.counts["extra"] == 0


def test_the_alignment_is_kept_and_a_later_english_release_still_moves_staleness(
    shared_archive, tmp_path, monkeypatch
):
    from rulesarchive.differ import translation_align, translations

    archive = Archive(tmp_path / "archive")
    english = [shared_archive / "en" / f"{date}.txt" for date in ("2024-06-07", "2024-08-02")]
    ingest_paths(archive, [english[0], shared_archive / "zh-Hans" / "2024-06-07.txt"])
    first = _report(archive, "zh-Hans")
    ingest_paths(archive, [english[1]])
    monkeypatch.setattr(
        translation_align, "align_translation", lambda *a: pytest.fail("aligned again")
    )
    monkeypatch.setattr(translations, "check_structure", lambda *a: pytest.fail("checked again"))
    kept = _report(archive, "zh-Hans")
    monkeypatch.undo()
    assert kept == Library(archive.root, DerivedData(None)).translation("zh-Hans")
    assert kept.counts["stale"] > first.counts["stale"]


def test_chinese_history_shows_a_few_changed_characters(ingested):
    archive, _ = ingested
    history = _history(archive, "104.6", "zh-Hans")
    changed = [v for v in history.versions if v.phrases]
    # the chapter it cites was renumbered again and again: a reference change each time
    assert {v.kind for v in changed} == {"reference"} and len(changed) >= 4
    for version in changed:
        assert sum(len(p.old) + len(p.new) for p in version.phrases) < len(version.text)


def _release(language, date, count):
    return Release(language, date, "", "", count, 0, "x", Provenance("s", "x", "txt", "utf-8"))


def test_structure_mismatches_are_flagged_not_silently_paired():
    english = Rule("702.19b", "See rule 702.19c. Deal 3 damage.", ("Example: a.", "Example: b."))
    translated = Rule("702.19b", "参见规则702.19d。造成3点伤害。", ("例如：甲。",))
    assert check_structure(translated, english) == (
        "1 examples, English has 2",
        "cites 702.19d, English cites 702.19c",
    )


def test_the_same_citations_in_another_order_are_no_mismatch():
    # sorted as strings, 603.10 comes before 603.6; the English side is in rule order
    english = Rule("603.2", "See rules 603.6 and 603.10.")
    translated = Rule("603.2", "参见规则603.10和603.6。")
    assert check_structure(translated, english) == ()
    other = Rule("603.2", "参见规则603.10和603.7。")
    assert check_structure(other, english) == ("cites 603.7, 603.10, English cites 603.6, 603.10",)


def test_no_real_translation_reports_equal_citations_as_a_mismatch(ingested):
    archive, _ = ingested
    for language in _library(archive).translated_languages():
        for release in archive.releases(language):
            for rule in _report(archive, language, release).rules:
                for problem in rule.problems:
                    cited = re.fullmatch(r"cites (.*), English cites (.*)", problem)
                    if cited:
                        mine, theirs = (set(side.split(", ")) for side in cited.groups())
                        assert mine != theirs, (release.key, rule.number, problem)


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
    assert text.startswith("ko ") and "\nzh-Hans Secrets of Strixhaven" in text  # each language
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
    report = _report(archive, "it")
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


# Alignment by content: hand-made translations, then the real zh-Hans releases.

_TOPICS = {  # chapter: (a number its rules state, lettered rules under x.1, examples of x.2)
    "701": (2, 1, 0),
    "702": (3, 4, 1),
    "703": (5, 0, 2),
    "704": (7, 2, 0),
    "705": (11, 3, 1),
}


def _english_chapters(topics=_TOPICS):
    """English rules whose numbers, citations and examples are distinctive per chapter."""
    rules = []
    for chapter, (amount, letters, examples) in topics.items():
        rules.append(Rule(f"{chapter}.1", f"A player draws {amount} cards. See rule {chapter}.2."))
        for letter in "abcdefgh"[:letters]:
            rules.append(Rule(f"{chapter}.1{letter}", f"Then {amount * 10} life; see {chapter}.1."))
        example = tuple(f"Example: {amount + 1} tokens." for _ in range(examples))
        rules.append(Rule(f"{chapter}.2", f"Players lose {amount + 100} points.", example))
    return rules


def _translate(rule: Rule, number: str) -> Rule:
    """Keep only what survives translation: the numbers in the text, under the new number."""
    own, base = number[:3], rule.number[:3]

    def chinese(text: str) -> str:
        kept = re.findall(r"\d{3}(?:\.\d+[a-z]?)?|\d+", text)
        return "译文" + "，".join(own + k[3:] if k[:3] == base and "." in k else k for k in kept)

    return Rule(number, chinese(rule.text), tuple(chinese(e) for e in rule.examples))


def _shifted(english):
    """Translate chapters in order, inserting a new 703 and moving the rest up by one."""
    rules = []
    for rule in english:
        chapter = rule.number[:3]
        if rule.number == "703.1":
            rules.append(Rule("703.1", "拉德指示物99。"))
        moved = str(int(chapter) + 1) if chapter >= "703" else chapter
        rules.append(_translate(rule, moved + rule.number[3:]))
    return rules


def test_a_translation_with_an_inserted_chapter_is_compared_with_the_rules_it_translates():
    english = _english_chapters()
    translated = _shifted(english)
    report = compare_translation(
        _release("zh-Hans", D(2024, 3, 8), len(translated)),
        Document("zh-Hans", D(2024, 3, 8), rules=tuple(translated)),
        _release("en", D(2024, 2, 2), len(english)),
        Document("en", D(2024, 2, 2), rules=tuple(english)),
        [],
    )
    assert report.shifts == (
        Shift("chapter", ("703",), ()),
        Shift("chapter", ("704", "705", "706"), ("703", "704", "705")),
    )
    by_number = {rule.number: rule for rule in report.rules}
    assert by_number["703.1"].status == "extra"
    assert by_number["704.2"].english_base_number == "703.2"
    assert by_number["705.1b"].english_base_number == "704.1b"
    assert by_number["706.2"].english_base_number == "705.2"
    assert by_number["702.1d"].english_base_number == "702.1d"  # before the insertion: as is
    assert report.counts == {"current": len(english), "stale": 0, "missing": 0, "extra": 1} | {
        "mismatched": 0  # citations of the shifted chapters are renumbered before comparing
    }


def test_an_unshifted_translation_stays_paired_by_number_despite_noisy_evidence():
    english = _english_chapters()
    translated = [_translate(rule, rule.number) for rule in english]
    translated[3] = Rule(translated[3].number, "译文")  # 702.1a lost its numbers
    translated[-1] = Rule(translated[-1].number, "译文3，11")  # 705.2 reads like 702's
    alignment = align_translation(translated, english)
    assert alignment.shifts == ()
    assert alignment.rules == {rule.number: rule.number for rule in english}


def test_an_inserted_lettered_rule_shifts_the_letters_after_it():
    english = [Rule("702.5", "Rule 702.5a-f.")]
    english += [Rule(f"702.5{letter}", f"Count {n} of 4.") for n, letter in enumerate("abcdef")]
    translated = [_translate(rule, rule.number) for rule in english[:3]]
    translated.append(Rule("702.5c", "新的 99。"))
    translated += [
        _translate(rule, rule.number[:-1] + "defg"[i]) for i, rule in enumerate(english[3:])
    ]
    alignment = align_translation(translated, english)
    assert alignment.shifts == (
        Shift(
            "rule",
            ("702.5d", "702.5e", "702.5f", "702.5g"),
            ("702.5c", "702.5d", "702.5e", "702.5f"),
        ),
    )
    assert "702.5c" not in alignment.rules


def test_one_rule_does_not_move_on_one_lucky_piece_of_evidence():
    # zh-Hans 2022-06-10 prints "100.6b牌手..." with no space: 100.6b is read into 100.6a.
    english = [
        Rule("100.6", "Most Magic tournaments have additional rules."),
        Rule("100.6a", "Tournaments usually consist of a series of matches."),
        Rule("100.6b", "Players can use the Magic Store & Event Locator at Wizards.com/Locator."),
    ]
    translated = [
        Rule("100.6", "大部分的万智牌比赛都有一些附加规则。"),
        Rule(
            "100.6a",
            "比赛通常包含一系列的对局。 100.6b牌手可以使用在Wizards.com/Locator的店家定位器。",
        ),
    ]
    alignment = align_translation(translated, english)
    assert alignment.rules == {"100.6": "100.6", "100.6a": "100.6a"}
    assert alignment.unpaired_english == {"100.6b"}
    assert alignment.shifts == ()


def test_chinese_releases_pair_by_number_except_where_a_chapter_was_inserted(ingested):
    archive, _ = ingested
    for release in archive.releases("zh-Hans"):
        report = _report(archive, "zh-Hans", release)
        paired = [r for r in report.rules if r.status in {"current", "stale"}]
        if release.effective_date == D(2024, 3, 8):
            continue
        assert report.shifts == (), release.key
        assert all(r.english_base_number == r.number for r in paired), release.key


def test_chinese_2024_03_08_translates_english_725_to_729_as_726_to_730(ingested):
    archive, _ = ingested
    report = _report(archive, "zh-Hans", _zh(archive, "2024-03-08"))
    assert report.shifts == (
        Shift("chapter", ("725",), ()),  # rad counters: the English of Fallout is not archived
        Shift("chapter", ("726", "727", "728", "729", "730"), ("725", "726", "727", "728", "729")),
    )
    by_number = {rule.number: rule for rule in report.rules}
    base = archive.load(report.base)
    for rule in archive.load(report.release).rules:
        status = by_number[rule.number]
        if rule.number[:3] == "725":
            assert status.status == "extra"
        elif "726" <= rule.number[:3] <= "730":
            english = base.rule(status.english_base_number)
            assert status.english_base_number == str(int(rule.number[:3]) - 1) + rule.number[3:]
            assert len(english.examples) == len(rule.examples)
            assert status.problems == (), (rule.number, status.problems)
        else:
            assert status.english_base_number in {rule.number, None}
    extra = sorted(r.number for r in report.rules if r.status == "extra")
    assert extra == ["111.10t", "122.1i", "725.1", "725.1a"]  # Fallout's, with no English base
    assert report.counts["missing"] == 0
    # compared with 727.2a (unchanged since), not with 728.2a (day and night, changed 2024-07-30)
    assert by_number["728.2a"].status == "current"
    # 2024-04-12 only renumbered its citation 725.2a to 726.2a, which the translation cites
    assert by_number["726.2"].stale_since.effective_date == D(2025, 4, 4)
    # a citation of a shifted chapter is renumbered before it is compared: 730 cites en 729
    assert by_number["121.8"].problems == ()


@pytest.mark.parametrize(
    ("chinese", "english", "inserted", "shifted"),
    [
        ("2024-04-12", "2024-02-02", "725", ("726", "730")),  # rad counters
        ("2025-04-04", "2025-02-07", "720", ("721", "731")),  # Tarkir: Dragonstorm's 720
    ],
)
def test_chinese_text_finds_the_chapter_an_english_release_inserted(
    ingested, chinese, english, inserted, shifted
):
    """As if the English release of the translation's date were missing from the archive."""
    archive, _ = ingested
    translated = archive.load(_zh(archive, chinese)).rules
    alignment = align_translation(
        translated, archive.load(find_release(archive, english, "en")).rules
    )
    first, last = shifted
    chapters = tuple(str(n) for n in range(int(first), int(last) + 1))
    assert alignment.shifts[:2] == (
        Shift("chapter", (inserted,), ()),
        Shift("chapter", chapters, tuple(str(int(c) - 1) for c in chapters)),
    )


def test_cli_reports_shifted_chapters(ingested):
    archive, _ = ingested
    command = ["--archive", str(archive.root), "translations", "zh-Hans", "--release", "2024-03-08"]
    runner = CliRunner()
    text = runner.invoke(main, command).output
    assert "shift 725: not in the English base\nshift 726–730: translates en 725–729\n" in text
    data = json.loads(runner.invoke(main, [*command, "--format", "json"]).output)
    assert data["shifts"][1] == {
        "level": "chapter",
        "translated": ["726", "727", "728", "729", "730"],
        "english": ["725", "726", "727", "728", "729"],
    }
    rule = next(r for r in data["rules"] if r["number"] == "726.1")
    assert rule["english_base_number"] == "725.1"


def test_the_site_pairs_a_shifted_translated_rule_with_the_english_it_translates(tmp_path):
    archive = Archive(tmp_path / "archive")
    english = _english_chapters()
    translated = _shifted(english)
    _save(archive, Document("en", D(2024, 2, 2), rules=tuple(english)))
    _save(archive, Document("zh-Hans", D(2024, 3, 8), rules=tuple(translated)))
    report = _report(archive, "zh-Hans")
    pairing = pair_translations(_gather(archive, "en"), [(_gather(archive, "zh-Hans"), report)])
    pairs = {c.rule.number: c.english.number for c in pairing.by_translation.values()}
    assert pairs["704.1"] == "703.1"
    assert pairs["706.2"] == "705.2"
    assert pairs["702.1"] == "702.1"
    assert "703.1" not in pairs  # the inserted chapter translates nothing in the base


def _save(archive: Archive, document: Document) -> None:
    raw = render_rules_text(document).encode()
    digest = hashlib.sha256(raw).hexdigest()
    release = Release(
        document.language,
        document.effective_date,
        "X",
        "X",
        len(document.rules),
        0,
        digest,
        Provenance(f"{document.language}.txt", digest, "txt", "utf-8"),
    )
    archive.save(release, document, raw)


def test_the_site_shows_chinese_726_1_beside_the_english_725_1_it_translates(
    shared_archive, tmp_path
):
    archive = Archive(tmp_path / "archive")
    files = [("en", D(2024, 2, 2)), ("en", D(2024, 4, 12)), ("zh-Hans", D(2024, 3, 8))]
    ingest_paths(
        archive, [shared_archive / lang / f"{entry_for(d).file_date}.txt" for lang, d in files]
    )
    english = _gather(archive, "en")
    pairing = pair_translations(
        english, [(_gather(archive, "zh-Hans"), _report(archive, "zh-Hans"))]
    )
    by_number = {c.rule.number: c for c in pairing.by_translation.values()}
    shahrazad = by_number["726.1"]
    assert shahrazad.english.number == "725.1" and "Shahrazad" in shahrazad.english.text
    assert shahrazad in pairing.by_english[shahrazad.english_line_id]
    assert "Shahrazad" in english.by_id[shahrazad.english_line_id].stretches[-1].rule.text
    assert by_number["730.2"].english.number == "729.2"  # handling illegal actions
    assert "725.1" not in by_number  # rad counters: no English in the base


# Real Korean rules (ko 2021-11-19 beside en 2021-11-19) where the translation writes in digits
# inside a word what the English spells out, or glosses a term with its English in parentheses.
KOREAN_SPELLED_AND_GLOSSED = [
    (
        "100.2a",
        "컨스덱에는 기본대지를 제외한 다른 카드는 같은 이름(영문판 기준)이 4장을 초과해서는 "
        "안됩니다. 최소 덱 크기는 60장입니다.",
        "each deck has a minimum deck size of 60 cards ... no more than four of any card",
    ),
    (
        "103.3d",
        "2인 난투 게임에서, 각 플레이어의 시작 생명 총점은 25입니다. 다인 난투 게임에서, 30입니다.",
        "In a two-player Brawl game, each player's starting life total is 25. In a "
        "multiplayer Brawl game, each player's starting life total is 30.",
    ),
    (
        "721.3",
        '게임을 시작할 때 7장의 카드를 뽑기 때문에 (See rule 704, "State-Based Actions.")',
        'Because each player draws seven cards (See rule 704, "State-Based Actions.")',
    ),
    (
        "406.6",
        "2번째 능력에 나온 카드들은 오직 첫 번째 능력에 의해 추방된 카드들만을 의미합니다. "
        "See rule 607.",
        "the second refers only to cards that have been exiled due to the first. See rule 607.",
    ),
    (
        "106.8",
        "어떤 효과가 마나풀에 혼성 마나(Hybrid mana) 심볼로 대표되는 종류의 마나를 넣으려 한다면",
        "If an effect would add mana represented by a hybrid mana symbol",
    ),
    (
        "718.2",
        "두 장의 카드(Word of Command, Opposition Agent)는 다른 플레이어를 제한된 기간 동안 "
        "조종합니다.",
        "Two cards (Word of Command and Opposition Agent) allow a player to control another "
        "player for a limited duration.",
    ),
    (
        "612.6",
        '한 카드(Spy kit)에는 "모든 비전설 생물 카드의 이름"이라는 문구가 있습니다.',
        'One card (Spy Kit) states that an object has "all names of nonlegendary creature cards."',
    ),
]


@pytest.mark.parametrize(("number", "korean", "english"), KOREAN_SPELLED_AND_GLOSSED)
def test_numbers_the_english_spells_out_and_glossed_names_are_no_mismatch(number, korean, english):
    assert check_structure(Rule(number, korean), Rule(number, english)) == ()


def test_a_number_or_name_the_english_lacks_is_still_a_mismatch():
    english = Rule("903.7", "each player sets their life total to 40 and draws seven cards.")
    assert check_structure(Rule("903.7", "생명점을 30으로 하고 7장을 뽑습니다."), english) == (
        "numbers 30, English has 40",
    )
    names = Rule("718.2", "두 장의 카드(Word of Command, Mindslaver)는 조종합니다.")
    assert check_structure(names, Rule("718.2", "Two cards (Word of Command) allow")) == (
        "names Word of Command, Mindslaver are not in the English",
    )


def test_no_korean_report_flags_a_glossed_name_or_a_number_the_english_spells(ingested):
    archive, _ = ingested
    for release in archive.releases("ko"):
        for rule in _report(archive, "ko", release).rules:
            names = [p for p in rule.problems if p.startswith("names ")]
            assert not names, (release.key, rule.number, names)
    newest = _report(archive, "ko")
    numbers = {r.number: p for r in newest.rules for p in r.problems if p.startswith("numbers ")}
    # what is left is real: a citation the English has and the translation lacks (119.1b,
    # 500.3) or has moved on from (702.37a, 702.102a, 702.140c), N2 of {LEVEL N1-N2} left
    # out (711.5), a translator's note (721.3: 54장) and a typo (723.2i: "See rul3 712")
    assert numbers == {
        "119.1b": "numbers 20, English has 20, 902",
        "500.3": "numbers 514, English has 502, 514",
        "702.37a": "numbers 2/2, 3, 707, English has 2/2, 3, 708",
        "702.102a": "numbers 708, English has 709",
        "702.140c": "numbers 721, English has 723",
        "711.5": "numbers 1, English has 1, 2",
        "721.3": "numbers 54, 704, English has 704",
        "723.2i": "numbers 3, 712, English has 712",
    }


ISSUE_31_CITATION_ORDER = [
    "603.2d",
    "112.1",
    "701.28a",
    "701.31c",
    "702.15e",
    "702.124d",
    "801.7a",
    "901.11a",
    "903.13g",
]


def test_chinese_2026_04_17_cites_in_its_own_order_without_a_mismatch(ingested):
    archive, _ = ingested
    release = find_release(archive, "2026-04-17", "zh-Hans")
    rules = {rule.number: rule for rule in _report(archive, "zh-Hans", release).rules}
    for number in ISSUE_31_CITATION_ORDER:
        assert not [p for p in rules[number].problems if p.startswith("cites ")], number


def test_rules_are_followed_by_where_each_stands_after_every_diff():
    # In one diff, 616.1 moves to 616.2 while 616.2 is reworded as 616.3: each base rule
    # goes one step, whatever the other's number was before it.
    base = Document("en", D(2024, 11, 8), rules=(Rule("616.1", "a"), Rule("616.2", "b")))
    translated = Document("zh-Hans", D(2024, 11, 8), rules=base.rules)
    later_release = _release("en", D(2025, 2, 7), 2)
    diff = ReleaseDiff(
        changes=(
            Change(Kind.UNCHANGED, "616.1", "616.2", "a", "a"),
            Change(Kind.SUBSTANTIVE, "616.2", "616.3", "b", "c"),
        ),
        renumbering=(("616.1", "616.2"), ("616.2", "616.3")),
    )
    report = compare_translation(
        _release("zh-Hans", D(2024, 11, 8), 2),
        translated,
        _release("en", D(2024, 11, 8), 2),
        base,
        [(later_release, diff)],
    )
    assert [(r.number, r.status, r.stale_since, r.english_number) for r in report.rules] == [
        ("616.1", "current", None, "616.2"),
        ("616.2", "stale", later_release, "616.3"),
    ]
