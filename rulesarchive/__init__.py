"""rulesarchive: every Magic: The Gathering Comprehensive Rules release, normalised and diffed.

`from rulesarchive import Archive` is the Python API (rulesarchive.api); the stages are
subpackages (rulesarchive.scraper, .corpus, .differ, .site_builder, .exports), the library
every view calls is rulesarchive.library, and rulesarchive.cli is the command line. Importing
this package loads nothing else until a name is used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulesarchive.api import (
        Archive,
        ArchiveError,
        Check,
        CheckHistory,
        Comparison,
        History,
        NotFound,
        Release,
        RuleText,
        Translation,
        UnknownRelease,
        UnknownRule,
    )

__all__ = [
    "Archive",
    "ArchiveError",
    "Check",
    "CheckHistory",
    "Comparison",
    "History",
    "NotFound",
    "Release",
    "RuleText",
    "Translation",
    "UnknownRelease",
    "UnknownRule",
    "__version__",
]


def __getattr__(name: str) -> Any:
    """Import the API (or read the version) on first use: `import rulesarchive` stays cheap."""
    if name == "__version__":
        from importlib.metadata import version

        return version("rulesarchive")
    if name in __all__:
        from rulesarchive import api

        return getattr(api, name)
    raise AttributeError(f"module 'rulesarchive' has no attribute {name!r}")
