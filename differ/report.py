"""The JSON and text forms of what the commands print: release diffs, rule histories,
reference checks and translation reports (JSON-ready data, text and Markdown); releases and
rules are in `release_report`."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rulesarchive.corpus.model import DocKind, Release, example_label
from rulesarchive.corpus.numbers import PART
from rulesarchive.differ.kinds import (
    RENUMBERING,
    GlossaryKind,
    Kind,
    ParagraphKind,
    Place,
    TranslationStatus,
)
from rulesarchive.differ.release_report import release_label
from rulesarchive.differ.texts import wording_phrases
from rulesarchive.system.lazy import lazy_module

if TYPE_CHECKING:  # the results' modules are loaded by the commands that make them
    from rulesarchive.differ.changes import Change
    from rulesarchive.differ.classify import ReleaseDiff
    from rulesarchive.differ.glossary import GlossaryChange
    from rulesarchive.differ.history import History
    from rulesarchive.differ.references import LanguageCheck, Problem, ReleaseCheck
    from rulesarchive.differ.report_types import (
        ChangeJson,
        CheckHistoryJson,
        CheckJson,
        CompareJson,
        DiffJson,
        FollowJson,
        GlossaryChangeJson,
        HistoryJson,
        ParagraphJson,
        PhraseJson,
        ProblemJson,
        ReleaseLabel,
        RenderingJson,
        SweepJson,
        TranslationJson,
        VersionJson,
    )
    from rulesarchive.differ.translation_compare import Follow, Rendering, RuleTranslations
    from rulesarchive.differ.translations import TranslationReport
    from rulesarchive.differ.words import Phrase

# What only a release diff's report uses (a history's or a check's does not load it).
if TYPE_CHECKING:
    from rulesarchive.differ import glossary as glossary_terms
    from rulesarchive.differ import headings as heading_titles
    from rulesarchive.differ import renumbering as shifts
    from rulesarchive.differ import sections as section_texts
else:
    glossary_terms = lazy_module("rulesarchive.differ.glossary")
    heading_titles = lazy_module("rulesarchive.differ.headings")
    shifts = lazy_module("rulesarchive.differ.renumbering")
    section_texts = lazy_module("rulesarchive.differ.sections")

_ORDER = {kind: index for index, kind in enumerate(Kind)}
_GROUPED = {Kind.TYPOGRAPHY, Kind.TRUNCATION}  # one line each, with their rule lists
_GROUPED_GLOSSARY = {GlossaryKind.TYPOGRAPHY, GlossaryKind.TRUNCATION}


def diff_data(
    old: Release, new: Release, diff: ReleaseDiff, fixes: dict[str, tuple[str, ...]] | None = None
) -> DiffJson:
    """Return the deterministic JSON form of a release diff (unchanged rules left out).

    `fixes` holds, by rule number in `new`, the citations it put right (see differ.references).
    """
    fixes = fixes or {}
    changes = sorted(
        (change for change in diff.changes if change.kind != Kind.UNCHANGED),
        key=lambda change: _ORDER[change.kind],
    )
    headings = [change for change in diff.headings if change.kind != Kind.UNCHANGED]
    sectioned = new.kind != DocKind.CR
    data: DiffJson = {
        "old": release_label(old),
        "new": release_label(new),
        "counts": _counts(diff),
        "changes": [_change_data(change, fixes, paragraphs=sectioned) for change in changes]
        + [_change_data(change, {}, heading=True) for change in headings],
        "renumbering": [
            {"old": a, "new": b}
            for a, b in (*diff.renumbering, *heading_titles.heading_moves(diff.headings))
        ],
        "sweeps": [
            {"old": s.old, "new": s.new, "rules": list(s.rules), "glossary": list(s.glossary)}
            for s in diff.sweeps
        ],
        "splits": [{"old": list(s.old), "new": list(s.new)} for s in diff.splits],
        "merges": [{"old": list(s.old), "new": list(s.new)} for s in diff.merges],
        "glossary": [_glossary_data(change, fixes) for change in diff.glossary],
    }
    return {"doc": str(new.kind), **data} if sectioned else data


GLOSSARY_SECTION = "glossary"  # what `--section` names the glossary by


def selected(data: DiffJson, kinds: Iterable[str] = (), section: str | None = None) -> DiffJson:
    """Keep of diff data only the changes of some kinds and in one section, chapter or rule
    (`section`: '7', '702', '702.19', or 'glossary'; a tournament document's '3', '3.4',
    '3.4/definition', 'B'); `counts` stays the whole diff's.

    Sweeps keep their rules in the section (and their glossary entries with 'glossary'); the
    renumbering, splits and merges are kept with `renumbering` among the kinds.
    """
    picked = set(kinds)

    def wanted(kind: str) -> bool:
        return kind in picked if picked else True

    def inside(number: str) -> bool:
        return _within(number, section) if section else True

    glossary = section in {None, GLOSSARY_SECTION}
    rules = section != GLOSSARY_SECTION
    chosen = data.copy()
    chosen["changes"] = [
        change
        for change in data["changes"]
        if rules
        and wanted(change["kind"])
        and any(inside(n) for n in (change["old_number"], change["new_number"]) if n)
    ]
    chosen["glossary"] = [c for c in data["glossary"] if glossary and wanted(c["kind"])]
    sweeps: list[SweepJson] = []
    for sweep in data["sweeps"] if wanted(Kind.SWEEP) else ():
        kept: SweepJson = {
            **sweep,
            "rules": [n for n in sweep["rules"] if rules and inside(n)],
            "glossary": sweep["glossary"] if glossary else [],
        }
        if kept["rules"] or kept["glossary"]:
            sweeps.append(kept)
    chosen["sweeps"] = sweeps
    moved = wanted(RENUMBERING) and rules
    chosen["renumbering"] = [
        m for m in data["renumbering"] if moved and (inside(m["old"]) or inside(m["new"]))
    ]
    chosen["splits"], chosen["merges"] = (
        [
            split
            for split in splits
            if moved and any(inside(n) for n in (*split["old"], *split["new"]))
        ]
        for splits in (data["splits"], data["merges"])
    )
    return chosen


def _within(number: str, section: str) -> bool:
    """Tell whether a number is a section, chapter or rule or lies beneath it: a CR's (section
    7 holds 702.19b, chapter 702 holds 702.19, rule 702.19 holds 702.19b) or a tournament
    document's (section 3 holds 3.4, section 3.4 its parts 3.4/definition, ...)."""
    if number == section:
        return True
    if not number.startswith(section):
        return False
    rest = number[len(section) :]
    if rest[0] == PART:
        return True
    if len(section) == 1:  # a CR's 7 holds 702.19b; an MTR's 1 holds 1.1, not 10.1
        return rest[0] == "." or number[:3].isdigit()
    if len(section) == 3 and section.isdigit():
        return rest[0] == "."
    return rest[0].isalpha() or (rest[0] == "." and "." not in section)


