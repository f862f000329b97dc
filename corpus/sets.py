"""Magic sets from a public set list, and the set a rules release was published for."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

# A rules update accompanies a main set: a core set or an expansion (not a Commander deck,
# a Masters reprint set or a promo), released on its effective date or soon after.
MAIN_SET_TYPES = ("core", "expansion")
LOOKAHEAD = dt.timedelta(days=120)


@dataclass(frozen=True, slots=True)
class MagicSet:
    """One set of the set list (Scryfall's /sets: code, name, released_at, set_type)."""

    code: str
    name: str
    released_at: dt.date
    set_type: str


def choose_set(effective_date: dt.date, sets: tuple[MagicSet, ...]) -> tuple[MagicSet, str] | None:
    """Return the main set released nearest on or after a release's date, with why; or None."""
    candidates = [
        found
        for found in sets
        if found.set_type in MAIN_SET_TYPES
        and effective_date <= found.released_at <= effective_date + LOOKAHEAD
    ]
    if not candidates:
        return None
    chosen = min(candidates, key=lambda found: (found.released_at, found.code))
    why = (
        f"the first core or expansion set released on or after {effective_date} "
        f"({chosen.released_at}, in Scryfall's set list)"
    )
    return chosen, why
