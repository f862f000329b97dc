"""Permanent ids (differ.identity, corpus.ids) on hand-made releases: minted once, never moved."""

import datetime as dt

import pytest
from rulesarchive.corpus.ids import Registry, RegistryError, Run, parse_registry, render_registry
from rulesarchive.corpus.model import Document, Provenance, Release, Rule
from rulesarchive.differ.classify import diff_documents
from rulesarchive.differ.identity import assign_ids
from rulesarchive.differ.lineage import Line, Stretch, trace_lines

MOVE = "If an object would move from one zone to another, determine what event is moving it."
TOKEN = "A token that has left the battlefield can't move to another zone or come back onto it."
LIBRARY = "When a game begins, each player's deck becomes their library, shuffled face down."


def release(day: int) -> Release:
    source = Provenance("sample.txt", "0" * 64, "txt", "utf-8")
    return Release("en", dt.date(2020, 1, day), "", "", 0, 0, f"{day:064}", source)


def doc(*rules: tuple[str, str]) -> Document:
    return Document("en", None, rules=tuple(Rule(n, t) for n, t in rules))


def traced(days: list[int], documents: list[Document]) -> tuple[list[Release], list[Line]]:
    releases = [release(day) for day in days]
    steps = [
        (document, diff_documents(documents[i - 1], document) if i else None)
        for i, document in enumerate(documents)
    ]
    return releases, trace_lines(releases, steps)


def ids_by_number(days, documents, registry: Registry) -> tuple[dict[str, str], Registry]:
    """Each number of the last release -> its line's permanent id, and the new registry."""
    releases, lines = traced(days, documents)
    made = assign_ids(lines, releases, registry)
    return {line.rule.number: made.ids[line.id] for line in lines}, made.registry


# 217.1d renumbered 400.6 on day 3; 217.2 added on day 2
DAYS = [1, 2, 3]
DOCS = [
    doc(("217.1d", MOVE)),
    doc(("217.1d", MOVE), ("217.2", TOKEN)),
    doc(("400.6", MOVE), ("400.7", TOKEN)),
]


def test_a_new_line_is_minted_its_first_release_and_number():
    ids, registry = ids_by_number(DAYS, DOCS, Registry())
    assert ids == {"400.6": "2020-01-01/217.1d", "400.7": "2020-01-02/217.2"}
    assert registry.ids["2020-01-01/217.1d"] == (
        Run("217.1d", dt.date(2020, 1, 1), dt.date(2020, 1, 2)),
        Run("400.6", dt.date(2020, 1, 3), dt.date(2020, 1, 3)),
    )


def test_the_registry_reads_back_as_written():
    _ids, registry = ids_by_number(DAYS, DOCS, Registry())
    assert parse_registry(render_registry(registry)) == registry


def test_a_registry_row_that_is_wrong_is_named():
    with pytest.raises(RegistryError, match=r"ids\.tsv: row 2"):
        parse_registry("releases\t2020-01-01\nid\tx\t100.1 2020-13-01\n")


def test_adding_an_older_release_keeps_every_id():
    # first only days 2 and 3 are known, then day 1 is found
    ids, registry = ids_by_number(DAYS[1:], DOCS[1:], Registry())
    assert ids == {"400.6": "2020-01-02/217.1d", "400.7": "2020-01-02/217.2"}
    again, registry = ids_by_number(DAYS, DOCS, registry)
    assert again == ids
    assert registry.releases == tuple(dt.date(2020, 1, day) for day in DAYS)


def test_adding_a_newer_release_keeps_every_id_and_mints_the_new_rule():
    ids, registry = ids_by_number(DAYS, DOCS, Registry())
    newer = doc(("400.6", MOVE), ("400.7", TOKEN), ("400.8", LIBRARY))
    more, _ = ids_by_number([*DAYS, 4], [*DOCS, newer], registry)
    assert more == {**ids, "400.8": "2020-01-04/400.8"}


def test_ingest_order_and_subsets_give_the_ids_of_the_registry():
    _ids, registry = ids_by_number(DAYS, DOCS, Registry())
    for days in ([1, 3], [2, 3], [3], [1, 2, 3]):
        documents = [DOCS[day - 1] for day in days]
        ids, _ = ids_by_number(days, documents, registry)
        assert ids["400.6"] == "2020-01-01/217.1d", days


