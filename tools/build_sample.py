"""Rebuild site_builder/sample/: the small demo archive behind `rulesarchive build --sample`.

It is made from the seed history of rule 400.6 (tests/fixtures/seed_400_6_history.txt: twelve
versions, two of them cut short by the scraper that recorded them) and a handful of rules
written for the demo: one that never changes, one renumbered when a keyword is inserted before
it, one that cites it, and a glossary. Run from the project root: python tools/build_sample.py
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

from rulesarchive.corpus.catalogue import entry_for
from rulesarchive.corpus.model import (
    Document,
    Flag,
    GlossaryEntry,
    Heading,
    Provenance,
    Release,
    Rule,
)
from rulesarchive.corpus.store import Archive, render_rules_text
from rulesarchive.corpus.typography import normalise_text
from rulesarchive.differ.history import read_scraped_history

ROOT = Path(__file__).resolve().parents[1]
SEED = ROOT / "tests" / "fixtures" / "seed_400_6_history.txt"
OUTPUT = ROOT / "site_builder" / "sample"

GOLDEN_RULE = (
    "These Magic rules apply to any Magic game with two or more players, including two-player "
    "games and multiplayer games."
)
TRAMPLE = (
    "Trample is a static ability that modifies the rules for assigning an attacking creature's "
    "combat damage. The ability has no effect when a creature with trample is blocking or is "
    "dealing noncombat damage (see rule 510.1c-d)."
)
BANDING = (
    "Banding is a static ability that modifies the rules for combat. A creature with banding "
    "can attack in a band with other creatures."
)
DEATHTOUCH = (
    "Deathtouch is a static ability. A creature with deathtouch destroys any creature it damages."
)
CITING = "Some effects look at a card as it moves between zones; see rule 400.6 and rule 702.19."
GLOSSARY_ZONE = "A place where objects can be during a game. See rule 400, \u201cGeneral.\u201d"


def rules_at(index: int, text_400_6: str) -> tuple[Rule, ...]:
    """The demo rules of the index-th sample release (oldest first)."""
    rules = [
        Rule("100.1", GOLDEN_RULE),
        _printed("400.6", text_400_6),
        _printed("400.8", CITING),
    ]
    keywords = [("Banding", BANDING), ("Trample", TRAMPLE)]
    if index >= 6:  # a keyword inserted early: the ones after it move up one number
        keywords.insert(0, ("Deathtouch", DEATHTOUCH))
    for offset, (_name, text) in enumerate(keywords):
        rules.append(Rule(f"702.{18 + offset}", text))
    if index >= 9:
        rules[-1] = Rule(rules[-1].number, rules[-1].text.replace("has no effect", "does nothing"))
    return tuple(rules)


def _printed(number: str, printed: str) -> Rule:
    text = normalise_text(printed)
    return Rule(number, text, (), printed if printed != text else "")


def main() -> int:
    history = read_scraped_history(SEED, "400.6")
    shutil.rmtree(OUTPUT, ignore_errors=True)
    archive = Archive(OUTPUT)
    for index, version in enumerate(history.versions):
        date = version.effective_date
        if date is None:
            continue
        glossary = [
            GlossaryEntry("Zone", normalise_text(GLOSSARY_ZONE), GLOSSARY_ZONE),
            GlossaryEntry("Trample", "A keyword ability that lets a creature deal excess damage."),
        ]
        if index >= 4:
            glossary[1] = GlossaryEntry(
                "Trample",
                "A keyword ability that lets an attacking creature deal excess combat damage.",
            )
        document = Document(
            "en",
            date,
            title="Magic: The Gathering Comprehensive Rules (sample)",
            headings=(
                Heading("1", "Game Concepts"),
                Heading("100", "General"),
                Heading("4", "Zones"),
                Heading("400", "General"),
                Heading("7", "Additional Rules"),
                Heading("702", "Keyword Abilities"),
            ),
            rules=rules_at(index, version.text),
            glossary=tuple(glossary),
        )
        raw = render_rules_text(document).encode()
        entry = entry_for(date)
        release = Release(
            language="en",
            effective_date=date,
            set_code=entry.set_code if entry else "",
            set_name=entry.set_name if entry else version.set_name,
            rule_count=len(document.rules),
            glossary_count=len(document.glossary),
            content_sha256=hashlib.sha256(raw).hexdigest(),
            source=Provenance("sample.txt", hashlib.sha256(raw).hexdigest(), "txt", "utf-8"),
            flags=(Flag.SAMPLE,),
        )
        archive.save(release, document, raw)
    print(f"{len(archive.releases())} sample releases -> {OUTPUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