def _glossary_data(change: GlossaryChange, fixes: dict[str, tuple[str, ...]]) -> GlossaryChangeJson:
    return {
        "kind": change.kind,
        "old_term": change.old_term,
        "new_term": change.new_term,
        "old_text": change.old_text,
        "new_text": change.new_text,
        "phrases": _phrases(change.phrases),
        "fixes": list(fixes.get(f"Glossary: {change.new_term or ''}", ())),  # references.GLOSSARY
    }


def _change_data(
    change: Change,
    fixes: dict[str, tuple[str, ...]],
    heading: bool = False,
    paragraphs: bool = False,
) -> ChangeJson:
    """A change's JSON; a tournament section's (`paragraphs`) adds its paragraphs added,
    removed and reworded."""
    data: ChangeJson = {
        "kind": change.kind,
        "heading": heading,
        "old_number": change.old_number,
        "new_number": change.new_number,
        "moved": change.moved,
        "old_text": change.old_text,
        "new_text": change.new_text,
        "phrases": _phrases(change.phrases),
        "old_examples": list(change.old_examples),
        "new_examples": list(change.new_examples),
        "example_phrases": _phrases(
            phrase for diff in change.example_diffs for phrase in wording_phrases(diff)
        ),
        "fixes": list(fixes.get(change.new_number or "", ())),
    }
    if paragraphs:
        data["paragraphs"] = _paragraphs_data(change.old_text, change.new_text, change.kind)
    return data


def _paragraphs_data(old: str, new: str, kind: Kind) -> list[ParagraphJson]:
    """The paragraphs a change of a section added, removed or reworded (none listed for a
    section added or removed whole: its text says it)."""
    if kind in {Kind.ADDED, Kind.REMOVED, Kind.UNCHANGED, Kind.TYPOGRAPHY}:
        return []
    return [
        {"kind": p.kind, "old": p.old, "new": p.new, "phrases": _phrases(p.phrases)}
        for p in section_texts.paragraph_changes(old, new)
    ]


