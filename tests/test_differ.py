"""The differ: word diffs, alignment, classification, sweeps, histories."""

import itertools
import re
from pathlib import Path

import rulesarchive.differ.words
from rulesarchive.corpus.model import Document, GlossaryEntry, Heading, Rule
from rulesarchive.corpus.typography import normalise_text
from rulesarchive.differ.align import Pair, _lowest, align_rules, compact_ranges
from rulesarchive.differ.classify import classify_pair, diff_documents
from rulesarchive.differ.headings import chapters_by_title
from rulesarchive.differ.history import version_of
from rulesarchive.differ.report import diff_data, diff_text, history_text
from rulesarchive.differ.words import DELETE, INSERT, Phrase, diff_words, phrases_of

from rulesarchive.library import read_scraped_history

SEED = Path(__file__).parent / "fixtures" / "seed_400_6_history.txt"


def rule(number: str, printed: str, *examples: str) -> Rule:
    text = normalise_text(printed)
    return Rule(
        number,
        text,
        tuple(normalise_text(e) for e in examples),
        printed if printed != text else "",
        examples,
    )


def doc(*rules: Rule) -> Document:
    return Document("en", None, rules=rules)


def kinds(old: Document, new: Document) -> dict[str, str]:
    return {(c.new_number or c.old_number): c.kind for c in diff_documents(old, new).changes}


def test_word_diff_is_one_phrase_change():
    old, new = "a public zone, its owner looks at it", "a public zone, all players look at it"
    diff = diff_words(old, new)
    # The diff spells both texts: kept and deleted pieces make the old, kept and inserted the new.
    assert "".join(text for op, text in diff if op != INSERT) == old
    assert "".join(text for op, text in diff if op != DELETE) == new
    assert [(p.old, p.new) for p in phrases_of(diff)] == [("its owner looks", "all players look")]


def test_compiled_and_pure_python_engines_agree(monkeypatch):
    texts = [
        ("Its owner looks at it.", "All players look at it."),
        ("Exile target creature. Draw a card.", "Exile target creature card. Then draw two cards."),
        ("Add {G}{G}.", "Add {G}."),
        ("", "Reserved for future use."),
        ("见规则702.19。", "见规则702.20和702.21。"),
    ]
    compiled = [diff_words(old, new) for old, new in texts]
    monkeypatch.setattr(rulesarchive.differ.words, "_fast_diff", None)
    assert [diff_words(old, new) for old, new in texts] == compiled


def test_ascii_texts_are_split_as_the_general_patterns_split_them():
    words = rulesarchive.differ.words
    texts = [
        "702.19b: Trample (see rule 702.19); 2.5 inches, (6.3 cm. 3. A_B __x",
        "Control characters\x1c\x1d are spaces\x1f\tto \\s\x0b\x0c\r\n too.",
        "Kelvin \u212a lower-cases to ASCII; 'quotes' and {G}{G}.",
    ]
    token, word = re.compile(words._TOKEN), re.compile(words._WORD)
    for text in texts:
        assert words.tokenise(text) == token.findall(text)
        assert words.words_of(text) == word.findall(text.lower())
        assert words.first_words(text, 4) == word.findall(text.lower())[:4]


def test_candidates_tied_at_the_cut_go_to_the_lower_numbers():
    keys = [-1.0, -2.0, -0.5, -2.0, -0.5, -0.5, -3.0, -0.5]
    candidates = [10, 11, 12, 13, 14, 15, 16, 17]
    expected = [c for _, c in sorted(zip(keys, candidates, strict=True))[:6]]
    assert sorted(_lowest(keys, candidates, 2)) == sorted(expected) == [10, 11, 12, 13, 14, 16]


def test_chinese_changes_are_a_few_characters():
    phrases = phrases_of(
        diff_words("当某个规则或效应说你能作某事", "当某个规则或效应允许或指示作某事")
    )
    assert [(p.old, p.new) for p in phrases] == [("说你能", "允许或指示")]


