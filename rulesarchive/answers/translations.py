"""Translations against their English: the answers of `Archive.translation` and
`Archive.compare` (`rulesarchive translations`, `compare`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesarchive.system.lazy import lazy_module

if TYPE_CHECKING:
    from rulesarchive.differ import report
    from rulesarchive.differ.report_types import CompareJson, TranslationJson
    from rulesarchive.differ.translation_compare import RuleTranslations
    from rulesarchive.differ.translations import TranslationReport
else:  # printing loads the reports, not answering
    report = lazy_module("rulesarchive.differ.report")


@dataclass(frozen=True, slots=True)
class Translation:
    """A translated release against the English release it translates."""

    report: TranslationReport
    only_stale: bool = False

    def to_json(self) -> TranslationJson:
        """Return what `rulesarchive translations LANG --format json` prints."""
        return report.translation_data(self.report, self.only_stale)

    def to_text(self) -> str:
        """Return what `rulesarchive translations LANG` prints."""
        return report.translation_text(self.to_json())


@dataclass(frozen=True, slots=True)
class Compared:
    """An English rule beside its translations, across time (differ's RuleTranslations)."""

    compared: RuleTranslations

    def to_json(self) -> CompareJson:
        """Return what `rulesarchive compare RULE --format json` prints."""
        return report.compare_data(self.compared)

    def to_text(self) -> str:
        """Return what `rulesarchive compare RULE` prints."""
        return report.compare_text(self.to_json())