def _phrases(phrases: Iterable[Phrase]) -> list[PhraseJson]:
    return [{"old": phrase.old, "new": phrase.new} for phrase in phrases]


def _counts(diff: ReleaseDiff) -> dict[str, int]:
    counts = Counter(str(change.kind) for change in diff.changes)
    counts[Kind.UNCHANGED] += diff.unchanged
    return dict(sorted(counts.items()))


def diff_text(data: DiffJson, markdown: bool = False) -> str:
    """Render diff data as a changelog: substantive first, grouped kinds on one line each."""
    old, new = data["old"], data["new"]
    title = f"{_name(old)} → {_name(new)}"
    if "doc" in data:  # a tournament document: 'IPG 2017-09-29 → 2018-01-19'
        title = f"{data['doc'].upper()} {title}"
    lines = [f"# {title}" if markdown else title, ""]
    counts = ", ".join(
        f"{n} {kind}" for kind, n in data["counts"].items() if kind != Kind.UNCHANGED
    )
    lines += [counts or "no changes", ""]
    grouped: dict[str, list[str]] = {}
    for change in data["changes"]:
        number = _number(change)
        if change["heading"]:
            continue  # sections and chapters are listed together below
        if change["kind"] == Kind.SWEEP:
            continue  # listed once per phrase below, from data["sweeps"]
        if change["kind"] in _GROUPED:
            grouped.setdefault(change["kind"], []).append(number)
            continue
        lines.append(_change_line(change, markdown))
    for sweep in data["sweeps"]:
        lines.append(f"{'- ' if markdown else ''}{_sweep_line(sweep)}")
    for kind, numbers in sorted(grouped.items()):
        lines.append(
            f"{'- ' if markdown else ''}{kind}: {len(numbers)} rules ({_short_list(numbers)})"
        )
    for name, splits in (("split", data["splits"]), ("merge", data["merges"])):
        for split in splits:
            lines.append(
                f"{'- ' if markdown else ''}{name}: {', '.join(split['old'])} → "
                f"{', '.join(split['new'])}"
            )
    lines += _heading_lines([c for c in data["changes"] if c["heading"]], markdown)
    lines += _glossary_lines(data["glossary"], markdown)
    moves = [(m["old"], m["new"]) for m in data["renumbering"]]
    if moves:
        lines += ["", "## Renumbering" if markdown else "Renumbering:"]
        lines += [
            f"{'- ' if markdown else '  '}{shifts.shift_text(shift)}"
            for shift in shifts.summarise_renumbering(moves)
        ]
    return "\n".join(lines).rstrip() + "\n"


def _sweep_line(sweep: SweepJson) -> str:
    """One line per sweep: the edit, and the rules and glossary entries it was made in."""
    places = []
    if sweep["rules"]:
        count = len(sweep["rules"])
        places.append(f"{count} rule{'s' * (count > 1)} ({', '.join(sweep['rules'])})")
    if sweep["glossary"]:
        count = len(sweep["glossary"])
        places.append(
            f"{count} glossary entr{'ies' if count > 1 else 'y'} ({'; '.join(sweep['glossary'])})"
        )
    return f"sweep: “{sweep['old']}” → “{sweep['new']}” in {' and '.join(places)}"


def _heading_lines(changes: list[ChangeJson], markdown: bool) -> list[str]:
    """Sections and chapters added, removed or renamed (retitled in print only: one line)."""
    bullet = "- " if markdown else "  "
    lines: list[str] = []
    retyped = [_number(c) for c in changes if c["kind"] in _GROUPED]
    for change in changes:
        if change["kind"] == Kind.ADDED:
            lines.append(f"{bullet}added {change['new_number']}. {change['new_text']}")
        elif change["kind"] == Kind.REMOVED:
            lines.append(f"{bullet}removed {change['old_number']}. {change['old_text']}")
        elif change["kind"] not in _GROUPED:
            number = change["new_number"]
            if change["moved"]:
                number = f"{change['old_number']} → {change['new_number']}"
            lines.append(
                f"{bullet}renamed {number}: “{change['old_text']}” → “{change['new_text']}”"
            )
    if retyped:
        lines.append(f"{bullet}typography: {len(retyped)} headings ({_short_list(retyped)})")
    if not lines:
        return []
    return ["", "## Sections and chapters" if markdown else "Sections and chapters:", *lines]


