"""The Python API's answers (rulesarchive.api), a module each, each imported when first named.

Building a frozen dataclass compiles its methods at every start of the process that defines
it (about a millisecond each here): a command loads the answer it prints and no other.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulesarchive.answers.checks import Check, CheckHistory
    from rulesarchive.answers.comparison import Comparison
    from rulesarchive.answers.history import History
    from rulesarchive.answers.rule_text import RuleText
    from rulesarchive.answers.translations import Compared, Translation

# Each answer and the module that defines it.
_MODULES = {
    "Check": "checks",
    "CheckHistory": "checks",
    "Compared": "translations",
    "Comparison": "comparison",
    "History": "history",
    "RuleText": "rule_text",
    "Translation": "translations",
}

__all__ = [
    "Check",
    "CheckHistory",
    "Compared",
    "Comparison",
    "History",
    "RuleText",
    "Translation",
]


def __getattr__(name: str) -> Any:
    """Import an answer's module when the answer is first named."""
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
