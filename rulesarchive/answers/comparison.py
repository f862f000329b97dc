"""What changed between two releases: the answer of `Archive.diff` and `Archive.changelog`
(`rulesarchive diff`, `changelog`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulesarchive.differ.kinds import Kind
from rulesarchive.system.lazy import lazy_module

if TYPE_CHECKING:
    from rulesarchive.api import Release
    from rulesarchive.differ import report
    from rulesarchive.differ.changes import Change
    from rulesarchive.differ.classify import ReleaseDiff
    from rulesarchive.differ.report_types import DiffJson
else:  # printing loads the reports, not answering
    report = lazy_module("rulesarchive.differ.report")


@dataclass(frozen=True, slots=True)
class Comparison:
    """What changed between two releases: `result` is the differ's ReleaseDiff.

    A changelog's `fixes` are the citations each change put right (by rule number in `new`).
    """

    old: Release
    new: Release
    result: ReleaseDiff
    fixes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    kinds: tuple[str, ...] = ()  # shown: only these kinds (and 'renumbering'); () all
    section: str | None = None  # shown: only this section, chapter or rule, or 'glossary'

    @property
    def changes(self) -> tuple[Change, ...]:
        """Every rule change, `unchanged` ones excepted, in rule order."""
        return tuple(change for change in self.result.changes if change.kind != Kind.UNCHANGED)

    @property
    def renumbering(self) -> tuple[tuple[str, str], ...]:
        """Every (old, new) pair of numbers of a rule that moved."""
        return self.result.renumbering

    def to_json(self) -> DiffJson:
        """Return what `rulesarchive diff OLD NEW --format json` (or `changelog`) prints,
        with `--kind` and `--section` as `kinds` and `section` say."""
        data = report.diff_data(self.old, self.new, self.result, self.fixes)
        if self.kinds or self.section:
            data = report.selected(data, self.kinds, self.section)
        return data

    def to_text(self, markdown: bool = False) -> str:
        """Return what `diff` (or `changelog`) prints as text, or with `markdown` as Markdown."""
        return report.diff_text(self.to_json(), markdown=markdown)
