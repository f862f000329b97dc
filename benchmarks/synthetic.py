"""A synthetic archive of many English releases, for timing builds on an archive that grew.

Usage: python benchmarks/synthetic.py DEST [--releases 500] [--seed 10]
Ingests the real English TXT releases of ../shared/cr-archive, then adds releases after the
newest one, a week apart, each the release before with a few small edits of the kinds real
updates make: a reworded rule, a sub-rule added or removed at the end of its rule, a sub-rule
inserted in the middle (the ones after it renumbered), a reworded glossary entry. Each is
stored through `Archive.save`, as an ingest stores a release. Deterministic for a seed.
Making the archive keeps no derived data (`Archive(..., cache=False)`): the user's own cache
(RULESARCHIVE_CACHE) is never read or written.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import random
import re
from dataclasses import replace
from pathlib import Path

from rulesarchive.corpus.model import Document, GlossaryEntry, Provenance, Release, Rule
from rulesarchive.corpus.store import Archive, render_rules_text
from rulesarchive.scraper.ingest import ingest_paths

SHARED = Path(__file__).resolve().parents[2] / "shared" / "cr-archive"
LETTERS = "abcdefghijkmnpqrstuvwxyz"  # sub-rule letters: the rules skip l and o
_SUB_RULE = re.compile(r"^(\d{3}\.\d+)([a-z])$")


def make_archive(folder: Path, releases: int = 500, seed: int = 10) -> Archive:
    """Ingest the real English releases into `folder`, then add synthetic ones up to `releases`."""
    archive = Archive(folder, cache=False)
    ingest_paths(archive, sorted((SHARED / "en").glob("*.txt")))
    extend_archive(archive, releases - len(archive.releases("en")), seed)
    return archive


def extend_archive(archive: Archive, count: int, seed: int = 10) -> list[Release]:
    """Add `count` synthetic English releases after the newest one; return them."""
    rng = random.Random(seed)
    newest = archive.releases("en")[-1]
    document = archive.load(newest)
    date = newest.effective_date
    added = []
    for step in range(count):
        date += dt.timedelta(days=7)
        document = replace(_edit(document, rng), effective_date=date)
        added.append(_store(archive, document, f"S{step:03d}", f"Synthetic update {step + 1}"))
    return added


def _edit(document: Document, rng: random.Random) -> Document:
    rules = list(document.rules)
    for _ in range(rng.randint(1, 6)):
        kind = rng.choices(["reword", "add", "remove", "insert"], weights=[60, 15, 15, 10])[0]
        {"reword": _reword, "add": _add, "remove": _remove, "insert": _insert}[kind](rules, rng)
    glossary = list(document.glossary)
    if glossary and rng.random() < 0.2:
        index = rng.randrange(len(glossary))
        entry = glossary[index]
        glossary[index] = GlossaryEntry(entry.term, _reworded(entry.text, rng))
    return replace(document, rules=tuple(rules), glossary=tuple(glossary))


def _reworded(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    if len(words) < 4:
        return text + " This applies."
    position = rng.randrange(1, len(words))
    words[position] = rng.choice(["each", "that", "another", "the", "any", "a", "its"])
    return " ".join(words)


def _reword(rules: list[Rule], rng: random.Random) -> None:
    index = rng.randrange(len(rules))
    rule = rules[index]
    rules[index] = Rule(rule.number, _reworded(rule.text, rng), rule.examples)


def _families(rules: list[Rule]) -> dict[str, list[int]]:
    """Positions of each rule's sub-rules ('702.19' -> positions of 702.19a, 702.19b, ...)."""
    found: dict[str, list[int]] = {}
    for position, rule in enumerate(rules):
        match = _SUB_RULE.match(rule.number)
        if match and match.group(2) in LETTERS:
            found.setdefault(match.group(1), []).append(position)
    last = LETTERS[-1]
    return {base: spots for base, spots in found.items() if rules[spots[-1]].number[-1] != last}


def _next_letter(rule: Rule) -> str:
    return LETTERS[LETTERS.index(rule.number[-1]) + 1]


def _sentence(rules: list[Rule], rng: random.Random) -> str:
    return rng.choice(rules).text.split(". ")[0].rstrip(".") + "."


def _add(rules: list[Rule], rng: random.Random) -> None:
    base, spots = rng.choice(sorted(_families(rules).items()))
    letter = _next_letter(rules[spots[-1]])
    rules.insert(spots[-1] + 1, Rule(f"{base}{letter}", _sentence(rules, rng)))


def _remove(rules: list[Rule], rng: random.Random) -> None:
    _base, spots = rng.choice(sorted(_families(rules).items()))
    if len(spots) > 1:
        del rules[spots[-1]]


def _insert(rules: list[Rule], rng: random.Random) -> None:
    """Insert a sub-rule in the middle of its rule: the ones after it move up a letter."""
    base, spots = rng.choice(sorted(_families(rules).items()))
    at = rng.randrange(len(spots))
    number = rules[spots[at]].number
    for position in reversed(spots[at:]):
        rule = rules[position]
        rules[position] = replace(rule, number=f"{base}{_next_letter(rule)}")
    rules.insert(spots[at], Rule(number, _sentence(rules, rng)))


def _store(archive: Archive, document: Document, set_code: str, set_name: str) -> Release:
    raw = render_rules_text(document).encode()
    digest = hashlib.sha256(raw).hexdigest()
    assert document.effective_date is not None
    release = Release(
        "en",
        document.effective_date,
        set_code,
        set_name,
        len(document.rules),
        len(document.glossary),
        digest,
        Provenance(f"synthetic-{document.effective_date}.txt", digest, "txt", "utf-8"),
        (),
    )
    archive.save(release, document, raw)
    return release


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dest", type=Path)
    parser.add_argument("--releases", type=int, default=500)
    parser.add_argument("--seed", type=int, default=10)
    options = parser.parse_args()
    archive = make_archive(options.dest, options.releases, options.seed)
    print(f"{len(archive.releases('en'))} English releases in {options.dest}")


if __name__ == "__main__":
    main()
