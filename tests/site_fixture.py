"""A small archive for site tests: the shipped sample plus one release written to provoke the
builder (a rule whose text is markup, a citation of a rule that does not exist)."""

from __future__ import annotations

import datetime as dt
import hashlib
import shutil
from dataclasses import replace
from pathlib import Path

from rulesarchive.corpus.model import Document, Flag, Heading, Provenance, Release, Rule
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
# The newest English rules and the two the provoking release adds, translated: printed with
# the date of the release before that one, as ko 2017-07-08 was (its content is the later's).
KOREAN = {
    "100.1": "이 Magic 규칙은 두 명 혹은 그 이상의 플레이어가 참여하는 모든 Magic 게임에 "
    "적용되며, 2인 게임과 다인전 게임을 모두 포함합니다.",
    "400.6": "개체가 한 구역에서 다른 구역으로 이동하려 하면, 어떤 이벤트가 그 개체를 "
    "이동시키는지 결정합니다. 개체가 공개 구역으로 이동하고 그 구역에서 소유자가 그 개체를 "
    "볼 수 있다면, 소유자는 "
    "그 개체를 보고 이동에 영향을 주는 능력이 있는지 확인합니다. 개체가 전장으로 이동한다면, 그 "
    "구역에서 그 개체를 볼 수 있는 다른 각 플레이어도 그렇게 합니다. 그런 다음 그 개체에서 나온 "
    "것이든 다른 곳에서 나온 것이든 적절한 대체 효과를 그 이벤트에 적용합니다. 어떤 효과나 규칙이 "
    "특정 개체에 서로 모순되거나 양립할 수 없는 두 가지 이상의 일을 하려 한다면, 그 개체의 조종자가"
    "(조종자가 없다면 소유자가) 어떤 효과를 적용할지, 그리고 그 효과가 무엇을 할지 선택합니다. "
    "(같은 것이 여러 번 있어도 서로 양립할 수 없을 수 있습니다. 예를 들어 동시에 일어나는 두 개의 "
    '"파괴" 효과가 그렇습니다.) 그런 다음 이벤트가 개체를 이동시킵니다.',
    "400.8": "어떤 효과는 카드가 구역 사이를 이동할 때 그 카드를 봅니다. 규칙 400.6과 규칙 "
    "702.19b를 보세요.",
    "400.9": '"<script>alert(1)</script>"라는 이름의 카드도 그저 텍스트일 뿐입니다. 규칙 999.99와 '
    "규칙 400.6을 보세요.",
    "702.18": "죽음의 손길은 정적 능력입니다. 죽음의 손길을 가진 생물은 자신이 피해를 입힌 생물을 "
    "모두 파괴합니다.",
    "702.19": "결속은 전투 규칙을 수정하는 정적 능력입니다. 결속을 가진 생물은 다른 생물들과 함께 "
    "무리를 지어 공격할 수 있습니다.",
    "702.19b": "전투 피해를 입히는 결속 생물은 돌진과 마찬가지로 규칙 702.19와 규칙 400을 "
    "따릅니다.",
    "702.20": "돌진은 공격하는 생물의 전투 피해 배정 규칙을 수정하는 정적 능력입니다. 돌진을 가진 "
    "생물이 방어하거나 전투 피해가 아닌 피해를 입힐 때는 이 능력이 아무 효과도 없습니다(규칙 "
    "510.1c-d를 보세요).",
}
KOREAN_EXAMPLES = {
    "702.19b": ('결속과 돌진을 가진 공격 생물은 규칙 702.20과 7절 "추가 규칙"을 따릅니다.',)
}
KOREAN_HEADINGS = {
    "1": "게임의 컨셉",
    "100": "일반",
    "4": "구역",
    "400": "일반",
    "7": "추가 규칙",
    "702": "키워드 능력",
}
KOREAN_DATE = dt.date(2019, 1, 25)
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
    _save_korean(archive, document)
    return archive


def _save_translation(archive: Library) -> None:
    """A Chinese release translating 2014-02-01; English 400.6 and 702.20 change after it."""
    english = archive.load(archive.find(CHINESE_DATE))
    rules = tuple(Rule(rule.number, CHINESE[rule.number]) for rule in english.rules)
    document = replace(english, language="zh-Hans", rules=rules, glossary=())
    save_release(archive, document, "BNG", "Born of the Gods")


def _save_korean(archive: Library, english: Document) -> None:
    """A Korean release printed 2019-01-25 translating the provoking release (2019-05-03)."""
    rules = tuple(
        Rule(rule.number, KOREAN[rule.number], KOREAN_EXAMPLES.get(rule.number, ()))
        for rule in english.rules
    )
    headings = tuple(Heading(h.number, KOREAN_HEADINGS[h.number]) for h in english.headings)
    document = replace(
        english,
        language="ko",
        effective_date=KOREAN_DATE,
        rules=rules,
        headings=headings,
        glossary=(),
        glossary_omitted=True,
    )
    save_release(archive, document, "RNA", "Ravnica Allegiance")


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
