"""A glossary term's line of descent (differ.language) and its permanent id (differ.identity):
a renamed term stays one term, whatever order its releases came in."""

import datetime as dt

from rulesarchive.corpus.ids import Registry, parse_registry, render_registry
from rulesarchive.corpus.model import Document, GlossaryEntry
from rulesarchive.differ.classify import diff_documents
from rulesarchive.differ.glossary import term_key
from rulesarchive.differ.identity import assign_points
from rulesarchive.differ.language import DocumentSummary, GlossaryLine, follow_renames

END = "The final phase of a turn. The ending phase consists of the end step and cleanup step."
UPKEEP = "Part of the beginning phase. See rule 503, Upkeep Step."
TEAMS = "A multiplayer variant played with two teams. See rule 808, Teams Variant."


def glossary(*entries: tuple[str, str]) -> Document:
    return Document("en", None, glossary=tuple(GlossaryEntry(t, x) for t, x in entries))


def lines_of(documents: list[Document]) -> list[GlossaryLine]:
    summary = DocumentSummary()
    for index, document in enumerate(documents):
        summary.add(index, document)
    diffs = [
        diff_documents(documents[i - 1], document) if i else None
        for i, document in enumerate(documents)
    ]
    return follow_renames(summary.glossary, diffs)


def history(line: GlossaryLine) -> list[tuple[int, int, str]]:
    return [(first, last, entry.term) for first, last, entry in line.stretches]


def test_a_renamed_term_is_one_line_under_its_last_name():
    lines = lines_of(
        [
            glossary(("End Phase", END), ("Upkeep", UPKEEP)),
            glossary(("End Phase", END), ("Upkeep", UPKEEP)),
            glossary(("Ending Phase", END), ("Upkeep", UPKEEP)),
        ]
    )
    by_key = {line.key: line for line in lines}
    assert set(by_key) == {"ending phase", "upkeep"}
    assert history(by_key["ending phase"]) == [(0, 1, "End Phase"), (2, 2, "Ending Phase")]
    assert by_key["ending phase"].keys == ("end phase", "ending phase")


def test_a_term_back_after_its_name_went_on_elsewhere_is_a_new_line():
    # 'Teams' renamed 'Teams Variant' on day 2; a new 'Teams' on day 4 is not that term
    lines = lines_of(
        [
            glossary(("Teams", TEAMS)),
            glossary(("Teams Variant", TEAMS)),
            glossary(("Teams Variant", TEAMS)),
            glossary(("Teams", "Two or more players on one side."), ("Teams Variant", TEAMS)),
        ]
    )
    assert sorted(map(history, lines)) == [
        [(0, 0, "Teams"), (1, 3, "Teams Variant")],
        [(3, 3, "Teams")],
    ]


def test_a_term_dropped_and_printed_again_under_its_name_is_one_line():
    lines = lines_of([glossary(("Upkeep", UPKEEP)), glossary(), glossary(("Upkeep", UPKEEP))])
    assert [history(line) for line in lines] == [[(0, 0, "Upkeep"), (2, 2, "Upkeep")]]


def named(
    lines: list[GlossaryLine], days: list[int], registry: Registry
) -> tuple[dict[str, str], Registry]:
    """Each line's permanent id by its last key, minted as the service does, and the registry
    after it."""
    dates = [dt.date(2020, 1, day) for day in days]
    names = [
        f"{dates[line.stretches[0][0]]}/{term_key(line.stretches[0][2].term)}" for line in lines
    ]
    points = [
        [(dates[i], term_key(e.term)) for a, b, e in line.stretches for i in range(a, b + 1)]
        for line in lines
    ]
    made = assign_points(names, points, dates, registry)
    return {
        line.key: made.ids[name] for line, name in zip(lines, names, strict=True)
    }, made.registry


def test_a_renamed_terms_id_stays_when_an_older_release_is_found():
    newer = [glossary(("Ending Phase", END))] * 2
    ids, registry = named(lines_of(newer), [2, 3], Registry())
    assert ids == {"ending phase": "2020-01-02/ending phase"}
    # the file reads back as written, its key's spaces included
    assert parse_registry(render_registry(registry)) == registry
    # an older release naming it 'End Phase' is found: the term began earlier, its id stays
    whole = [glossary(("End Phase", END)), *newer]
    ids, registry = named(lines_of(whole), [1, 2, 3], registry)
    assert ids == {"ending phase": "2020-01-02/ending phase"}
    assert registry.ids["2020-01-02/ending phase"][0].number == "end phase"


def test_a_term_renamed_and_renamed_back_went_by_its_old_name_before():
    lines = lines_of(
        [
            glossary(("Unblocked Creature", UPKEEP)),
            glossary(("Unblocked", UPKEEP)),
            glossary(("Unblocked Creature", UPKEEP)),
        ]
    )
    assert [line.keys for line in lines] == [("unblocked", "unblocked creature")]


def test_a_term_renamed_and_rewritten_is_paired_by_the_rules_it_cites():
    """2009-07-11: 'State-Based Effects' (rule 420) became 'State-Based Actions' (rule 704),
    the definition rewritten: only the renumbered citation tells them one."""
    from rulesarchive.differ.glossary import diff_glossaries

    old = [
        GlossaryEntry(
            "State-Based Effects",
            'Checks made whenever a player would receive priority. See rule 420, "SBE."',
        ),
        GlossaryEntry("Upkeep", UPKEEP),
    ]
    new = [
        GlossaryEntry(
            "State-Based Actions",
            'Game actions that happen when conditions are met. See rule 704, "SBA."',
        ),
        GlossaryEntry("Upkeep", UPKEEP),
    ]
    (change,) = diff_glossaries(old, new, {"420": "704"})
    assert (change.old_term, change.new_term) == ("State-Based Effects", "State-Based Actions")
    # without the renumbering, nothing ties them
    assert {c.kind for c in diff_glossaries(old, new)} == {"added", "removed"}