def _glossary_lines(changes: list[GlossaryChangeJson], markdown: bool) -> list[str]:
    """One line per entry: added, removed, renamed (and how its definition changed), changed;
    a sweep's entries are named on its line, typography and truncation counted."""
    bullet = "- " if markdown else "  "
    lines: list[str] = []
    retyped = [c["new_term"] for c in changes if c["kind"] in _GROUPED_GLOSSARY]
    for change in changes:
        old, new, kind = change["old_term"], change["new_term"], change["kind"]
        if kind in {GlossaryKind.ADDED, GlossaryKind.REMOVED} or old is None or new is None:
            lines.append(f"{bullet}{kind} {new or old}")  # only these lack a term
            continue
        renamed = not glossary_terms.same_term(old, new)
        if kind in _GROUPED_GLOSSARY or (kind == GlossaryKind.SWEEP and not renamed):
            continue
        line = f"renamed {old} → {new}" if renamed else f"{kind} {new}"
        if kind != GlossaryKind.RENAMED:
            phrases = _phrase_list(change["phrases"])
            if change["fixes"]:
                phrases += f"; fixes the citation of {', '.join(change['fixes'])}"
            line += f"; {kind}: {phrases}" if renamed else f": {phrases}"
        lines.append(bullet + line)
    if retyped:
        lines.append(f"{bullet}typography or truncation: {len(retyped)} entries")
    if not lines:
        return []
    return ["", "## Glossary" if markdown else "Glossary:", *lines]


def _number(change: ChangeJson) -> str:
    """The number a change is listed by: its new one, or its old one if it was removed."""
    number = change["new_number"] or change["old_number"]
    assert number is not None, "a change has a number before or after it"
    return number


def _change_line(change: ChangeJson, markdown: bool) -> str:
    number = _number(change)
    if change["moved"]:
        number = f"{change['old_number']} → {change['new_number']}"
    bullet = "- " if markdown else ""
    if change["kind"] in {Kind.ADDED, Kind.REMOVED}:
        text = _one_line(change["new_text"] or change["old_text"])
        return f"{bullet}{change['kind']} {number}: {text}"
    if change.get("paragraphs"):
        return "\n".join(
            [f"{bullet}{change['kind']} {number}:", *_paragraph_lines(change["paragraphs"])]
        )
    parts = [_phrase_list(change["phrases"])] if change["phrases"] else []
    if change["example_phrases"]:
        parts.append(f"in examples: {_phrase_list(change['example_phrases'])}")
    if change["fixes"]:
        parts.append(f"fixes the citation of {', '.join(change['fixes'])}")
    return f"{bullet}{change['kind']} {number}: {'; '.join(parts)}"


def _paragraph_lines(paragraphs: list[ParagraphJson], indent: str = "    ") -> list[str]:
    """A line per paragraph of a section added ('+ ¶'), removed ('- ¶') or reworded ('~ ¶',
    with its edits)."""
    lines = []
    for paragraph in paragraphs:
        if paragraph["kind"] == ParagraphKind.ADDED:
            lines.append(f"{indent}+ ¶ {paragraph['new']}")
        elif paragraph["kind"] == ParagraphKind.REMOVED:
            lines.append(f"{indent}- ¶ {paragraph['old']}")
        else:
            lines.append(f"{indent}~ ¶ {_phrase_list(paragraph['phrases'])}")
    return lines


def _phrase_list(phrases: list[PhraseJson]) -> str:
    return "; ".join(f"“{_one_line(p['old'])}” → “{_one_line(p['new'])}”" for p in phrases)


def _one_line(text: str) -> str:
    """A text on one line: an old glossary's numbered meanings joined by ' ¶ '."""
    return " ¶ ".join(text.splitlines()) if "\n" in text else text


def _name(release: ReleaseLabel) -> str:
    named = f"{release['set_name']} ({release['set_code']}) {release['effective_date']}"
    return named.replace(" () ", " ").strip()


def _short_list(numbers: list[str], limit: int = 12) -> str:
    shown = ", ".join(numbers[:limit])
    return shown + (f", … {len(numbers) - limit} more" if len(numbers) > limit else "")


