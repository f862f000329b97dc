"""Small Comprehensive Rules texts written for the tests (never copies of real files)."""

from __future__ import annotations

HEADER = """Magic: The Gathering Comprehensive Rules

These rules are effective as of {date}.

Introduction

This document is the ultimate authority for Magic: The Gathering® competitive game play.

Contents

1. Game Concepts
100. General
4. Zones
400. General
Glossary
Credits

1. Game Concepts

100. General

"""

FOOTER = """
Glossary

Ability
1. Text on an object that explains what that object does or can do.
2. An activated or triggered ability on the stack. This kind of ability is an object.
See rule 113, “Abilities.”

Non-Aura Card
A card that isn’t an Aura. This is a one-shot sample entry.
{terms}
Credits

Comprehensive Rules Design and Development: Sample Person

These rules are effective as of {date}.
"""

ZONE_RULES = """4. Zones

400. General

400.1. A zone is a place where objects can be during a game.

400.6. If an object would move from one zone to another, determine what event is moving the \
object. If the object is moving to a public zone, {who} look{s} at it to see if it has any \
abilities that would affect the move. That object’s controller—or its owner if it has no \
controller—chooses which effect to apply.

400.7. An object that moves from one zone to another becomes a new object.
Example: A player casts “Giant Growth” targeting a creature.
Example: A second example for rule 400.7.

400.7a Effects that change the characteristics of a permanent spell continue to apply.
"""


def modern_text(
    date: str = "November 8, 2024",
    filler: int = 320,
    who: str = "all players",
    zone_rules: str | None = None,
    footer: bool = True,
) -> str:
    """Return a small but complete modern-era rules text (LF line endings)."""
    s = "" if who == "all players" else "s"
    lines = [HEADER.format(date=date)]
    lines += [
        f"100.{n}. Sample rule number {n} of the general chapter.\n" for n in range(1, filler)
    ]
    lines.append("\n" + (zone_rules or ZONE_RULES.format(who=who, s=s)))
    if footer:
        lines.append(FOOTER.format(date=date, terms=sample_terms(filler // 8)))
    return "\n".join(lines)


OLD_ERA = """Magic: The Gathering Comprehensive Rules

These rules are current as of October 1, 2008.

Contents

1. The Game
100. General
2. Parts of the Game
217. Zones

1. The Game

100. General

{filler}
2. Parts of the Game

217. Zones

217.1. General

217.1a A zone is a place where objects can be during a game.

217.1d If an object would move from one zone to another, its owner looks at it.

Glossary

Ability
"Ability" and "effect" are often confused with one another.
     The general categories of abilities are activated, triggered and static.

Absorb
Absorb is a static ability that prevents damage.

Credits

Magic: The Gathering Original Game Design: Richard Garfield
"""


def sample_terms(count: int) -> str:
    """Return glossary entries in proportion to the rules (a real glossary has one per ~4)."""
    return "".join(
        f"\nSample Term {n}\nA sample glossary entry, number {n}.\n" for n in range(count)
    )


def old_era_text() -> str:
    """Return a pre-2009 style text: sub-rules without periods, 5-space glossary continuations."""
    filler = "\n".join(f"100.{n}. Old sample rule {n}.\n" for n in range(1, 320))
    return OLD_ERA.format(filler=filler)


KOREAN = """매직: 더 개더링 종합 규칙서

이 규칙은 {date}부터 시행됩니다.

소개

이 문서는 시험을 위해 쓴 작은 규칙서입니다.

목차

1. 게임의 컨셉 Game Concepts
100. 일반 General
4. 구역 Zones
400. 일반 General
용어사전

1. 게임의 컨셉

100. 일반

{filler}
100.{last}a생물은 전장에 있는 지속물입니다.

4. 구역

400. 일반

400.7. 한 구역에서 다른 구역으로 이동한 개체는 새로운 개체가 됩니다.
Example: 한 플레이어가 생물을 목표로 Giant Growth를 발동합니다.


용어사전

<생략>

유한회사 위자드 오브 더 코스트에 의해 발행됨. 시험용 문장입니다.
"""


def korean_text(date: str = "2021년 11월 19일", filler: int = 320) -> str:
    """Return a small Korean text shaped like the translation: its glossary is omitted."""
    rules = "\n".join(f"100.{n}. 일반 장의 {n}번째 견본 규칙입니다.\n" for n in range(1, filler))
    return KOREAN.format(date=date, filler=rules, last=filler - 1)
