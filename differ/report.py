"""Render release diffs and rule histories as JSON-ready data, text and Markdown."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from rulesarchive.corpus.model import Release
from rulesarchive.corpus.present import release_label
from rulesarchive.differ.align import compact_ranges
from rulesarchive.differ.classify import KINDS, Change, ReleaseDiff
from rulesarchive.differ.glossary import GlossaryChange
from rulesarchive.differ.history import History
from rulesarchive.differ.references import GLOSSARY, LanguageCheck, Problem, ReleaseCheck
from rulesarchive.differ.translations import TranslationReport
from rulesarchive.differ.words import Phrase, phrases_of

_ORDER = {kind: index for index, kind in enumerate(KINDS)}
_GROUPED = {"typography", "truncation"}  # one line each, with their rule lists


def diff_data(
    old: Release, new: Release, diff: ReleaseDiff, fixes: dict[str, tuple[str, ...]] | None = None
) -> dict:
    """Return the deterministic JSON form of a release diff (unchanged rules left out).

    `fixes` holds, by rule number in `new`, the citations it put right (see differ.references).
    """
    fixes = fixes or {}
    changes = sorted(
        (change for change in diff.changes if change.kind != "unchanged"),
        key=lambda change: _ORDER[change.kind],
    )
    return {
        "old": release_label(old),
        "new": release_label(new),
        "counts": _counts(diff),
        "changes": [_change_data(change, fixes) for change in changes],
        "renumbering": [{"old": a, "new": b} for a, b in diff.renumbering],
        "sweeps": [{"old": s.old, "new": s.new, "rules": list(s.rules)} for s in diff.sweeps],
        "splits": [{"old": list(s.old), "new": list(s.new)} for s in diff.splits],
        "merges": [{"old": list(s.old), "new": list(s.new)} for s in diff.merges],
        "glossary": [_glossary_data(change, fixes) for change in diff.glossary],
    }


def _glossary_data(change: GlossaryChange, fixes: dict[str, tuple[str, ...]]) -> dict:
    return {
        "kind": change.kind,
        "old_term": change.old_term,
        "new_term": change.new_term,
        "old_text": change.old_text,
        "new_text": change.new_text,
        "phrases": _phrases(change.phrases),
        "fixes": list(fixes.get(GLOSSARY + (change.new_term or ""), ())),
    }


def _change_data(change: Change, fixes: dict[str, tuple[str, ...]]) -> dict:
    return {
        "kind": change.kind,
        "old_number": change.old_number,
        "new_number": change.new_number,
        "moved": change.moved,
        "old_text": change.old_text,
        "new_text": change.new_text,
        "phrases": _phrases(change.phrases),
        "old_examples": list(change.old_examples),
        "new_examples": list(change.new_examples),
        "example_phrases": _phrases(
            phrase for diff in change.example_diffs for phrase in phrases_of(diff)
        ),
        "fixes": list(fixes.get(change.new_number or "", ())),
    }


def _phrases(phrases: Iterable[Phrase]) -> list[dict]:
    return [{"old": phrase.old, "new": phrase.new} for phrase in phrases]


def _counts(diff: ReleaseDiff) -> dict[str, int]:
    counts = Counter(change.kind for change in diff.changes)
    counts["unchanged"] += diff.unchanged
    return dict(sorted(counts.items()))


def diff_text(data: dict, markdown: bool = False) -> str:
    """Render diff data as a changelog: substantive first, grouped kinds on one line each."""
    old, new = data["old"], data["new"]
    title = f"{_name(old)} → {_name(new)}"
    lines = [f"# {title}" if markdown else title, ""]
    counts = ", ".join(f"{n} {kind}" for kind, n in data["counts"].items() if kind != "unchanged")
    lines += [counts or "no changes", ""]
    grouped: dict[str, list[str]] = {}
    for change in data["changes"]:
        number = change["new_number"] or change["old_number"]
        if change["kind"] == "sweep":
            continue  # listed once per phrase below, from data["sweeps"]
        if change["kind"] in _GROUPED:
            grouped.setdefault(change["kind"], []).append(number)
            continue
        lines.append(_change_line(change, markdown))
    for sweep in data["sweeps"]:
        lines.append(
            f"{'- ' if markdown else ''}sweep: “{sweep['old']}” → “{sweep['new']}” "
            f"in {len(sweep['rules'])} rules ({', '.join(sweep['rules'])})"
        )
    for kind, numbers in sorted(grouped.items()):
        lines.append(
            f"{'- ' if markdown else ''}{kind}: {len(numbers)} rules ({_short_list(numbers)})"
        )
    for kind in ("splits", "merges"):
        for split in data[kind]:
            lines.append(
                f"{'- ' if markdown else ''}{kind[:-1]}: {', '.join(split['old'])} → "
                f"{', '.join(split['new'])}"
            )
    lines += _glossary_lines(data["glossary"], markdown)
    moves = [(m["old"], m["new"]) for m in data["renumbering"]]
    if moves:
        lines += ["", "## Renumbering" if markdown else "Renumbering:"]
        lines += [f"{'- ' if markdown else '  '}{a} → {b}" for a, b in compact_ranges(moves)]
    return "\n".join(lines).rstrip() + "\n"


def _glossary_lines(changes: list[dict], markdown: bool) -> list[str]:
    bullet = "- " if markdown else "  "
    lines: list[str] = []
    retyped = [c["new_term"] for c in changes if c["kind"] in _GROUPED]
    for change in changes:
        term = change["new_term"] or change["old_term"]
        if change["old_term"] and change["new_term"] and change["old_term"] != change["new_term"]:
            term = f"{change['old_term']} → {change['new_term']}"
        if change["kind"] in {"added", "removed"}:
            lines.append(f"{bullet}{change['kind']} {term}")
        elif change["kind"] not in _GROUPED:
            phrases = _phrase_list(change["phrases"]) or "(renamed)"
            if change["fixes"]:
                phrases += f"; fixes the citation of {', '.join(change['fixes'])}"
            lines.append(f"{bullet}{change['kind']} {term}: {phrases}")
    if retyped:
        lines.append(f"{bullet}typography or truncation: {len(retyped)} entries")
    if not lines:
        return []
    return ["", "## Glossary" if markdown else "Glossary:", *lines]


def _change_line(change: dict, markdown: bool) -> str:
    number = change["new_number"] or change["old_number"]
    if change["moved"]:
        number = f"{change['old_number']} → {change['new_number']}"
    bullet = "- " if markdown else ""
    if change["kind"] in {"added", "removed"}:
        text = change["new_text"] or change["old_text"]
        return f"{bullet}{change['kind']} {number}: {text}"
    parts = [_phrase_list(change["phrases"])] if change["phrases"] else []
    if change["example_phrases"]:
        parts.append(f"in examples: {_phrase_list(change['example_phrases'])}")
    if change["fixes"]:
        parts.append(f"fixes the citation of {', '.join(change['fixes'])}")
    return f"{bullet}{change['kind']} {number}: {'; '.join(parts)}"


def _phrase_list(phrases: list[dict]) -> str:
    return "; ".join(f"“{p['old']}” → “{p['new']}”" for p in phrases)


def _name(release: dict) -> str:
    return f"{release['set_name']} ({release['set_code']}) {release['effective_date']}".replace(
        " () ", " "
    )


def _short_list(numbers: list[str], limit: int = 12) -> str:
    shown = ", ".join(numbers[:limit])
    return shown + (f", … {len(numbers) - limit} more" if len(numbers) > limit else "")


def history_data(history: History) -> dict:
    """Return the JSON form of a rule history, oldest version first."""
    return {
        "rule": history.rule,
        "numbers": list(history.numbers),
        "versions": [
            {
                "effective_date": v.effective_date.isoformat() if v.effective_date else None,
                "set_code": v.set_code,
                "set_name": v.set_name,
                "number": v.number,
                "text": v.text,
                "examples": list(v.examples),
                "kind": v.kind,
                "phrases": _phrases(v.phrases),
                "compared_with": v.compared_with.isoformat() if v.compared_with else None,
            }
            for v in history.versions
        ],
    }


def history_text(data: dict) -> str:
    """Render a rule history newest first, each version under its date · set heading."""
    numbers = " ← ".join(reversed(data["numbers"]))
    lines = [
        f"Rule {data['rule']}" + (f" (numbers: {numbers})" if len(data["numbers"]) > 1 else ""),
        "",
    ]
    for version in reversed(data["versions"]):
        when = version["effective_date"] or "current"
        lines.append(f"{when} · {version['set_name']} · {version['number']} · {version['kind']}")
        for phrase in version["phrases"]:
            lines.append(f"    “{phrase['old']}” → “{phrase['new']}”")
    return "\n".join(lines) + "\n"


def translation_data(report: TranslationReport, only_stale: bool = False) -> dict:
    """Return the JSON form of a translation report (rules in the translation's order)."""
    rules = [rule for rule in report.rules if rule.status == "stale" or not only_stale]
    return {
        "language": report.release.language,
        "release": release_label(report.release),
        "base_release": release_label(report.base) if report.base else None,
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
            }
            for rule in rules
        ],
    }


