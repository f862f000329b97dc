"""The reference check on hand-made releases: one test per kind of problem and per rule of it."""

import datetime as dt

from rulesarchive.corpus.model import Document, GlossaryEntry, Heading, Provenance, Release, Rule
from rulesarchive.corpus.numbers import parse_citations
from rulesarchive.differ.classify import diff_documents
from rulesarchive.differ.lineage import trace_lines
from rulesarchive.differ.references import (
    LanguageCheck,
    Snapshot,
    check_snapshots,
    check_translated,
    find_references,
    mark_fixes,
    snapshots,
)
from rulesarchive.differ.translations import check_structure

MOVE = "If an object would move from one zone to another, determine what event is moving it."
NEW_OBJECT = "An object that moves from one zone to another becomes a new object with no memory."
TOKEN = "A token that has left the battlefield can't move to another zone or come back onto it."
COPY = "A copy of a spell in a zone other than the stack ceases to exist as a state-based action."
LIBRARY = "When a game begins, each player's deck becomes their library, shuffled face down."


def release(day: int) -> Release:
    source = Provenance("sample.txt", "0" * 64, "txt", "utf-8")
    return Release("en", dt.date(2020, 1, day), "", "", 0, 0, f"{day:064}", source)


def doc(*rules: tuple[str, str], glossary: tuple[GlossaryEntry, ...] = ()) -> Document:
    return Document("en", None, rules=tuple(Rule(n, t) for n, t in rules), glossary=glossary)


def check(*documents: Document) -> LanguageCheck:
    releases = [release(day + 1) for day in range(len(documents))]
    steps = [
        (document, diff_documents(documents[i - 1], document) if i else None)
        for i, document in enumerate(documents)
    ]
    lines = trace_lines(releases, steps)
    return check_snapshots("en", releases, snapshots(lines, [d.glossary for d in documents]))


def found(result: LanguageCheck, index: int = -1) -> list[tuple]:
    return [(p.rule, p.cites, p.kind, p.suggestion) for p in result.present[index]]


def test_citations_are_numbers_ranges_chapters_and_sections():
    text = (
        "See rules 702.19b–d, 119.7–8 and 903.6–903.11. See rule 704, “State-Based Actions,” "
        "and section 5. A deck of 100 cards; rules 306-311; 601.2f."
    )
    assert [(c.written, c.first, c.last) for c in parse_citations(text)] == [
        ("702.19b–d", "702.19b", "702.19d"),
        ("119.7–8", "119.7", "119.8"),
        ("903.6–903.11", "903.6", "903.11"),
        ("704", "704", "704"),
        ("5", "5", "5"),
        ("306-311", "306", "311"),
        ("601.2f", "601.2f", "601.2f"),
    ]


def test_a_bare_number_or_a_decimal_is_no_citation():
    assert parse_citations("20 life, 100 cards, section 3.4 of the Tournament Rules") == ()


def test_references_are_found_in_text_examples_and_glossary():
    rules = [Rule("100.1", "See rule 100.2.", ("Example: see rule 100.3.",))]
    glossary = [GlossaryEntry("Zone", "A place. See rule 400.")]
    assert [(r.rule, r.citation.written, r.place) for r in find_references(rules, glossary)] == [
        ("100.1", "100.2", "text"),
        ("100.1", "100.3", "example"),
        ("Glossary: Zone", "400", "glossary"),
    ]


def test_a_number_no_rule_holds_is_dangling():
    result = check(doc(("400.1", f"{MOVE} See rule 400.9."), ("400.2", LIBRARY)))
    assert found(result) == [("400.1", "400.9", "dangling", None)]
    assert result.problems[0].since == result.releases[0]


def test_chapters_and_sections_are_held_by_their_rules():
    result = check(
        doc(("400.1", f"{MOVE} See rule 400 and section 4, then rule 409 and section 8."))
    )
    assert found(result) == [
        ("400.1", "409", "dangling", None),
        ("400.1", "8", "dangling", None),
    ]


def test_a_rule_citing_itself_or_a_backward_range_is_self():
    result = check(
        doc(
            ("400.1", f"{MOVE} (See rule 400.1.)"),
            ("400.2", f"{NEW_OBJECT} See rules 400.3b–a."),
            ("400.3a", TOKEN),
            ("400.3b", COPY),
        )
    )
    assert found(result) == [
        ("400.1", "400.1", "self", None),
        ("400.2", "400.3b–a", "self", None),
    ]