def history_data(history: History, kind: DocKind = DocKind.CR) -> HistoryJson:
    """Return the JSON form of a rule history, oldest version first; a tournament section's
    (`kind`) names its document and each version's paragraphs added, removed and reworded."""
    data: HistoryJson = {
        "rule": history.rule,
        "numbers": list(history.numbers),
        "versions": [
            {
                "effective_date": _date(v.effective_date),
                "until": _date(v.until),
                "releases": v.releases,
                "set_code": v.set_code,
                "set_name": v.set_name,
                "number": v.number,
                "text": v.text,
                "examples": list(v.examples),
                "kind": v.kind,
                "phrases": _phrases(v.phrases),
                "example_phrases": _phrases(v.example_phrases),
                "compared_with": _date(v.compared_with),
                "split_from": v.split_from,
                "merged_from": list(v.merged_from),
            }
            for v in history.versions
        ],
    }
    if kind == DocKind.CR:
        return data
    for version, told in zip(data["versions"], history.versions, strict=True):
        version["paragraphs"] = _paragraphs_data(*section_texts.texts_of(told.diff), told.kind)
    return {"doc": str(kind), **data}


def _date(day: dt.date | None) -> str | None:
    return day.isoformat() if day else None


_QUIET = {Kind.UNCHANGED, Kind.TYPOGRAPHY, Kind.TRUNCATION}  # no change in wording: folded


def history_text(
    data: HistoryJson, every_release: list[ReleaseLabel] | None = None, language: str = "en"
) -> str:
    """Render a rule history: the current text (its examples labelled as a document of
    `language` prints them), the numbers it held and since when, then its versions newest
    first, each renumbering named where it happened.

    Runs of versions that did not change the wording fold into one line; with
    `every_release` (release labels, oldest first) each release gets a line instead.
    """
    versions = data["versions"]
    current = versions[-1]
    renumbered = _renumberings(versions)
    lines = [f"{current['number']} {current['text']}"]
    lines += [f"  {example_label(language)}{example}" for example in current["examples"]]
    held = _numbers_held(versions)
    if len(held) > 1:
        lines.append("numbers: " + " ← ".join(f"{n} (from {since})" for n, since in held[::-1]))
    lines.append("")
    if every_release is not None:
        return "\n".join(lines + _every_release(versions, every_release, renumbered)) + "\n"
    quiet: list[int] = []
    for index in reversed(range(len(versions))):
        if versions[index]["kind"] in _QUIET and index and not _origin(versions[index]):
            quiet.append(index)
            continue
        if quiet:
            lines.append(_folded(versions, quiet, renumbered))
            quiet = []
        lines += _version_lines(versions[index], renumbered.get(index))
    if quiet:
        lines.append(_folded(versions, quiet, renumbered))
    return "\n".join(lines) + "\n"


def _renumberings(versions: list[VersionJson]) -> dict[int, str]:
    """Say, by version index (oldest first), how the number changed there ('702.18b →
    702.19b'): the versions whose number is not their predecessor's."""
    return {
        index: f"{versions[index - 1]['number']} → {version['number']}"
        for index, version in enumerate(versions)
        if index and version["number"] != versions[index - 1]["number"]
    }


def _numbers_held(versions: list[VersionJson]) -> list[tuple[str, str]]:
    """Every number the rule held, oldest first, with the date it took it."""
    held: list[tuple[str, str]] = []
    for version in versions:
        if not held or held[-1][0] != version["number"]:
            held.append((version["number"], version["effective_date"] or "current"))
    return held


def _version_lines(version: VersionJson, renumbered: str | None = None) -> list[str]:
    span = _span(version["effective_date"], version["until"])
    if version["releases"] > 1:
        span += f" ({_releases(version['releases'])})"
    kind: str = version["kind"]
    if renumbered:
        kind = (
            f"renumbered {renumbered}"
            if kind == Kind.UNCHANGED
            else f"{kind}, renumbered {renumbered}"
        )
    label = " · ".join(
        part
        for part in (span, _set_label(version), version["number"], kind, _origin(version))
        if part
    )
    lines = [label]
    if version.get("paragraphs"):
        return lines + _paragraph_lines(version["paragraphs"])
    lines += [f"    “{p['old']}” → “{p['new']}”" for p in version["phrases"]]
    lines += [f"    in examples: “{p['old']}” → “{p['new']}”" for p in version["example_phrases"]]
    return lines