def translation_text(data: dict) -> str:
    """Render a translation report: a summary line, then one line per rule needing a look."""
    base = data["base_release"]
    counts = ", ".join(f"{n} {status}" for status, n in data["counts"].items())
    lines = [
        f"{data['language']} {_name(data['release'])}: translates "
        + (f"en {_name(base)}" if base else "no English release in the archive"),
        counts,
        "",
    ]
    for rule in data["rules"]:
        if rule["status"] == "stale":
            moved = f" (now {rule['english_number']})" if rule["english_number"] else ""
            lines.append(f"stale {rule['number']}: English changed {rule['stale_since']}{moved}")
        elif rule["status"] in {"missing", "extra"}:
            lines.append(f"{rule['status']} {rule['number']}")
        for problem in rule["problems"]:
            lines.append(f"check {rule['number']}: {problem}")
    return "\n".join(lines).rstrip() + "\n"


def check_data(check: ReleaseCheck) -> dict:
    """Return the JSON form of one release's reference check."""
    release = check.release
    return {
        "language": release.language,
        "release": release_label(release),
        "references": [
            {"rule": ref.rule, "cites": ref.citation.written, "in": ref.place}
            for ref in check.references
        ],
        "problems": [_problem_data(problem) for problem in check.problems],
    }


def check_all_data(check: LanguageCheck) -> dict:
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


