"""One English rule beside its translations across time: `compare RULE`, the API, the engine."""

from __future__ import annotations

import datetime as dt
import json

import jsonschema
from click.testing import CliRunner
from rulesarchive.corpus.model import Provenance, Release, Rule
from rulesarchive.differ.changes import Change
from rulesarchive.differ.kinds import Kind, TranslationStatus
from rulesarchive.differ.lineage import Line, Stretch
from rulesarchive.differ.translation_compare import Track, compare_rule, translated_release
from rulesarchive.differ.translations import RuleStatus, TranslationReport
from rulesarchive.exports.jsonfiles import schema_path

from rulesarchive.api import Archive
from rulesarchive.cli import main

D = dt.date


def _release(language: str, date: dt.date) -> Release:
    return Release(language, date, "", "", 1, 0, "x", Provenance("s", "x", "txt", "utf-8"))


def _change(kind: Kind) -> Change:
    return Change(kind, "100.1", "100.1", "old", "new")


def test_each_english_change_is_set_beside_the_first_translation_that_followed_it():
    english = [_release("en", D(2020, month, 1)) for month in (1, 2, 3, 4)]
    # 100.1 is reworded in the second and the fourth English release
    line = Line(
        "2020-01-01/100.1",
        (
            Stretch(0, 0, Rule("100.1", "old")),
            Stretch(1, 2, Rule("100.1", "new"), _change(Kind.SUBSTANTIVE)),
            Stretch(3, 3, Rule("100.1", "newer"), _change(Kind.SUBSTANTIVE)),
        ),
    )
    translated = [_release("ko", D(2020, 1, 2)), _release("ko", D(2020, 3, 2))]
    ko_line = Line(
        "2020-01-02/100.1",
        (Stretch(0, 0, Rule("100.1", "옛")), Stretch(1, 1, Rule("100.1", "새"))),
    )
    reports = [
        TranslationReport(
            translated[0],
            english[0],
            (RuleStatus("100.1", TranslationStatus.STALE, english[1], None, (), "100.1"),),
        ),
        TranslationReport(
            translated[1],
            english[2],
            (RuleStatus("100.1", TranslationStatus.STALE, english[3], None, (), "100.1"),),
        ),
    ]
    track = Track(
        "ko",
        tuple(translated_release(report, english) for report in reports),
        lambda number, index: ko_line if number == "100.1" else None,
    )
    compared = compare_rule(line, english, [track], 3)
    first, second = compared.changes
    assert (first.release, first.kind) == (english[1], Kind.SUBSTANTIVE)
    (follow,) = first.follows
    assert (follow.release, follow.base, follow.later) == (translated[1], english[2], 1)
    assert follow.reworded is True and not follow.first
    assert second.release == english[3] and second.follows[0].release is None  # not yet
    (_, renderings) = compared.renderings[0]
    assert [r.translates for r in renderings] == [english[0], english[1]]
    assert [r.reworded for r in renderings] == [None, True]


def _compared(ingested, number: str) -> dict:
    archive, _ = ingested
    return Archive(archive.root, cache=archive.derived.folder).compare(number).to_json()


def _follows(data: dict, date: str) -> dict[str, dict]:
    (change,) = [c for c in data["changes"] if c["release"]["effective_date"] == date]
    return {follow["language"]: follow for follow in change["follows"]}


def test_702_19b_chinese_followed_march_of_the_machine_three_releases_later_korean_not(
    ingested,
):
    data = _compared(ingested, "702.19b")
    assert data["numbers"] == ["502.9b", "702.17b", "702.18b", "702.19b"]
    # en 2023-04-14 (March of the Machine) reworded it; zh-Hans 2022-06-10 translates the
    # English before, zh-Hans 2023-10-13 (en 2023-10-13, three English releases on) rewords
    # it; the Korean translation ends in 2021
    follows = _follows(data, "2023-04-14")
    assert follows["zh-Hans"]["release"]["effective_date"] == "2023-10-13"
    assert follows["zh-Hans"]["english_releases_later"] == 3
    assert follows["zh-Hans"]["reworded"] is True and follows["zh-Hans"]["status"] == "current"
    assert follows["ko"]["release"] is None
    # en 2020-04-17 (Ikoria) rewrote it: ko followed in its release of that date, reworded;
    # zh-Hans's first release in the archive came after it
    follows = _follows(data, "2020-04-17")
    assert follows["ko"]["release"]["effective_date"] == "2020-04-17"
    assert (follows["ko"]["english_releases_later"], follows["ko"]["reworded"]) == (0, True)
    assert follows["zh-Hans"]["first_release"] is True
    korean = next(t for t in data["translations"] if t["language"] == "ko")["releases"]
    assert korean[-1]["status"] == "stale" and korean[-1]["stale_since"] == "2023-04-14"
    assert [r["release"]["effective_date"] for r in korean if r["reworded"]] == ["2020-04-17"]


def test_cli_compare_prints_text_and_json_valid_against_its_schema(ingested, monkeypatch):
    archive, _ = ingested
    monkeypatch.setenv("RULESARCHIVE_CACHE", str(archive.derived.folder))  # the session's

    def run(*args: str):
        return CliRunner().invoke(main, ["--archive", str(archive.root), "compare", *args])

    text = run("702.19b")
    assert text.exit_code == 0, text.output
    assert "March of the Machine (MOM) 2023-04-14 · 702.19b · sweep" in text.output
    assert (
        "  zh-Hans: followed in 2023-10-13 (translates en 2023-10-13, 3 English releases later)"
        "; reworded" in text.output
    )
    assert "  ko: not yet (its newest release, 2021-11-19, translates en 2021-11-19)" in text.output
    data = json.loads(run("CR 702.19B", "--format", "json").output)
    schema = json.loads(schema_path("compare.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(data, schema, format_checker=jsonschema.FormatChecker())
    unknown = run("400.66")
    assert unknown.exit_code == 1 and "no rule 400.66 in en/2026-04-17" in unknown.output