def test_a_renumbering_that_leaves_a_citation_behind_is_stale():
    before = doc(
        ("400.1", f"{LIBRARY} See rule 400.3."),
        ("400.2", f"{COPY} See rule 400.2a."),
        ("400.2a", MOVE),
        ("400.3", NEW_OBJECT),
    )
    after = doc(
        ("400.1", f"{LIBRARY} See rule 400.3."),  # left behind: the rule it meant is 400.4 now
        ("400.2", f"{COPY} See rule 400.3a."),  # brought up to date
        ("400.3", TOKEN),
        ("400.3a", MOVE),
        ("400.4", NEW_OBJECT),
    )
    result = check(before, after)
    assert found(result, 0) == []
    assert found(result) == [("400.1", "400.3", "stale", "400.4")]
    assert result.problems[0].since == result.releases[1]


def test_a_range_follows_both_its_ends():
    before = doc(
        ("400.1", f"{LIBRARY} See rules 400.2a–b."),
        ("400.2a", MOVE),
        ("400.2b", NEW_OBJECT),
    )
    after = doc(
        ("400.1", f"{LIBRARY} See rules 400.2a–b."),
        ("400.2", TOKEN),
        ("400.3a", MOVE),
        ("400.3b", NEW_OBJECT),
    )
    assert found(check(before, after)) == [("400.1", "400.2a–b", "stale", "400.3a–b")]


def test_a_stale_glossary_citation_follows_the_rule_too():
    entry = GlossaryEntry("New Object", "See rule 400.3.")
    before = doc(("400.1", LIBRARY), ("400.3", NEW_OBJECT), glossary=(entry,))
    after = doc(("400.1", LIBRARY), ("400.3", TOKEN), ("400.4", NEW_OBJECT), glossary=(entry,))
    assert found(check(before, after)) == [("Glossary: New Object", "400.3", "stale", "400.4")]


def test_a_fixed_citation_ends_the_problem_and_is_listed_as_a_fix():
    wrong = doc(("400.1", f"{MOVE} (See rule 400.9.)"), ("400.2", NEW_OBJECT))
    right = doc(("400.1", f"{MOVE} (See rule 400.2.)"), ("400.2", NEW_OBJECT))
    result = check(wrong, wrong, right)
    assert result.problems[0].since == result.releases[0]
    assert result.problems[0].fixed == result.releases[2]
    assert result.fixes[2] == {"400.1": ("400.9",)}
    diff = mark_fixes(diff_documents(wrong, right), result.fixes[2])
    assert [(c.new_number, c.kind) for c in diff.changes] == [("400.1", "reference")]


def test_a_fixed_glossary_citation_is_listed_under_its_term():
    wrong = doc(("400.1", LIBRARY), glossary=(GlossaryEntry("Zone", "See rule 400.9."),))
    right = doc(("400.1", LIBRARY), glossary=(GlossaryEntry("Zone", "See rule 400.1."),))
    assert check(wrong, right).fixes[1] == {"Glossary: Zone": ("400.9",)}


def test_a_dangling_citation_may_get_a_guess_from_the_words():
    result = check(
        doc(
            ("400.1", "A token that has left the battlefield stays gone. See rule 400.9."),
            ("400.2", TOKEN),
            ("400.3", COPY),
        )
    )
    problem = result.present[0][0]
    assert (problem.suggestion, problem.guess) == ("400.2", True)


def test_a_translation_is_checked_against_its_english_base():
    english = doc(
        ("726.1", MOVE),
        ("727.1", NEW_OBJECT),
        ("801.17", "Some multiplayer games use the rules of rule 727."),
    )
    chinese = Document(
        "zh-Hans",
        None,
        rules=(
            Rule("726.1", "移动。"),
            Rule("727.1", "新对象。"),
            Rule("801.17", "某些多人游戏使用规则726与规则999。"),  # 726 where the English has 727
        ),
    )
    problems, count, _ = check_translated(release(1), chinese, english.rules)
    assert count == 2
    assert [(p.rule, p.cites, p.kind, p.suggestion) for p in problems] == [
        ("801.17", "726", "stale", "727"),
        ("801.17", "999", "dangling", None),
    ]
    assert "cites 726, 999, English cites 727" in check_structure(
        chinese.rules[2], english.rules[2]
    )


def test_a_chapter_cited_by_the_title_another_chapter_has_is_stale():
    headings = (Heading("400", "Zones"), Heading("401", "Library"), Heading("402", "Hand"))
    rules = (
        Rule("400.1", "See rule 401, “Library,” and rule 401, “Hand.”"),  # the second is 402
        Rule("401.1", "See rule 402, “Graveyard.”"),  # a title no chapter has tells nothing
        Rule("402.1", LIBRARY),
    )
    shot = Snapshot(tuple((rule.number, rule) for rule in rules), (), headings)
    result = check_snapshots("en", [release(1)], [shot])
    assert found(result) == [("400.1", "401", "stale", "402")]
