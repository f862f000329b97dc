"""Citations in a tournament document's texts (MTR, IPG), as links to the versions in force.

A citation is read as the reference check reads it (corpus.numbers.parse_citations, and
differ.tournament_references for the document it names): a section of its own document leads
to that section's page in the citing version, a section of the other document to its page in
the version in force on the citing version's date, a CR rule to the rule's permanent page at
the version of the English CR in force that day. Which version is in force, and what numbers
it holds, the library says (`Source.in_force`, as `check --doc` asks it).

Links carry the version's anchor: a page reads the same whatever releases come later.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from markupsafe import Markup, escape
from rulesarchive.corpus.model import DocKind
from rulesarchive.corpus.numbers import parse_citations
from rulesarchive.differ.language import Language
from rulesarchive.differ.tournament_references import InForce, cited_kind
from rulesarchive.differ.words import DELETE, INSERT, Diff
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.refs import References, linked_spans
from rulesarchive.site_builder.source import Source
from rulesarchive.site_builder.spans import weave

Span = tuple[int, int, str]  # a cited number in a text: its start, end, and its link's HTML


class CitationLinks:
    """Link the citations of one tournament document kind's texts.

    `cited` holds what the build gathered of each kind a citation may lead into (the
    tournament kinds' English releases and lines, and the English CR's): a kind it lacks is
    cited as plain text, as is one with no version in force on the citing date.
    """

    def __init__(self, kind: DocKind, source: Source, cited: dict[DocKind, Language]) -> None:
        self.kind = kind
        self.source = source
        self.cited = cited
        self.rules = References(cited[DocKind.CR], {}) if DocKind.CR in cited else None
        self._indices = {
            kind: {release.effective_date: at for at, release in enumerate(data.releases)}
            for kind, data in cited.items()
        }
        self._in_force: dict[tuple[DocKind, dt.date], InForce | None] = {}
        self._targets: dict[tuple[DocKind, str, dt.date], str | None] = {}

    def html(self, page: str, text: str, date: dt.date) -> Markup:
        """Return a text of the version in force on `date` as HTML, its citations linked."""
        return Markup(_linked(text, self.spans(page, text, date)))

    def spans(self, page: str, text: str, date: dt.date) -> list[Span]:
        """Return the numbers a text cites, each with its link (or its dangling mark)."""
        found = []
        for citation in parse_citations(text, documents=True):
            kind = cited_kind(citation, self.kind)
            for start, end, number in linked_spans(citation):
                shown = text[start:end]
                link = self._link(page, kind, number, shown, date) if kind else None
                if link is not None:
                    found.append((start, end, link))
        return found

    def diff_spans(self, page: str, diff: Diff, old: dt.date, new: dt.date) -> list[list[Span]]:
        """Return each piece's spans of a word diff: a citation is read in its side's whole
        text (its words may stand in pieces before), kept and inserted words as of `new`,
        deleted ones as of `old`; a number split across pieces is not linked."""
        found: list[list[Span]] = [[] for _ in diff]
        for side, date in ((DELETE, old), (INSERT, new)):
            on_side = [at for at, (op, _text) in enumerate(diff) if op in (0, side)]
            starts, position = [], 0
            for at in on_side:
                starts.append(position)
                position += len(diff[at][1])
            whole = "".join(diff[at][1] for at in on_side)
            for start, end, link in self.spans(page, whole, date):
                for at, begins in zip(on_side, starts, strict=True):
                    piece_end = begins + len(diff[at][1])
                    kept_by_new = side == DELETE and diff[at][0] == 0
                    if begins <= start and end <= piece_end and not kept_by_new:
                        found[at].append((start - begins, end - begins, link))
        return found

    def _link(self, page: str, kind: DocKind, number: str, shown: str, date: dt.date) -> str | None:
        """The markup of one cited number: a link, a dangling mark, or None (plain text: no
        version of the cited document in force that day)."""
        target = self._target(kind, number, date)
        if target is None:
            return None
        if not target:
            title = f"no {kind.value.upper()} {number} in the version in force"
            return f'<span class="dangling" title="{escape(title)}">{escape(shown)}</span>'
        return f'<a href="{escape(paths.relative(page, target))}">{escape(shown)}</a>'

    def _target(self, kind: DocKind, number: str, date: dt.date) -> str | None:
        """Where a number of a kind cited on a date leads: a page (with its version's
        anchor), '' where the version in force does not hold it, None where there is none."""
        key = (kind, number, date)
        if key not in self._targets:
            self._targets[key] = self._find(kind, number, date)
        return self._targets[key]

    def _find(self, kind: DocKind, number: str, date: dt.date) -> str | None:
        if (kind, date) not in self._in_force:
            self._in_force[kind, date] = self.source.in_force(kind, date)
        in_force = self._in_force[kind, date]
        data = self.cited.get(kind)
        index = (
            self._indices.get(kind, {}).get(in_force.release.effective_date) if in_force else None
        )
        if in_force is None or data is None or index is None:
            return None
        if number not in in_force.numbers:
            return ""
        if kind == DocKind.CR:
            assert self.rules is not None  # the CR is among the kinds cited
            # a number the CR holds but no rule or chapter does (none seen): its lookup page
            found = self.rules.target(number, index, anchored=True)
            return found or paths.number_page(data.language, number)
        line = data.holder(number, index)
        if line is None:  # a section that is only a heading (its parts have pages)
            return f"{paths.document_page(in_force.release)}#s{number}"
        stretch = next(s for s in line.stretches if s.first <= index <= s.last)
        anchor = data.releases[stretch.first].effective_date.isoformat()
        return f"{paths.section_page(kind, data.language, line.id)}#v{anchor}"


def _linked(text: str, spans: Sequence[Span]) -> str:
    """Return a text escaped, with the spans' markup in place of what they cover."""
    return weave(text, sorted(spans), lambda piece: str(escape(piece)), lambda _shown, link: link)


def linked_piece(text: str, offset: int, spans: Sequence[Span]) -> str:
    """Return the part of a piece at `offset` escaped, with the spans lying in it linked."""
    end = offset + len(text)
    inside = [(a - offset, b - offset, link) for a, b, link in spans if offset <= a and b <= end]
    return _linked(text, inside)