def _problem_data(problem: Problem) -> dict:
    return {
        "rule": problem.rule,
        "cites": problem.cites,
        "kind": problem.kind,
        "suggestion": problem.suggestion,
        "guess": problem.guess,
        "since": problem.since.effective_date.isoformat(),
        "in": problem.place,
    }


def check_text(data: dict) -> str:
    """Render a release's check: a summary line, then one line per problem."""
    problems = data["problems"]
    lines = [
        f"{data['language']} {_name(data['release'])}: {len(data['references'])} references, "
        f"{_problem_count(problems)}",
        "",
    ]
    lines += [_problem_line(problem) for problem in problems]
    return "\n".join(lines).rstrip() + "\n"


def check_all_text(data: dict) -> str:
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


def _problem_count(problems: list[dict]) -> str:
    if not problems:
        return "no problems"
    counts = Counter(problem["kind"] for problem in problems)
    return f"{len(problems)} problems (" + ", ".join(f"{n} {k}" for k, n in counts.items()) + ")"


def _problem_line(problem: dict) -> str:
    where = "" if problem["in"] != "example" else " (in an example)"
    line = f"{problem['kind']} {problem['rule']}{where} cites {problem['cites']}"
    if problem["suggestion"]:
        guess = " (a guess)" if problem["guess"] else ""
        line += f", suggest {problem['suggestion']}{guess}"
    if "fixed" not in problem:
        line += f" [since {problem['since']}]"
    return line