def test_each_kind():
    old = doc(
        rule("100.1", "A rule that is “quoted”."),
        rule("100.2", "Players draw seven cards."),
        rule("100.3", "Text with an example.", "Old example."),
        rule("100.4", "See rule 100.6 for details."),
        rule("100.5", "This rule will be removed."),
        rule("100.6", "Detailed rule about mulligans and hands."),
    )
    new = doc(
        rule("100.1", 'A rule that is "quoted".'),
        rule("100.2", "Players draw eight cards."),
        rule("100.3", "Text with an example.", "New example."),
        rule("100.4", "See rule 100.7 for details."),
        rule("100.6", "A brand new rule."),
        rule("100.7", "Detailed rule about mulligans and hands."),
    )
    assert kinds(old, new) == {
        "100.1": "typography",
        "100.2": "substantive",
        "100.3": "example",
        "100.4": "reference",
        "100.5": "removed",
        "100.6": "added",
        "100.7": "unchanged",
    }
    moved = next(c for c in diff_documents(old, new).changes if c.new_number == "100.7")
    assert moved.moved and moved.old_number == "100.6"


def test_reference_to_a_different_rule_is_substantive():
    old = doc(
        rule("100.4", "See rule 100.6 for details."),
        rule("100.6", "Mulligans and hands rule text."),
    )
    new = doc(
        rule("100.4", "See rule 100.5 for details."),
        rule("100.6", "Mulligans and hands rule text."),
    )
    assert kinds(old, new)["100.4"] == "substantive"


def test_truncation():
    full = "If an object would move from one zone to another, determine what event is moving it."
    cut = "If an object would move from one zone to another, determine what"
    assert kinds(doc(rule("400.6", full)), doc(rule("400.6", cut)))["400.6"] == "truncation"


def test_sweep_is_listed_once_with_its_rules():
    old = doc(
        *(
            rule(f"100.{n}", f"Rule {n}: a player shuffles his or her library number {n}.")
            for n in range(1, 5)
        )
    )
    new = doc(
        *(
            rule(f"100.{n}", f"Rule {n}: a player shuffles their library number {n}.")
            for n in range(1, 5)
        )
    )
    result = diff_documents(old, new)
    assert [(s.old, s.new, s.rules) for s in result.sweeps] == [
        ("his or her", "their", ("100.1", "100.2", "100.3", "100.4"))
    ]
    assert {c.kind for c in result.changes} == {"sweep"}


def test_words_dropped_from_several_rules_are_a_sweep():
    # 2024-07-30: 'enters the battlefield' became 'enters' in 39 rules
    said = [
        "it enters the battlefield tapped",
        "a token enters the battlefield",
        "if it enters the battlefield",
    ]
    old = doc(*(rule(f"100.{n}", f"Rule {n}: {text}.") for n, text in enumerate(said, 1)))
    new = doc(
        *(
            rule(f"100.{n}", f"Rule {n}: {text.replace(' the battlefield', '')}.")
            for n, text in enumerate(said, 1)
        )
    )
    result = diff_documents(old, new)
    assert [(s.old, s.new, s.rules) for s in result.sweeps] == [
        ("the battlefield", "", ("100.1", "100.2", "100.3"))
    ]
    assert {c.kind for c in result.changes} == {"sweep"}


def test_identical_short_rules_pair_by_position_not_at_random():
    old = doc(rule("100.1", "Reserved for future use."), rule("200.1", "Reserved for future use."))
    new = doc(rule("100.1", "Reserved for future use."), rule("200.1", "Reserved for future use."))
    pairs = align_rules(old.rules, new.rules)
    assert [(p.old.number, p.new.number) for p in pairs] == [("100.1", "100.1"), ("200.1", "200.1")]