def test_a_split_keeps_the_id_on_the_main_successor_and_mints_one_for_the_other():
    one = Line("2020-01-01/100.1", (Stretch(0, 2, Rule("100.1", MOVE)),))
    releases = [release(day) for day in DAYS]
    registry = assign_ids([one], releases, Registry()).registry
    # a better aligner: the rule of day 3 is another rule, begun that day
    main = Line("x", (Stretch(0, 1, Rule("100.1", MOVE)),))
    part = Line("2020-01-03/100.1", (Stretch(2, 2, Rule("100.1", TOKEN)),))
    made = assign_ids([main, part], releases, registry)
    assert made.ids == {"x": "2020-01-01/100.1", "2020-01-03/100.1": "2020-01-03/100.1"}
    assert made.registry.aliases == {}


def test_a_merge_keeps_one_id_and_records_the_other_as_its_alias():
    releases = [release(day) for day in DAYS]
    apart = [
        Line("2020-01-01/217.1d", (Stretch(0, 1, Rule("217.1d", MOVE)),)),
        Line("2020-01-03/400.6", (Stretch(2, 2, Rule("400.6", MOVE)),)),
    ]
    registry = assign_ids(apart, releases, Registry()).registry
    assert set(registry.ids) == {"2020-01-01/217.1d", "2020-01-03/400.6"}
    joined = Line("x", (Stretch(0, 1, Rule("217.1d", MOVE)), Stretch(2, 2, Rule("400.6", MOVE))))
    made = assign_ids([joined], releases, registry)
    assert made.ids == {"x": "2020-01-01/217.1d"}
    assert made.registry.aliases == {"2020-01-03/400.6": "2020-01-01/217.1d"}
    assert made.registry.resolve("2020-01-03/400.6") == "2020-01-01/217.1d"
    assert "2020-01-03/400.6" not in made.registry.ids


def test_an_id_once_given_is_never_minted_again():
    releases = [release(1)]
    gone = Registry((dt.date(2020, 1, 1),), {"2020-01-01/100.1": ()}, {})
    line = Line("2020-01-01/100.1", (Stretch(0, 0, Rule("100.2", MOVE)),))
    made = assign_ids([line], releases, gone)
    assert made.ids == {"2020-01-01/100.1": "2020-01-01/100.1~2"}


def test_a_merge_keeps_the_id_minted_first_even_when_it_holds_fewer_versions():
    releases = [release(day) for day in DAYS]
    apart = [
        Line("2020-01-01/217.1d", (Stretch(0, 0, Rule("217.1d", MOVE)),)),
        Line("2020-01-02/400.6", (Stretch(1, 2, Rule("400.6", MOVE)),)),
    ]
    registry = assign_ids(apart, releases, Registry()).registry
    joined = Line("x", (Stretch(0, 0, Rule("217.1d", MOVE)), Stretch(1, 2, Rule("400.6", MOVE))))
    made = assign_ids([joined], releases, registry)
    assert made.ids == {"x": "2020-01-01/217.1d"}
    assert made.registry.aliases == {"2020-01-02/400.6": "2020-01-01/217.1d"}


def test_an_id_two_lines_could_merge_into_goes_to_one_of_them():
    releases = [release(day) for day in DAYS]
    apart = [
        Line("2020-01-01/100.1", (Stretch(0, 0, Rule("100.1", MOVE)),)),
        Line("2020-01-02/100.2", (Stretch(1, 1, Rule("100.2", MOVE)),)),
        Line("2020-01-03/100.3", (Stretch(2, 2, Rule("100.3", MOVE)),)),
    ]
    registry = assign_ids(apart, releases, Registry()).registry
    # two lines both reach back to day 1's rule: only one of them may take its id
    both = [
        Line("x", (Stretch(0, 0, Rule("100.1", MOVE)), Stretch(1, 1, Rule("100.2", MOVE)))),
        Line("y", (Stretch(0, 0, Rule("100.1", MOVE)), Stretch(2, 2, Rule("100.3", MOVE)))),
    ]
    made = assign_ids(both, releases, registry)
    assert len(set(made.ids.values())) == 2


def test_an_id_goes_to_the_line_holding_the_version_it_names():
    releases = [release(day) for day in DAYS]
    # an older aligner ran day 1's 100.1 on into 100.2 and began 100.1 anew on day 2
    older = [
        Line(
            "2020-01-01/100.1",
            (Stretch(0, 0, Rule("100.1", MOVE)), Stretch(1, 2, Rule("100.2", TOKEN))),
        ),
        Line("2020-01-02/100.1", (Stretch(1, 2, Rule("100.1", MOVE)),)),
    ]
    registry = assign_ids(older, releases, Registry()).registry
    better = [
        Line("x", (Stretch(0, 2, Rule("100.1", MOVE)),)),
        Line("2020-01-02/100.2", (Stretch(1, 2, Rule("100.2", TOKEN)),)),
    ]
    made = assign_ids(better, releases, registry)
    # '2020-01-01/100.1' names 100.1 of day 1: it stays with that rule, not with most versions
    assert made.ids == {"x": "2020-01-01/100.1", "2020-01-02/100.2": "2020-01-02/100.2"}
    assert made.registry.aliases == {"2020-01-02/100.1": "2020-01-01/100.1"}