def _origin(version: VersionJson) -> str:
    """'split from 100.2' or 'merged from 705.1, 705.2' (a scraped history has neither)."""
    if version.get("split_from"):
        return f"split from {version['split_from']}"
    if version.get("merged_from"):
        return f"merged from {', '.join(version['merged_from'])}"
    return ""


def _folded(versions: list[VersionJson], quiet: list[int], renumbered: dict[int, str]) -> str:
    """One line for a run of versions (indexes, newest first) that kept the wording, naming
    each renumbering in it and when (702.98c → 702.99c on 2021-04-22): a citation's number
    at a date is what readers come for."""
    newest, oldest = versions[quiet[0]], versions[quiet[-1]]
    releases = sum(versions[index]["releases"] for index in quiet)
    kinds = Counter(
        versions[index]["kind"] for index in quiet if versions[index]["kind"] != Kind.UNCHANGED
    )
    also = "".join(f", {n} {kind}" for kind, n in sorted(kinds.items()))
    span = _span(oldest["effective_date"], newest["until"])
    line = f"{span} · no change in wording ({_releases(releases)}{also})"
    moves = [
        f"{renumbered[index]} on {versions[index]['effective_date']}"
        for index in reversed(quiet)
        if index in renumbered
    ]
    if moves:
        line += " · renumbered " + ", ".join(moves)
    return line


def _span(first: str | None, last: str | None) -> str:
    if first is None:
        return "current"
    return first if last in {None, first} else f"{first} … {last}"


def _releases(count: int) -> str:
    return f"{count} release" if count == 1 else f"{count} releases"


def _set_label(release: ReleaseLabel | VersionJson) -> str:
    if release["set_code"]:
        return f"{release['set_name']} ({release['set_code']})"
    return release["set_name"]


def _every_release(
    versions: list[VersionJson], releases: list[ReleaseLabel], renumbered: dict[int, str]
) -> list[str]:
    """A line per release the rule was in, newest first; a renumbering is named, not called
    unchanged."""
    lines: list[str] = []
    for index in reversed(range(len(versions))):
        version = versions[index]
        since, until = version["effective_date"], version["until"]
        assert since is not None and until is not None, "a version of the archive has its dates"
        inside = [release for release in releases if since <= release["effective_date"] <= until]
        for release in reversed(inside):
            first = release["effective_date"] == version["effective_date"]
            shown = _version_lines(
                {
                    **version,
                    "effective_date": release["effective_date"],
                    "until": None,
                    "releases": 1,
                    "kind": version["kind"] if first else Kind.UNCHANGED,
                    "set_code": release["set_code"],
                    "set_name": release["set_name"],
                },
                renumbered.get(index) if first else None,
            )
            lines.append(shown[0])
            if first:
                lines += shown[1:]
    return lines


def translation_data(report: TranslationReport, only_stale: bool = False) -> TranslationJson:
    """Return the JSON form of a translation report (rules in the translation's order)."""
    stale = TranslationStatus.STALE
    rules = [rule for rule in report.rules if rule.status == stale or not only_stale]
    return {
        "language": report.release.language,
        "release": release_label(report.release),
        "base_release": release_label(report.base) if report.base else None,
        # the English release of the printed date, when the content translates another
        "printed_date_release": release_label(report.printed_date_release)
        if report.printed_date_release
        else None,
        "counts": report.counts,
        "rules": [
            {
                "number": rule.number,
                "status": rule.status,
                "stale_since": rule.stale_since.effective_date.isoformat()
                if rule.stale_since
                else None,
                "english_number": rule.english_number,
                "problems": list(rule.problems),
                "english_base_number": rule.english_base_number,  # issue 9: by content
            }
            for rule in rules
        ],
        "shifts": [  # issue 9: translated numbers that are not the English base's
            {"level": s.level, "translated": list(s.translated), "english": list(s.english)}
            for s in report.shifts
        ],
    }