def test_bulk_shift_is_a_compact_range():
    keyword = "{} is a keyword ability with its own distinct rules text number {}."
    old = doc(*(rule(f"702.{n}", keyword.format(f"Word{n}", n)) for n in range(140, 150)))
    new = doc(
        rule("702.140", "Brand new keyword inserted early."),
        *(rule(f"702.{n + 1}", keyword.format(f"Word{n}", n)) for n in range(140, 150)),
    )
    result = diff_documents(old, new)
    assert len(result.renumbering) == 10
    assert compact_ranges(result.renumbering) == [("702.140–702.149", "702.141–702.150")]


def test_seed_history_of_400_6():
    history = read_scraped_history(SEED, "400.6")
    assert len(history.versions) == 12
    by_set = {v.set_name: v for v in history.versions}
    assert {name for name, v in by_set.items() if v.kind == "truncation"} == {
        "Scars of Mirrodin",
        "Commander 2011",
    }
    substantive = [v for v in history.versions if v.kind == "substantive"]
    assert [v.set_name for v in substantive] == ["New Phyrexia", "Kaladesh"]
    assert [(p.old, p.new) for p in by_set["New Phyrexia"].phrases] == [
        ("its owner looks", "all players look")
    ]
    kaladesh = " | ".join(f"{p.old} -> {p.new}" for p in by_set["Kaladesh"].phrases)
    assert (
        "all players look -> and its owner will be able to look at it in that zone, its owner looks"
        in kaladesh
    )
    assert "If the object is moving to the battlefield, each other player" in kaladesh
    others = {v.kind for v in history.versions if v.kind not in {"truncation", "substantive"}}
    assert others <= {"typography", "unchanged"}
    # a version after a truncated one is compared with the last full version before it
    assert by_set["Mirrodin Besieged"].compared_with.isoformat() == "2010-02-01"


def test_a_cut_first_copy_is_the_truncation_not_a_change_in_the_next():
    from rulesarchive.differ.history import Sighting, history_of

    full = "If an object would move from one zone to another, determine what event is moving it."
    cut = "If an object would move from one zone to another, determine"
    sightings = [
        Sighting(None, "", name, rule("400.6", text)) for name, text in (("A", cut), ("B", full))
    ]
    versions = history_of(sightings, first_is_addition=False)
    assert [v.kind for v in versions] == ["truncation", "unchanged"]


FIRST = "The first sentence says what a player does when a permanent phases out of play."
SECOND = "The second sentence covers what happens to auras attached to that phased permanent."


def test_a_rule_split_in_two_keeping_its_number():
    old = doc(rule("208.3", "Unrelated rule before."), rule("208.4", f"{FIRST} {SECOND}"))
    new = doc(rule("208.3", "Unrelated rule before."), rule("208.4", FIRST), rule("208.4a", SECOND))
    result = diff_documents(old, new)
    assert [(s.old, s.new) for s in result.splits] == [(("208.4",), ("208.4", "208.4a"))]
    assert result.merges == ()


def test_a_rule_split_into_two_new_numbers():
    old = doc(rule("500.5", f"{FIRST} {SECOND}"), rule("500.6", "Another rule entirely."))
    new = doc(
        rule("500.5a", FIRST), rule("500.5b", SECOND), rule("500.6", "Another rule entirely.")
    )
    result = diff_documents(old, new)
    assert [(s.old, s.new) for s in result.splits] == [(("500.5",), ("500.5a", "500.5b"))]


def test_two_rules_merged_into_one():
    old = doc(rule("706.5", FIRST), rule("706.6", SECOND))
    new = doc(rule("706.5", f"{FIRST} {SECOND}"))
    result = diff_documents(old, new)
    assert [(s.old, s.new) for s in result.merges] == [(("706.5", "706.6"), ("706.5",))]
    assert result.splits == ()