def test_a_retired_id_comes_back_to_the_line_holding_the_version_it_names():
    releases = [release(day) for day in DAYS]
    joined = [
        Line(
            "2020-01-01/100.1",
            (Stretch(0, 0, Rule("100.1", MOVE)), Stretch(1, 2, Rule("100.2", MOVE))),
        )
    ]
    registry = Registry(
        (dt.date(2020, 1, 1), dt.date(2020, 1, 2), dt.date(2020, 1, 3)),
        assign_ids(joined, releases, Registry()).registry.ids,
        {"2020-01-02/100.2": "2020-01-01/100.1"},  # an older aligner's merge
    )
    apart = [
        Line("a", (Stretch(0, 0, Rule("100.1", MOVE)),)),
        Line("b", (Stretch(1, 2, Rule("100.2", TOKEN)),)),
    ]
    made = assign_ids(apart, releases, registry)
    assert made.ids == {"a": "2020-01-01/100.1", "b": "2020-01-02/100.2"}
    assert made.registry.aliases == {}


def test_an_archive_of_a_few_releases_changes_no_version_the_registry_holds():
    everything = [release(day) for day in (1, 2, 3, 4)]
    # the whole archive: 100.1 of days 1-2 and 100.2 of days 3-4 are two rules
    whole = [
        Line("2020-01-01/100.1", (Stretch(0, 1, Rule("100.1", MOVE)),)),
        Line("2020-01-03/100.2", (Stretch(2, 3, Rule("100.2", TOKEN)),)),
    ]
    registry = assign_ids(whole, everything, Registry()).registry
    # an archive of days 2 and 3 alone runs one into the other: a merge, recorded as an alias,
    # but every version stays with the id that recorded it (day 4's 100.2 is not handed over)
    few = everything[1:3]
    joined = Line("x", (Stretch(0, 0, Rule("100.1", MOVE)), Stretch(1, 1, Rule("100.2", TOKEN))))
    merged = assign_ids([joined], few, registry).registry
    assert merged.aliases == {"2020-01-03/100.2": "2020-01-01/100.1"}
    assert merged.ids == registry.ids
    # the same few releases paired apart again give the registry of the whole archive back
    apart = [
        Line("a", (Stretch(0, 0, Rule("100.1", MOVE)),)),
        Line("b", (Stretch(1, 1, Rule("100.2", TOKEN)),)),
    ]
    assert assign_ids(apart, few, merged).registry == registry


def test_of_two_lines_claiming_an_id_of_releases_not_at_hand_the_longer_keeps_it():
    everything = [release(day) for day in (1, 2, 3, 4)]
    whole = [Line("2020-01-01/100.1", (Stretch(0, 3, Rule("100.1", MOVE)),))]
    registry = assign_ids(whole, everything, Registry()).registry
    # without day 1, the rule is cut in two at day 3: a short line before, a long one after
    few = everything[1:]
    short = Line("2020-01-02/100.1", (Stretch(0, 0, Rule("100.1", MOVE)),))
    long = Line("l", (Stretch(1, 2, Rule("100.1", MOVE)),))
    made = assign_ids([short, long], few, registry)
    assert made.ids == {"l": "2020-01-01/100.1", "2020-01-02/100.1": "2020-01-02/100.1"}
    # the short line is named for the time being: the registry records no id for a line cut
    # only by a missing release, so the order releases come in cannot give it one for good
    assert made.registry == registry


def test_the_same_ids_make_the_same_file_whatever_order_they_were_minted_in():
    days = (dt.date(2020, 1, 1), dt.date(2020, 1, 2))
    minted = {
        "2020-01-02/100.1~2": (Run("100.3", days[1], days[1]),),
        "2020-01-02/100.1": (Run("100.2", days[1], days[1]),),
        "2020-01-01/100.1": (Run("100.1", *days),),
    }
    text = render_registry(Registry(days, minted, {}))
    assert text == render_registry(Registry(days, dict(reversed(minted.items())), {}))
    rows = [row.split("\t")[1] for row in text.splitlines()[1:]]
    assert rows == ["2020-01-01/100.1", "2020-01-02/100.1", "2020-01-02/100.1~2"]
