"""The `?` that 2008-2009 files print for a lost quote or dash is repaired from a neighbour."""

import datetime as dt

from rulesarchive.corpus.model import Document, GlossaryEntry, Rule
from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.ingest import ingest_bytes, ingest_paths
from rulesarchive.scraper.placeholders import repair_placeholders

from tests.samples import modern_text

NEIGHBOUR = Document(
    "en",
    dt.date(2007, 10, 1),
    rules=(
        Rule("100.1", 'A player can\'t take it. See section 6, "Multiplayer Rules."'),
        Rule("205.3", "Creature—Elf Warrior is a type line. Who wins?"),
    ),
    glossary=(GlossaryEntry("As Though", 'Text that reads "as though" lets a player'),),
)


def _document(*rules, glossary=()):
    return Document("en", dt.date(2008, 5, 1), rules=rules, glossary=glossary)


def test_a_placeholder_takes_the_mark_the_neighbour_prints_between_the_same_words():
    printed = "A player can?t take it. See section 6, ?Multiplayer Rules.?"
    repaired = repair_placeholders(_document(Rule("100.1", printed)), [NEIGHBOUR])
    rule = repaired.rules[0]
    assert rule.text == NEIGHBOUR.rules[0].text
    assert rule.printed_text == printed
    assert dict(repaired.normalisation)["placeholders"] == 3


def test_a_rule_whose_words_changed_too_keeps_the_marks_of_its_unchanged_words():
    printed = "Creature ? Elf Druid is a type line. Who wins?"
    rule = repair_placeholders(_document(Rule("205.3", printed)), [NEIGHBOUR]).rules[0]
    assert rule.text == "Creature—Elf Druid is a type line. Who wins?"  # a real '?' stays


def test_glossary_lines_are_repaired_and_a_document_without_placeholders_is_untouched():
    entry = GlossaryEntry("As Though", "Text that reads ?as though? lets a player")
    repaired = repair_placeholders(_document(glossary=(entry,)), [NEIGHBOUR])
    assert repaired.glossary[0].text == NEIGHBOUR.glossary[0].text
    assert repaired.glossary[0].printed_text == entry.text
    clean = _document(Rule("100.1", "Nothing lost here."))
    assert repair_placeholders(clean, [NEIGHBOUR]) is clean


def test_without_a_neighbour_only_apostrophes_inside_words_are_repaired():
    printed = "A player can?t take it ? ever. Does it?"
    document = _document(Rule("100.1", printed))
    assert (
        repair_placeholders(document, []).rules[0].text == "A player can't take it ? ever. Does it?"
    )


def test_real_2008_releases_keep_almost_no_placeholder(ingested):
    archive, _ = ingested
    release = archive.get("en", dt.date(2008, 5, 1))
    assert dict(release.normalisation)["placeholders"] > 4000
    document = archive.load(release)
    left = sum(rule.text.count("?") for rule in document.rules)
    printed = sum(rule.printed_text.count("?") for rule in document.rules)
    assert printed > 2000 and left < 60
    assert "can't" in document.rule("100.2").text or "can't" in document.rule("103.2").text


def test_a_batch_repairs_from_the_document_it_just_stored_as_a_reread_would(tmp_path, monkeypatch):
    dates = ["November 8, 2024", "February 7, 2025", "April 11, 2025", "June 13, 2025"]
    texts = [modern_text(date=date) for date in dates]
    # The second and the last print `?` where the others print an apostrophe.
    texts = [
        text.replace("number 5 of", "number 5?s of" if at % 2 else "number 5's of")
        for at, text in enumerate(texts)
    ]
    paths = _written(tmp_path, texts)
    reread = _each_alone(Archive(tmp_path / "reread"), paths)
    loads = []
    original_load = Archive.load
    monkeypatch.setattr(Archive, "load", lambda self, r: loads.append(r) or original_load(self, r))
    batch = Archive(tmp_path / "batch")
    assert [o.status for o in ingest_paths(batch, paths)] == ["added"] * 4
    assert loads == []  # each neighbour came from memory
    for release in batch.releases("en"):
        key = release.key
        assert (batch.root / key / "document.json").read_bytes() == (
            reread.root / key / "document.json"
        ).read_bytes()
        assert "number 5's of" in batch.load(release).rule("100.5").text


def test_a_batch_repairs_a_document_no_rule_of_which_asks_as_one_read_alone(tmp_path):
    dates = ["November 8, 2024", "February 7, 2025", "April 11, 2025", "June 13, 2025"]
    # Only an example prints a `?`: the worker repairs it, reading no neighbour.
    texts = [
        modern_text(date=date).replace("targeting a creature", "targeting a creature?s")
        for date in dates
    ]
    paths = _written(tmp_path, texts)
    alone = _each_alone(Archive(tmp_path / "alone"), paths)
    batch = Archive(tmp_path / "batch")
    assert [o.status for o in ingest_paths(batch, paths)] == ["added"] * 4
    for release in batch.releases("en"):
        for name in ("document.json", "release.json", "rules.txt"):
            assert (batch.root / release.key / name).read_bytes() == (
                alone.root / release.key / name
            ).read_bytes()
        assert dict(release.normalisation)["placeholders"] == 1
        assert batch.load(release).rule("400.7").examples[0].endswith("a creature's.")


def _written(folder, texts: list[str]) -> list:
    paths = [folder / f"{at}.txt" for at in range(len(texts))]
    for path, text in zip(paths, texts, strict=True):
        path.write_text(text)
    return paths


def _each_alone(archive: Archive, paths: list) -> Archive:
    """Ingest the files one at a time, each a run of its own (neighbours read back)."""
    for path in paths:
        assert ingest_bytes(archive, path.read_bytes(), path.name).status == "added"
    return archive
