"""Compare texts the way a reader does: typography aside, and knowing a cut-short copy."""

from __future__ import annotations

import re
from functools import lru_cache

# str.replace runs at memchr speed; str.translate with a table is 20x slower on rule texts.
_FLATTENED = (('"', ""), ("'", ""), ("™", ""), ("®", ""), ("—", "-"), ("–", "-"))
_TEXT_MARKS = re.compile(r"\((?:tm|r)\)", re.IGNORECASE)
_COMPLETE = re.compile(r"""[.:;!?)\]"'”’。）」]$""")


@lru_cache(maxsize=1 << 14)  # a rule's key is asked for by several steps and both releases
def typography_key(text: str) -> str:
    """Flatten quotes, dashes, marks and spacing: equal keys differ only in typography."""
    for mark, flat in _FLATTENED:
        text = text.replace(mark, flat)
    if "(" in text:
        text = _TEXT_MARKS.sub("", text)
    # One space at most around a dash once spaces are collapsed: 'a - b', 'a—b' -> 'a-b'.
    return " ".join(text.split()).replace(" -", "-").replace("- ", "-")


def is_truncation(old_key: str, new_key: str) -> bool:
    """Tell whether one text is a cut-short copy of the other (a scraping artefact)."""
    shorter, longer = sorted((old_key, new_key), key=len)
    return bool(shorter) and longer.startswith(shorter) and not _COMPLETE.search(shorter)
