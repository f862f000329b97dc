"""A small archive for site tests: the shipped sample plus one release written to provoke the
builder (a rule whose text is markup, a citation of a rule that does not exist)."""

from __future__ import annotations

import datetime as dt
import hashlib
import shutil
from dataclasses import replace
from pathlib import Path

from rulesarchive.corpus.model import Document, Flag, Provenance, Release, Rule
from rulesarchive.corpus.store import render_rules_text
from rulesarchive.site_builder.build import sample_archive

from rulesarchive.library import Library

CHINESE = {  # the sample's rules of 2014-02-01, translated
    "100.1": "这些万智牌规则适用于任何有两位或更多牌手的万智牌游戏，包括双人游戏和多人游戏。",
    "400.6": "如果一个物件将从一个区域移到另一个区域，则确定是什么事件在移动该物件。如果该物件将"
    "移到公开区域，则所有牌手查看它，看它是否具有会影响该移动的异能。然后适用任何合适的替代性效应。"
    "然后该事件移动该物件。",
    "400.8": "有些效应会在牌于区域间移动时查看它；参见规则400.6和规则702.19。",
    "702.18": "死触是静止式异能。具有死触的生物会消灭它所造成伤害的任何生物。",
    "702.19": "结阵是修改战斗规则的静止式异能。具有结阵的生物可以与其他生物结成一阵进行攻击。",
    "702.20": "践踏是修改进攻生物战斗伤害分配规则的静止式异能。当具有践踏异能的生物进行阻挡或造成"
    "非战斗伤害时，该异能没有效果（参见规则510.1c-d）。",
}
CHINESE_DATE = dt.date(2014, 2, 1)
HOSTILE = 'A card named "<script>alert(1)</script>" is only text; see rule 999.99 and rule 400.6.'
EXTRA_DATE = dt.date(2019, 5, 3)
# A sub-rule citing a rule, a chapter and a glossary term, in its text and in its example.
BANDING_B = Rule(
    "702.19b",
    "A creature with banding that deals combat damage follows rule 702.19 and rules 400, "
    "as does trample.",
    ("Example: An attacking creature with banding and trample follows rule 702.20 and section 7.",),
)


def fixture_archive(folder: Path) -> Library:
    """Copy the sample archive into `folder` and add the provoking release."""
    shutil.copytree(sample_archive(), folder)
    archive = Library(folder)
    newest = archive.releases("en")[-1]
    document = archive.load(newest)
    rules = tuple(
        replace(rule, text=rule.text.replace("rule 702.19", "rule 702.19b"))
        if rule.number == "400.8"
        else rule
        for rule in document.rules
    )
    rules = (*rules, Rule("400.9", HOSTILE), BANDING_B)
    document = replace(document, effective_date=EXTRA_DATE, rules=rules)
    save_release(archive, document, "WAR", "War of the Spark")
    _save_translation(archive)
    return archive


def _save_translation(archive: Library) -> None:
    """A Chinese release translating 2014-02-01; English 400.6 and 702.20 change after it."""
    english = archive.load(archive.find(CHINESE_DATE))
    rules = tuple(Rule(rule.number, CHINESE[rule.number]) for rule in english.rules)
    document = replace(english, language="zh-Hans", rules=rules, glossary=())
    save_release(archive, document, "BNG", "Born of the Gods")


def save_reworded(
    archive: Library, language: str, number: str, added: str, date: dt.date, set_: tuple[str, str]
) -> None:
    """Store a release of `language` after its newest: the same but rule `number`, with
    `added` at the end of its text; `set_`: its set's code and name."""
    document = archive.load(archive.releases(language)[-1])
    rules = tuple(
        replace(rule, text=rule.text + added) if rule.number == number else rule
        for rule in document.rules
    )
    newer = replace(document, effective_date=date, rules=rules)
    save_release(archive, newer, *set_)


def save_release(archive: Library, document: Document, set_code: str, set_name: str) -> None:
    """Store a document as a release of the archive, as ingest would."""
    raw = render_rules_text(document).encode()
    digest = hashlib.sha256(raw).hexdigest()
    assert document.effective_date is not None
    release = Release(
        document.language,
        document.effective_date,
        set_code,
        set_name,
        len(document.rules),
        len(document.glossary),
        digest,
        Provenance(f"fixture-{document.language}.txt", digest, "txt", "utf-8"),
        (Flag.SAMPLE,),
    )
    archive.archive.save(release, document, raw)
