"""The JSON and text forms of what `releases` and `rule` print, and the fields that name a
release in every other report. Apart from the reports of diffs: printing a rule needs none of
the differ's word diffing."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from rulesarchive.corpus.model import DocKind, GlossaryEntry, Heading, Release, Rule, example_label
from rulesarchive.system.lazy import lazy_module

if TYPE_CHECKING:  # the JSON's types are the type checker's (thirty TypedDicts to build)
    import orjson
    from rulesarchive.differ import glossary
    from rulesarchive.differ.report_types import (
        EntryJson,
        HeadingJson,
        ReleaseJson,
        ReleaseLabel,
        RuleJson,
        RuleViewJson,
    )
else:  # loaded by the first JSON printed: `rule` and `releases` print text by default
    orjson = lazy_module("orjson")
    glossary = lazy_module("rulesarchive.differ.glossary")  # a term's key, for its id


def json_text(data: object) -> str:
    """Render data as every command prints JSON (indented, UTF-8 kept, a final newline).

    The bytes of `json.dumps(data, indent=2, ensure_ascii=False)`, from orjson: the standard
    library indents in Python, a fifteenth of the speed (the JSON API's changelogs and checks).
    """
    return orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS).decode() + "\n"


def compact_json(data: object) -> str:
    """Render data as JSON without spaces, UTF-8 kept (`json.dumps`'s bytes with
    `separators=(",", ":"), ensure_ascii=False`)."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


def release_label(release: Release) -> ReleaseLabel:
    """Return the fields that name a release: language, date and set."""
    return {
        "language": release.language,
        "effective_date": release.effective_date.isoformat(),
        "set_code": release.set_code,
        "set_name": release.set_name,
    }


def release_summary(release: Release) -> ReleaseJson:
    """Return the JSON object `rulesarchive releases` prints for one release."""
    label, source = release_label(release), release.source
    flags = list(release.flags)
    if release.kind == DocKind.CR:
        return {
            **label,
            "rule_count": release.rule_count,
            "glossary_count": release.glossary_count,
            "flags": flags,
            "source": source.name,
            "sha256": source.sha256,
            "encoding": source.encoding,
        }
    return {
        **label,
        "doc": release.kind.value,
        "section_count": release.section_count,
        "flags": flags,
        "source": source.name,
        "sha256": source.sha256,
        "encoding": source.encoding,
    }


def rule_view(rule: Rule, release: Release) -> RuleViewJson:
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


def releases_text(releases: Iterable[Release]) -> str:
    """Render releases one a line: language, date, set, counts and flags."""
    lines = []
    for release in releases:
        flags = f"  [{', '.join(release.flags)}]" if release.flags else ""
        if release.kind != DocKind.CR:  # a tournament document: no set, sections for rules
            lines.append(
                f"{release.kind:4} {release.language:3} {release.effective_date}  "
                f"{release.section_count:4} sections  {release.source.name}{flags}\n"
            )
            continue
        lines.append(
            f"{release.language:8} {release.effective_date}  {release.set_code:5} "
            f"{release.set_name:45} "
            f"{release.rule_count:5} rules {release.glossary_count:4} glossary{flags}\n"
        )
    return "".join(lines)


def rule_text(rule: Rule, release: Release) -> str:
    """Render a rule as printed, with its examples and the release it is from."""
    view = rule_view(rule, release)
    lines = [f"{view['number']} {view['text']}"]
    lines += [f"  {example_label(release.language)}{example}" for example in view["examples"]]
    named = (
        release.kind.upper()
        if release.kind != DocKind.CR
        else f"{release.set_name} ({release.set_code})"
    )
    lines.append(f"  -- {named}, effective {release.effective_date}")
    return "\n".join(lines) + "\n"


def heading_data(heading: Heading, ids: Mapping[str, str] | None = None) -> HeadingJson:
    """Return a heading as a release's JSON (`export json`, the site's API) gives it, with
    its permanent id where `ids` (by number) has one."""
    data: HeadingJson = {"number": heading.number, "title": heading.title}
    if ids and heading.number in ids:
        data["id"] = ids[heading.number]
    return data


def rule_data(line_id: str, rule: Rule, english_id: str | None = None) -> RuleJson:
    """Return a rule of a release, with its permanent id (and a translated rule's English
    rule's), as a release's JSON gives it."""
    data: RuleJson = {
        "number": rule.number,
        "id": line_id,
        "text": rule.printed_text,
        "examples": list(rule.printed_examples),
    }
    # The normalised forms (what the differ compares) only where the printing differs.
    if rule.original:
        data["normalised_text"] = rule.text
    if rule.original_examples:
        data["normalised_examples"] = list(rule.examples)
    if english_id is not None:
        data["english_id"] = english_id
    return data


def entry_data(entry: GlossaryEntry, ids: Mapping[str, str] | None = None) -> EntryJson:
    """Return a glossary entry as a release's JSON gives it, with its term's permanent id
    where `ids` (by term key) has one."""
    data: EntryJson = {"term": entry.term, "text": entry.printed_text}
    if entry.original:
        data["normalised_text"] = entry.text
    if ids and (line_id := ids.get(glossary.term_key(entry.term))):
        data["id"] = line_id
    return data