def test_a_rule_that_grew_a_lot_keeps_its_line():
    old = doc(rule("214.8c", "A short rule about mana abilities of lands."))
    new = doc(
        rule(
            "214.8c",
            "A short rule about mana abilities of lands. Since 2001 it also explains at length "
            "what happens when such an ability is activated while a spell is being cast, which "
            "tripled its length and made it look like a different rule.",
        )
    )
    assert kinds(old, new) == {"214.8c": "substantive"}


def test_glossary_entries_are_aligned_and_diffed():
    old = Document(
        "en",
        None,
        glossary=(
            GlossaryEntry("Abandon", "To turn a face-up ongoing scheme face down."),
            GlossaryEntry("Chump Block", "Slang for a block that sacrifices a creature."),
            GlossaryEntry("Face-Down", "Describes a card whose back shows."),
            GlossaryEntry("Mana Burn", "Obsolete rule: lose life for unused mana."),
            GlossaryEntry("Quote", "A 'quoted' text.", "A \u2018quoted\u2019 text."),
        ),
    )
    new = Document(
        "en",
        None,
        glossary=(
            GlossaryEntry("Abandon", "To turn a face-up ongoing scheme face down."),
            GlossaryEntry("Double", "To double a value; see rule 701.10."),
            GlossaryEntry("Face Down", "Describes a card whose back is visible."),
            GlossaryEntry("Quote", "A 'quoted' text."),
            GlossaryEntry("Sacrificial Block", "Slang for a block that sacrifices a creature."),
        ),
    )
    found = {
        (c.old_term, c.new_term): (c.kind, [(p.old, p.new) for p in c.phrases])
        for c in diff_documents(old, new).glossary
    }
    assert found == {
        (None, "Double"): ("added", []),
        ("Face-Down", "Face Down"): ("substantive", [("shows", "is visible")]),
        ("Mana Burn", None): ("removed", []),
        ("Quote", "Quote"): ("typography", []),
        ("Chump Block", "Sacrificial Block"): ("renamed", []),
    }


def test_an_example_inserted_first_is_the_only_example_change():
    examples = ("Example: Grizzly Bears attacks.", "Example: Llanowar Elves taps for mana.")
    old = doc(rule("302.6", "A creature's activated ability can't be activated.", *examples))
    new = doc(
        rule(
            "302.6",
            "A creature's activated ability can't be activated.",
            "Example: A new first example.",
            *examples,
        )
    )
    (change,) = diff_documents(old, new).changes
    assert change.kind == "example"
    assert [phrases_of(d) for d in change.example_diffs] == [
        (Phrase("", "Example: A new first example."),)
    ]


def test_headings_are_aligned_and_classified_like_rules():
    from dataclasses import replace

    from rulesarchive.corpus.model import Heading

    old = replace(
        doc(
            rule("309.1", "Planes are a card type seen only in Planechase games."),
            rule("310.1", "Schemes are a card type seen only in Archenemy games."),
        ),
        headings=(
            Heading("3", "Card Types"),
            Heading("308", "Tribals"),
            Heading("309", "Planes"),
            Heading("310", "Schemes"),
            Heading("421", "Handling “Infinite” Loops"),
            Heading("799", "Gone"),
        ),
    )
    new = replace(
        doc(
            rule("309.1", "Dungeons are a card type seen only outside the game."),
            rule("310.1", "Planes are a card type seen only in Planechase games."),
            rule("311.1", "Schemes are a card type seen only in Archenemy games."),
        ),
        headings=(
            Heading("3", "Card Types"),
            Heading("308", "Kindreds"),
            Heading("309", "Dungeons"),
            Heading("310", "Planes"),
            Heading("311", "Schemes"),
            Heading("421", 'Handling "Infinite" Loops'),
        ),
    )
    result = diff_documents(old, new)
    by_number = {(c.old_number, c.new_number): c.kind for c in result.headings}
    assert by_number == {
        ("308", "308"): "substantive",  # renamed
        (None, "309"): "added",
        ("309", "310"): "unchanged",  # moved only
        ("310", "311"): "unchanged",
        ("421", "421"): "typography",
        ("799", None): "removed",
    }
    data = diff_data(_release("2021-06-18"), _release("2021-07-23"), result)
    headings = [c for c in data["changes"] if c["heading"]]
    assert {(c["kind"], c["new_number"]) for c in headings} >= {("added", "309")}
    assert {"old": "309", "new": "310"} in data["renumbering"]
    text = diff_text(data)
    assert "Sections and chapters:\n" in text
    assert "  added 309. Dungeons" in text
    assert "  renamed 308: “Tribals” → “Kindreds”" in text
    assert "309–310 → 310–311" in text  # the moved chapters with the moved rules