def translation_text(data: TranslationJson) -> str:
    """Render a translation report: a summary line, then one line per rule needing a look."""
    base = data["base_release"]
    counts = ", ".join(f"{n} {status}" for status, n in data["counts"].items())
    lines = [
        f"{data['language']} {_name(data['release'])}: translates "
        + (f"en {_name(base)}" if base else "no English release in the archive"),
    ]
    if data["printed_date_release"]:
        assert base is not None, "a printed date's release is named beside the base"
        lines.append(
            f"printed {data['release']['effective_date']}; its content translates "
            f"en {base['effective_date']}, not en {_name(data['printed_date_release'])}"
        )
    lines += [counts, ""]
    for shift in data["shifts"]:  # issue 9: translated numbers not the English base's
        mine, theirs = _number_span(shift["translated"]), _number_span(shift["english"])
        lines.append(
            f"shift {mine}: " + (f"translates en {theirs}" if theirs else "not in the English base")
        )
    for rule in data["rules"]:
        if rule["status"] == TranslationStatus.STALE:
            moved = f" (now {rule['english_number']})" if rule["english_number"] else ""
            lines.append(f"stale {rule['number']}: English changed {rule['stale_since']}{moved}")
        elif rule["status"] in {TranslationStatus.MISSING, TranslationStatus.EXTRA}:
            lines.append(f"{rule['status']} {rule['number']}")
        for problem in rule["problems"]:
            lines.append(f"check {rule['number']}: {problem}")
    return "\n".join(lines).rstrip() + "\n"


def _number_span(numbers: list[str]) -> str:
    """Write a run of numbers as its first and last: '726–730'."""
    return "–".join(dict.fromkeys((numbers[0], numbers[-1]))) if numbers else ""


def check_data(check: ReleaseCheck) -> CheckJson:
    """Return the JSON form of one release's reference check."""
    release = check.release
    return {
        "language": release.language,
        "release": release_label(release),
        "references": [
            {
                "rule": ref.rule,
                "cites": ref.citation.named_from(release.kind.value),
                "in": ref.place,
            }
            for ref in check.references
        ],
        "problems": [_problem_data(problem) for problem in check.problems],
    }


def check_all_data(check: LanguageCheck) -> CheckHistoryJson:
    """Return the JSON form of every problem of every release, each with its life."""
    return {
        "language": check.language,
        "releases": [release_label(release) for release in check.releases],
        "references": sum(check.counts),
        "problems": [
            {
                **_problem_data(problem),
                "fixed": problem.fixed.effective_date.isoformat() if problem.fixed else None,
            }
            for problem in check.problems
        ],
    }


def _problem_data(problem: Problem) -> ProblemJson:
    return {
        "rule": problem.rule,
        "cites": problem.cites,
        "kind": problem.kind,
        "suggestion": problem.suggestion,
        "guess": problem.guess,
        "since": problem.since.effective_date.isoformat(),
        "in": problem.place,
    }


def check_text(data: CheckJson) -> str:
    """Render a release's check: a summary line, then one line per problem."""
    problems = data["problems"]
    lines = [
        f"{data['language']} {_name(data['release'])}: {len(data['references'])} references, "
        f"{_problem_count(problems)}",
        "",
    ]
    lines += [_problem_line(problem) for problem in problems]
    return "\n".join(lines).rstrip() + "\n"


def check_all_text(data: CheckHistoryJson) -> str:
    """Render every problem of every release, oldest first, with when it was fixed."""
    problems = data["problems"]
    open_now = sum(1 for problem in problems if problem["fixed"] is None)
    lines = [
        f"{data['language']}: {len(data['releases'])} releases, {data['references']} references, "
        f"{_problem_count(problems)} ({open_now} still open)",
        "",
    ]
    for problem in problems:
        fixed = f"fixed {problem['fixed']}" if problem["fixed"] else "open"
        lines.append(f"{problem['since']} → {fixed:16} {_problem_line(problem)}")
    return "\n".join(lines).rstrip() + "\n"


def _problem_count(problems: Sequence[ProblemJson]) -> str:
    if not problems:
        return "no problems"
    counts = Counter(problem["kind"] for problem in problems)
    return f"{len(problems)} problems (" + ", ".join(f"{n} {k}" for k, n in counts.items()) + ")"


def _problem_line(problem: ProblemJson) -> str:
    where = "" if problem["in"] != Place.EXAMPLE else " (in an example)"
    line = f"{problem['kind']} {problem['rule']}{where} cites {problem['cites']}"
    if problem["suggestion"]:
        guess = " (a guess)" if problem["guess"] else ""
        line += f", suggest {problem['suggestion']}{guess}"
    if "fixed" not in problem:
        line += f" [since {problem['since']}]"
    return line


