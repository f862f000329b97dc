"""The registry of permanent ids: every line of descent of a language, named once and for good.

A line's id is minted the first time the line is seen and never changes nor is given again;
the registry records, for each id, the numbers its rule held and when, so the lines of any
later archive (more releases, fewer, another order, a better aligner) are matched back to
their ids by those (release, number) versions. A line that two ids turn out to name keeps
one; the other is recorded as its alias, so old links keep resolving.

Rules, glossary terms and headings have a registry each, of the same form (`Lines`): a
glossary term's "number" is its term key ('control controller'), a heading's its number ('7',
'702'). The file is plain text, one id a row, diffable (ARCHIVE/<language>/ids.tsv, and
glossary-ids.tsv and heading-ids.tsv beside it):

    releases<TAB>1999-04-23 1999-11-01 ...          every release the runs below range over
    id<TAB>1999-04-23/217.1d<TAB>217.1d 1999-04-23..2009-05-01<TAB>400.6 2009-07-11..2024-11-08
    alias<TAB>2008-10-01/217.1d<TAB>1999-04-23/217.1d

A run `number first..last` means: in every listed release from first to last, the rule was
numbered `number`. The package ships the registry of the shared archive of real releases
(corpus/data/ids/), the starting point of an archive that has none.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path

from rulesarchive.corpus import DATA
from rulesarchive.corpus.model import DocKind, Lines

FILE_NAME = Lines.RULES.value


@dataclass(frozen=True, slots=True)
class Run:
    """A number a line held, in every listed release from `first` to `last`."""

    number: str
    first: dt.date
    last: dt.date


@dataclass(frozen=True, slots=True)
class Registry:
    """A language's permanent ids: the releases seen, each id's runs, and the aliases."""

    releases: tuple[dt.date, ...] = ()
    ids: dict[str, tuple[Run, ...]] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # alias -> the id it names

    def owners(self) -> dict[tuple[dt.date, str], str]:
        """Return the id that held each (release date, number), as the runs say."""
        position = {date: index for index, date in enumerate(self.releases)}
        found: dict[tuple[dt.date, str], str] = {}
        for line_id, runs in self.ids.items():
            for run in runs:
                for date in self.releases[position[run.first] : position[run.last] + 1]:
                    found[date, run.number] = line_id
        return found

    def resolved_aliases(self) -> dict[str, str]:
        """Return each retired id with the id it names now (an alias of none left out)."""
        found = {alias: self.resolve(alias) for alias in self.aliases}
        return {alias: line_id for alias, line_id in found.items() if line_id is not None}

    def resolve(self, line_id: str) -> str | None:
        """Return the id an id or alias names now, or None when it was never minted."""
        seen: set[str] = set()
        while line_id in self.aliases and line_id not in seen:
            seen.add(line_id)
            line_id = self.aliases[line_id]
        return line_id if line_id in self.ids else None


class RegistryError(ValueError):
    """A registry file that cannot be read."""


def parse_registry(text: str, name: str = FILE_NAME) -> Registry:
    """Read a registry file's text; raise RegistryError naming the row that is wrong."""
    releases: tuple[dt.date, ...] = ()
    ids: dict[str, tuple[Run, ...]] = {}
    aliases: dict[str, str] = {}
    for row, line in enumerate(text.splitlines(), start=1):
        fields = line.split("\t")
        try:
            if fields[0] == "releases":
                releases = tuple(dt.date.fromisoformat(date) for date in fields[1].split())
            elif fields[0] == "id":
                ids[fields[1]] = tuple(_run(text) for text in fields[2:])
            elif fields[0] == "alias" and len(fields) == 3:
                aliases[fields[1]] = fields[2]
            elif line.strip():
                raise ValueError(f"unknown row kind {fields[0]!r}")
        except (IndexError, ValueError) as error:
            raise RegistryError(f"{name}: row {row}: {error}") from None
    known = set(releases)
    for runs in ids.values():
        for run in runs:
            if run.first not in known or run.last not in known:
                raise RegistryError(f"{name}: run {run.number} names a release not listed")
    return Registry(releases, ids, aliases)


def _run(text: str) -> Run:
    number, _, span = text.rpartition(" ")  # a term key has spaces, a span none
    first, _, last = span.partition("..")
    start = dt.date.fromisoformat(first)
    return Run(number, start, dt.date.fromisoformat(last) if last else start)


def named_version(line_id: str) -> tuple[dt.date, str]:
    """Return the version an id was minted from: '2009-07-11/508.3~2' is 508.3 of 2009-07-11
    (an id not so named names none, and sorts first)."""
    date, _, number = line_id.partition("~")[0].partition("/")
    try:
        return dt.date.fromisoformat(date), number
    except ValueError:
        return dt.date.min, line_id


def mint_order(line_id: str) -> tuple[dt.date, str, int, str]:
    """Sort key of ids, the registry's order: by the version each names, then its copy ('~2').

    The order is the ids' own, not the order they were minted in, so the same ids make the
    same file whatever order releases came in."""
    copy = line_id.partition("~")[2]
    return (*named_version(line_id), int(copy) if copy.isdigit() else 1, line_id)


def render_registry(registry: Registry) -> str:
    """Return a registry's file text (parse_registry reads it back), its ids in mint_order."""
    rows = ["releases\t" + " ".join(date.isoformat() for date in registry.releases)]
    for line_id, runs in sorted(registry.ids.items(), key=lambda item: mint_order(item[0])):
        rows.append("\t".join(["id", line_id, *map(_render_run, runs)]))
    rows += [f"alias\t{alias}\t{target}" for alias, target in sorted(registry.aliases.items())]
    return "\n".join(rows) + "\n"


def _render_run(run: Run) -> str:
    span = run.first.isoformat()
    if run.last != run.first:
        span += f"..{run.last.isoformat()}"
    return f"{run.number} {span}"


def ids_file(root: Path, language: str, lines: Lines = Lines.RULES) -> Path:
    """Return where an archive keeps a language's registry of a kind of lines."""
    return root / language / lines.value


def shipped_text(language: str, kind: DocKind = DocKind.CR, lines: Lines = Lines.RULES) -> str:
    """Return the text of the registry the package ships for a language's documents of a kind
    (of no id if none: it ships the Comprehensive Rules' only)."""
    path = _shipped_path(language, lines)
    shipped = kind == DocKind.CR and path.is_file()
    return path.read_text(encoding="utf-8") if shipped else render_registry(Registry())


def shipped_registry(
    language: str, kind: DocKind = DocKind.CR, lines: Lines = Lines.RULES
) -> Registry:
    """Return the registry the package ships for a language (empty when it ships none)."""
    path = _shipped_path(language, lines)
    return parse_registry(shipped_text(language, kind, lines), f"corpus/data/ids/{path.name}")


def _shipped_path(language: str, lines: Lines) -> Path:
    suffix = "" if lines is Lines.RULES else "-" + lines.name.lower()  # 'en-glossary.tsv'
    return DATA / "ids" / f"{language}{suffix}.tsv"
