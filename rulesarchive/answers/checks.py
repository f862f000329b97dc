"""A release's citations and their problems: the answers of `Archive.check` and
`Archive.check_history` (`rulesarchive check`, `check --all`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesarchive.system.lazy import lazy_module

if TYPE_CHECKING:
    from rulesarchive.differ import report
    from rulesarchive.differ.references import LanguageCheck, ReleaseCheck
    from rulesarchive.differ.report_types import CheckHistoryJson, CheckJson
else:  # printing loads the reports, not answering
    report = lazy_module("rulesarchive.differ.report")


@dataclass(frozen=True, slots=True)
class Check:
    """One release's citations and their problems (differ.references.ReleaseCheck)."""

    checked: ReleaseCheck

    def to_json(self) -> CheckJson:
        """Return what `rulesarchive check [RELEASE] --format json` prints."""
        return report.check_data(self.checked)

    def to_text(self) -> str:
        """Return what `rulesarchive check [RELEASE]` prints."""
        return report.check_text(self.to_json())


@dataclass(frozen=True, slots=True)
class CheckHistory:
    """Every problem of every release up to one, with when it came and went."""

    checked: LanguageCheck

    def to_json(self) -> CheckHistoryJson:
        """Return what `rulesarchive check [RELEASE] --all --format json` prints."""
        return report.check_all_data(self.checked)

    def to_text(self) -> str:
        """Return what `rulesarchive check [RELEASE] --all` prints."""
        return report.check_all_text(self.to_json())
