"""Every version of one rule: the answer of `Archive.history` (`rulesarchive history`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesarchive.corpus.model import DocKind
from rulesarchive.corpus.model import Release as StoredRelease
from rulesarchive.differ import release_report
from rulesarchive.system.lazy import lazy_module

if TYPE_CHECKING:
    from rulesarchive.differ import report
    from rulesarchive.differ.history import History as Told
    from rulesarchive.differ.history import Version
    from rulesarchive.differ.report_types import HistoryJson
else:  # printing loads the reports, not answering
    report = lazy_module("rulesarchive.differ.report")


@dataclass(frozen=True, slots=True)
class History:
    """Every version of one rule, oldest first, and every number it had (`told`: the differ's
    differ.history.History), printable as JSON.

    `releases` are the language's releases, for `to_text(every_release=True)`.
    """

    told: Told
    releases: tuple[StoredRelease, ...] = ()

    @property
    def rule(self) -> str:
        """The rule's number as asked for."""
        return self.told.rule

    @property
    def numbers(self) -> tuple[str, ...]:
        """Every number the rule had, oldest first."""
        return self.told.numbers

    @property
    def versions(self) -> tuple[Version, ...]:
        """Every version, oldest first, each with its kind of change."""
        return self.told.versions

    def to_json(self) -> HistoryJson:
        """Return what `rulesarchive history NUMBER --format json` prints."""
        kind = self.releases[0].kind if self.releases else DocKind.CR
        return report.history_data(self.told, kind)

    def to_text(self, every_release: bool = False) -> str:
        """Return what `history NUMBER` prints (`every_release`: as with `--all`)."""
        labels = [release_report.release_label(r) for r in self.releases] if every_release else None
        language = self.releases[0].language if self.releases else "en"
        return report.history_text(self.to_json(), labels, language)
