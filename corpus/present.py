"""Plain data views of releases and rules for JSON and text output."""

from __future__ import annotations

from rulesarchive.corpus.model import Release, Rule


def release_label(release: Release) -> dict:
    """Return the fields that name a release: language, date and set."""
    return {
        "language": release.language,
        "effective_date": release.effective_date.isoformat(),
        "set_code": release.set_code,
        "set_name": release.set_name,
    }


def release_summary(release: Release) -> dict:
    """Return the JSON object `rulesarchive releases` prints for one release."""
    return {
        **release_label(release),
        "rule_count": release.rule_count,
        "glossary_count": release.glossary_count,
        "flags": list(release.flags),
        "source": release.source.name,
        "sha256": release.source.sha256,
        "encoding": release.source.encoding,
    }


def rule_view(rule: Rule, release: Release) -> dict:
    """Return the JSON object `rulesarchive rule` prints."""
    return {
        "number": rule.number,
        "text": rule.printed_text,
        "examples": list(rule.printed_examples),
        "normalised_text": rule.text,
        "normalised_examples": list(rule.examples),
        "language": release.language,
        "effective_date": release.effective_date.isoformat(),
        "set_code": release.set_code,
        "set_name": release.set_name,
    }