def _release(date):
    import datetime as dt

    from rulesarchive.corpus.model import Provenance, Release

    return Release(
        "en", dt.date.fromisoformat(date), "", "", 0, 0, "x", Provenance("s", "x", "txt", "u")
    )


def test_a_sweep_groups_the_inflections_of_one_rename():
    old = doc(
        rule("903.3", "Each deck has a general."),
        rule("903.4", "The general's color identity matters."),
        rule("903.6", "Two generals may be chosen."),
        rule("903.7", "Generals start in the command zone, and a general can be cast."),
        rule("903.8", "A general costs more. A general also counts damage."),
    )
    new = doc(
        rule("903.3", "Each deck has a commander."),
        rule("903.4", "The commander's color identity matters."),
        rule("903.6", "Two commanders may be chosen."),
        rule("903.7", "Commanders start in the command zone, and a commander can be cast."),
        rule("903.8", "A commander costs more. A commander also counts combat damage."),
    )
    result = diff_documents(old, new)
    assert [(s.old, s.new, s.rules) for s in result.sweeps] == [
        ("general", "commander", ("903.3", "903.4", "903.6", "903.7", "903.8"))
    ]
    kinds = {c.new_number: c.kind for c in result.changes}
    # 903.8 also gained a word of its own: it stays substantive
    assert kinds == {
        "903.3": "sweep",
        "903.4": "sweep",
        "903.6": "sweep",
        "903.7": "sweep",
        "903.8": "substantive",
    }


def test_numbers_moved_in_lists_and_ranges_are_reference_changes():
    from rulesarchive.differ.texts import only_references

    moved = {"608.2m": "608.2n", "613": "614", "614": "615"}
    old_text = "Once all steps described in 608.2c-m are done, see rules 613 and 614."
    new_text = "Once all steps described in 608.2c-n are done, see rules 614 and 615."
    assert only_references(old_text, new_text, moved)
    assert not only_references(old_text, new_text.replace("615", "616"), moved)
    old = doc(
        rule("100.1", "See rules 613 and 614 for the layers and replacements."),
        rule("613.1", "Layer one is about copy effects."),
        rule("614.1", "Replacement effects watch for events."),
    )
    new = doc(
        rule("100.1", "See rules 614 and 615 for the layers and replacements."),
        rule("614.1", "Layer one is about copy effects."),
        rule("615.1", "Replacement effects watch for events."),
    )
    assert kinds(old, new)["100.1"] == "reference"


def test_an_obsolete_glossary_term_is_the_term_renamed():
    old = Document("en", None, glossary=(GlossaryEntry("Tribal", "An old card type."),))
    new = Document("en", None, glossary=(GlossaryEntry("Tribal (Obsolete)", "An old card type."),))
    (change,) = diff_documents(old, new).glossary
    assert (change.kind, change.old_term, change.new_term) == (
        "renamed",
        "Tribal",
        "Tribal (Obsolete)",
    )


