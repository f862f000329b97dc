"""A small archive for site tests: the shipped sample plus one release written to provoke the
builder (a rule whose text is markup, a citation of a rule that does not exist)."""

from __future__ import annotations

import datetime as dt
import hashlib
import shutil
from dataclasses import replace
from pathlib import Path

from corpus.model import Release, Rule, Source
from corpus.store import Archive, render_rules_text
from site_builder.serve import sample_archive

HOSTILE = 'A card named "<script>alert(1)</script>" is only text; see rule 999.99 and rule 400.6.'
EXTRA_DATE = dt.date(2019, 5, 3)


def fixture_archive(folder: Path) -> Archive:
    """Copy the sample archive into `folder` and add the provoking release."""
    shutil.copytree(sample_archive(), folder)
    archive = Archive(folder)
    newest = archive.releases("en")[-1]
    document = archive.load(newest)
    rules = (*document.rules, Rule("400.9", HOSTILE))
    document = replace(document, effective_date=EXTRA_DATE, rules=rules)
    raw = render_rules_text(document).encode()
    digest = hashlib.sha256(raw).hexdigest()
    release = Release(
        "en",
        EXTRA_DATE,
        "WAR",
        "War of the Spark",
        len(rules),
        len(document.glossary),
        digest,
        Source("fixture.txt", digest, "txt", "utf-8"),
        ("sample",),
    )
    archive.save(release, document, raw)
    return archive
