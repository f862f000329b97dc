"""Every release of the real archive loads from its compact cached form as from its JSON."""

from __future__ import annotations

import json

from rulesarchive.corpus.store import document_from_json


def test_every_release_loads_from_its_cached_form_as_from_its_json(ingested):
    archive, _ = ingested
    releases = archive.releases()
    assert {release.language for release in releases} == {"en", "zh-Hans", "ko"}
    assert len(releases) > 160  # the English TXT, the originals' own dates, the translations
    # the Korean releases' omitted glossary survives the cached form
    assert all(archive.load(release).glossary_omitted for release in archive.releases("ko"))
    for release in releases:
        path = archive.root / release.key / "document.json"
        expected = document_from_json(json.loads(path.read_text(encoding="utf-8")))
        archive.load(release)  # writes the cached form where no earlier load did
        loaded = archive.load(release)  # read from it
        assert loaded == expected, release.key
        # Interned as the JSON reader interns them: the same string objects, not copies
        # (the printed forms are plain in both: equal, compared by value).
        for got, want in zip(loaded.rules, expected.rules, strict=True):
            assert got.number is want.number and got.text is want.text, release.key
            assert all(a is b for a, b in zip(got.examples, want.examples, strict=True))
    kept = {row.kind: row.entries for row in archive.derived.summary()}
    assert kept["document"] >= len(releases)