def test_a_glossary_term_respelled_is_one_term_whose_spelling_changed():
    pairs = [
        ("Control, Controller", "Control/Controller"),
        ("Attacks and Isn?t Blocked", "Attacks and Isnt Blocked"),  # 2008's lost apostrophe
        ("Banding, ?Bands with Other?", 'Banding, "Bands with Other"'),
    ]
    for before, after in pairs:
        old = Document("en", None, glossary=(GlossaryEntry(before, "Same words."),))
        new = Document("en", None, glossary=(GlossaryEntry(after, "Same words."),))
        (change,) = diff_documents(old, new).glossary
        assert (change.kind, change.old_term, change.new_term) == ("typography", before, after)
    # Other signs still tell terms apart.
    old = Document("en", None, glossary=(GlossaryEntry("+1/+1 Counter", "A counter."),))
    new = Document("en", None, glossary=(GlossaryEntry("-1/-1 Counter", "A counter."),))
    (change,) = diff_documents(old, new).glossary
    assert change.kind == "renamed"


def _version(number: str, since: str, until: str, kind: str, releases: int) -> dict:
    return {
        "effective_date": since,
        "until": until,
        "releases": releases,
        "set_code": "",
        "set_name": "",
        "number": number,
        "text": "The card with cipher remains encoded.",
        "examples": [],
        "kind": kind,
        "phrases": [],
        "example_phrases": [],
    }


def test_a_folded_run_of_versions_says_when_it_was_renumbered():
    versions = [
        _version("702.97c", "2013-02-01", "2013-05-01", "added", 2),
        _version("702.98c", "2013-07-13", "2021-02-15", "unchanged", 45),
        _version("702.99c", "2021-04-22", "2026-04-17", "unchanged", 32),
    ]
    data = {"rule": "702.99c", "numbers": ["702.97c", "702.98c", "702.99c"], "versions": versions}
    text = history_text(data).splitlines()
    assert text[1] == (
        "numbers: 702.99c (from 2021-04-22) ← 702.98c (from 2013-07-13) ← 702.97c (from 2013-02-01)"
    )
    assert text[3] == (
        "2013-07-13 … 2026-04-17 · no change in wording (77 releases)"
        " · renumbered 702.97c → 702.98c on 2013-07-13, 702.98c → 702.99c on 2021-04-22"
    )


def test_examples_are_labelled_as_a_document_of_their_language_prints_them():
    import dataclasses

    from rulesarchive.differ.release_report import rule_text

    version = _version("702.19b", "2024-06-07", "2024-06-07", "added", 1)
    data = {"rule": "702.19b", "numbers": ["702.19b"], "versions": [version]}
    version["examples"] = ["一个生物。"]
    assert history_text(data, language="zh-Hans").splitlines()[1] == "  例如：一个生物。"
    assert history_text(data).splitlines()[1] == "  Example: 一个生物。"
    rule = Rule("702.19b", "Deal 3 damage.", ("A creature.",))
    english = _release("2024-06-07")
    for language, label in (("en", "Example: "), ("ko", "Example: "), ("zh-Hans", "例如：")):
        release = dataclasses.replace(english, language=language)
        assert rule_text(rule, release).splitlines()[1] == f"  {label}A creature."


def test_an_added_version_shows_no_example_as_changed():
    added = Rule("801.13a", "A player's range of influence applies.", ("Alex casts Lava Axe.",))
    change = classify_pair(Pair(None, added))
    assert version_of(added, None, "added", change).example_phrases == ()
    reworded = Rule("801.13a", "A player's range of influence applies.", ("Alex plays Lava Axe.",))
    changed = classify_pair(Pair(reworded, added))
    assert version_of(added, None, "example", changed).example_phrases != ()


def test_chapters_are_mapped_by_a_title_found_once_on_each_side():
    old = [
        Heading("2", "Parts of a Card"),
        Heading("209", "Hand Modifier"),
        Heading("210", "Life Modifier"),
    ]
    new = [
        Heading("2", "Parts of a Card"),
        Heading("210", "Hand Modifier"),
        Heading("211", "Life Modifier"),
    ]
    assert chapters_by_title(old, new) == {"209": "210", "210": "211"}
    twice = [*new, Heading("212", "Life Modifier")]
    assert chapters_by_title(old, twice) == {"209": "210"}  # a title found twice tells nothing


