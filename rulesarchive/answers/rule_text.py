"""One rule as one release prints it: the answer of `Archive.rule` (`rulesarchive rule`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulesarchive.differ import release_report

if TYPE_CHECKING:
    from rulesarchive.api import Release
    from rulesarchive.corpus.model import Rule
    from rulesarchive.differ.report_types import RuleViewJson


@dataclass(frozen=True, slots=True)
class RuleText:
    """One rule as one release prints it."""

    rule: Rule
    release: Release

    @property
    def number(self) -> str:
        """The rule's number in this release ('400.6')."""
        return self.rule.number

    @property
    def text(self) -> str:
        """The text as printed (`rule.text` is the normalised text)."""
        return self.rule.printed_text

    @property
    def examples(self) -> tuple[str, ...]:
        """The examples as printed."""
        return self.rule.printed_examples

    def to_json(self) -> RuleViewJson:
        """Return what `rulesarchive rule NUMBER --format json` prints."""
        return release_report.rule_view(self.rule, self.release)

    def to_text(self) -> str:
        """Return what `rulesarchive rule NUMBER` prints."""
        return release_report.rule_text(self.rule, self.release)