def compare_data(compared: RuleTranslations) -> CompareJson:
    """Return the JSON form of an English rule beside its translations, across time."""
    return {
        "rule": compared.number,
        "release": release_label(compared.release),
        "numbers": list(compared.numbers),
        "changes": [
            {
                "release": release_label(change.release),
                "number": change.number,
                "kind": change.kind,
                "follows": [_follow_data(follow) for follow in change.follows],
            }
            for change in compared.changes
        ],
        "translations": [
            {
                "language": language,
                "releases": [_rendering_data(rendering) for rendering in renderings],
            }
            for language, renderings in compared.renderings
        ],
    }


def _follow_data(follow: Follow) -> FollowJson:
    return {
        "language": follow.language,
        "release": release_label(follow.release) if follow.release else None,
        "base_release": release_label(follow.base) if follow.base else None,
        "english_releases_later": follow.later,
        "status": follow.status,
        "reworded": follow.reworded,
        "first_release": follow.first,
    }


def _rendering_data(rendering: Rendering) -> RenderingJson:
    return {
        "release": release_label(rendering.release),
        "base_release": release_label(rendering.base),
        "english_number": rendering.english_number,
        "number": rendering.number,
        "status": rendering.status,
        "stale_since": _release_date(rendering.stale_since),
        "translates": _release_date(rendering.translates),
        "reworded": rendering.reworded,
    }


def _release_date(release: Release | None) -> str | None:
    return release.effective_date.isoformat() if release else None


def compare_text(data: CompareJson) -> str:
    """Render an English rule beside its translations: each English change and who followed
    it, then each translation release by release."""
    languages = [track["language"] for track in data["translations"]]
    lines = [
        f"en {data['rule']} ({_name(data['release'])}) beside "
        + (", ".join(languages) or "no translation"),
        f"English numbers: {', '.join(data['numbers'])}",
        "",
        "English changes since the first translated release:" if data["changes"] else "",
    ]
    newest = {
        track["language"]: track["releases"][-1]
        for track in data["translations"]
        if track["releases"]
    }
    for change in data["changes"]:
        release = change["release"]
        lines.append(f"{_name(release)} · {change['number']} · {change['kind']}")
        for follow in change["follows"]:
            lines.append(f"  {_follow_text(follow, newest.get(follow['language']))}")
    if not data["changes"]:
        lines.append("No English change since the first translated release.")
    for track in data["translations"]:
        lines += ["", f"{track['language']}, release by release:"]
        lines += [_rendering_text(rendering) for rendering in track["releases"]]
    return "\n".join(lines).rstrip() + "\n"


def _follow_text(follow: FollowJson, newest: RenderingJson | None) -> str:
    """One translation's answer to one English change, in a line (`newest`: the language's
    newest release against the rule)."""
    language = follow["language"]
    if follow["release"] is None:
        if newest is None:
            return f"{language}: not yet"
        date, base = newest["release"]["effective_date"], newest["base_release"]["effective_date"]
        return f"{language}: not yet (its newest release, {date}, translates en {base})"
    assert follow["base_release"] is not None, "a translated release translates a base"
    if follow["first_release"]:
        date, base = follow["release"]["effective_date"], follow["base_release"]["effective_date"]
        return f"{language}: its first release, {date}, translates en {base}: after this change"
    later = follow["english_releases_later"]
    said_when: dict[int | None, str] = {0: "the same English release", 1: "1 English release later"}
    when = said_when.get(later, f"{later} English releases later")
    base = follow["base_release"]["effective_date"]
    said = {True: "; reworded", False: "; wording unchanged", None: ""}[follow["reworded"]]
    status = follow["status"]
    done = f"not translated in {language}" if status == TranslationStatus.MISSING else "followed"
    if status is None:
        done = "followed (gone from its English base)"
    date = follow["release"]["effective_date"]
    return f"{language}: {done} in {date} (translates en {base}, {when}){said}"


def _rendering_text(rendering: RenderingJson) -> str:
    """One translated release against the English rule, in a line."""
    base = rendering["base_release"]["effective_date"]
    head = f"{rendering['release']['effective_date']} · translates en {base}"
    if rendering["english_number"] is None:
        return f"{head} · not in that English release"
    parts = [head, f"en {rendering['english_number']} as worded in {rendering['translates']}"]
    if rendering["number"] is None:
        parts.append(str(rendering["status"]))
    else:
        since = f" since {rendering['stale_since']}" if rendering["stale_since"] else ""
        parts += [rendering["number"], f"{rendering['status']}{since}"]
    if rendering["reworded"]:
        parts.append("reworded")
    return " · ".join(parts)