def test_the_ae_ligature_spelled_out_or_dropped_is_typography():
    # 700.5c printed 'Æther Storm' in 2013-07-13, 'AEther Storm' in 2013-09-27 (a TXT file
    # without the ligature) and 'Aether Storm' once Oracle dropped it in 2016
    chime = "Those cards are Abbey Gargoyles; {} Storm; Aliban's Tower."
    texts = [chime.format(name) for name in ("Æther", "AEther", "Aether")]
    for old, new in itertools.pairwise(texts):
        assert kinds(doc(rule("700.5c", old)), doc(rule("700.5c", new))) == {"700.5c": "typography"}
    assert kinds(
        doc(rule("1.1", "AEGIS of the Gods.")), doc(rule("1.1", "Aegis of the Gods."))
    ) == {
        "1.1": "typography"  # case only: a change of no word, as before
    }


def test_two_neighbours_that_traded_places_are_paired_crosswise():
    filler = [rule(f"510.{n}", f"Filler rule number {n} about combat damage.") for n in (1, 2)]
    old = doc(
        *filler,
        rule("511.1", "First, all end of combat abilities trigger and go on the stack."),
        rule("511.2", "Second, the active player gets priority to cast spells."),
    )
    new = doc(
        *filler,
        rule(
            "511.1",
            "The step has no turn-based actions. Once it begins, the active player gets priority.",
        ),
        rule("511.2", "Abilities that trigger at end of combat trigger as the step begins."),
    )
    pairs = {(c.old_number, c.new_number) for c in diff_documents(old, new).changes}
    assert {("511.1", "511.2"), ("511.2", "511.1")} <= pairs


def test_a_rule_rewritten_between_the_same_paired_rules_is_one_change():
    old = doc(
        rule("100.2", "Each player needs a deck of at least sixty cards and counters."),
        rule("100.3", "For sealed deck or draft play, only forty cards are required in a deck."),
        rule("101.1", "Whenever a card's text contradicts these rules, the card takes precedence."),
    )
    new = doc(
        rule("100.2", "Each player needs a deck and counters."),
        rule("100.2a", "In constructed play each deck must contain at least sixty cards."),
        rule("100.2b", "In limited play (sealed deck or draft), a deck needs forty cards."),
        rule("101.1", "Whenever a card's text contradicts these rules, the card takes precedence."),
    )
    pairs = {(c.old_number, c.new_number) for c in diff_documents(old, new).changes}
    assert ("100.3", "100.2b") in pairs


def test_a_chapter_follows_its_rules_before_a_title_alone():
    """2009-07-11: 300 General's rules went to 500 (another 'General'); 2003-07-01: 401
    Spells kept its rules as 'Spells on the Stack' while a new 213 took the title."""
    from rulesarchive.differ.headings import ChapterRules, diff_headings

    old = (Heading("300", "General"), Heading("401", "Spells"))
    new = (
        Heading("213", "Spells"),
        Heading("300", "General"),
        Heading("401", "Spells on the Stack"),
        Heading("500", "General"),
    )
    moves = [("300.1", "500.1"), ("300.2", "500.2")]
    rules = ChapterRules(held={"300": 2, "401": 3}, stayed={"300": 0, "401": 2})

    def paired(changes) -> dict[tuple[str | None, str | None], str]:
        return {(c.old_number, c.new_number): c.kind for c in changes}

    assert paired(diff_headings(old, new, moves, rules)) == {
        ("300", "500"): "unchanged",  # moved with its rules
        ("401", "401"): "substantive",  # renamed, its rules kept
        (None, "213"): "added",
        (None, "300"): "added",
    }
    # by title and number alone, the same number and title and the one 'Spells' pair up
    assert paired(diff_headings(old, new, moves)) == {
        ("401", "213"): "unchanged",
        (None, "401"): "added",
        (None, "500"): "added",
    }
