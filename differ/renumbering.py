"""Say a release's renumbering as shortly as it was made: a chapter shifted with its rules is
one line, a rule shifted with its sub-rules another, and runs of either are ranges."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rulesarchive.corpus.numbers import PART, parent_of
from rulesarchive.differ.align import compact_ranges

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True, slots=True)
class Shift:
    """Numbers that moved together: `old` -> `new` (each a number or a range 'a–b'), carrying
    `carried` rules beneath them (a chapter's rules, a rule's sub-rules; 0: none)."""

    old: str
    new: str
    carried: int = 0
    beneath: str = ""  # what the carried numbers are: 'rules' or 'sub-rules'


def summarise_renumbering(moves: Sequence[tuple[str, str]]) -> list[Shift]:
    """Fold every (old, new) move of a release (rules, chapters and sections) into shifts.

    A heading that moved carries the numbers under it that moved alike (722 -> 723 with
    722.1 -> 723.1 ...: '722 → 723, with its 41 rules'); then a rule carries its sub-rules
    that kept their letters, and a tournament document's section its parts ('3.3 → 2.2,
    with its 5 parts'); runs of like shifts (722 -> 723, 723 -> 724, ...) are one range.
    Shifts are in the order of their first move.
    """
    left = dict.fromkeys(moves)
    groups: list[tuple[int, str, str, int, str]] = []  # (first move, old, new, carried, what)
    order = {move: index for index, move in enumerate(moves)}
    for head, beneath in (
        (_is_heading, "rules"),
        (_is_rule, "sub-rules"),
        (_is_section, "parts"),
    ):
        for old, new in [move for move in left if head(move[0]) and head(move[1])]:
            if (old, new) not in left:
                continue
            carried = [move for move in left if _carried(move, old, new)]
            for move in (*carried, (old, new)):
                left.pop(move, None)
            first = min(order[move] for move in (*carried, (old, new)))
            groups.append((first, old, new, len(carried), beneath))
    groups += [(order[move], move[0], move[1], 0, "") for move in left]
    groups.sort()
    return _ranges([(old, new, carried, beneath) for _, old, new, carried, beneath in groups])


def _is_heading(number: str) -> bool:
    return number.isdigit()


def _is_rule(number: str) -> bool:
    return parent_of(number) is not None and not number[-1].isalpha()


def _is_section(number: str) -> bool:
    """Tell whether a number is a tournament document's section ('3.3', 'B'), whose parts
    ('3.3/penalty') move with it."""
    return PART not in number and parent_of(number) is None and not number.isdigit()


def _carried(move: tuple[str, str], old: str, new: str) -> bool:
    """Tell whether a move is `old` -> `new` carrying one number beneath it alike."""
    number, now = move
    if number == old or not number.startswith(old) or not now.startswith(new):
        return False
    rest = number[len(old) :]
    if rest.startswith(PART):  # a section's part: 3.3/penalty with 3.3
        return now[len(new) :] == rest
    below = rest[0] == "." if len(old) == 3 else rest[0] in _LETTERS if "." in old else True
    return below and now[len(new) :] == rest


def _ranges(shifts: list[tuple[str, str, int, str]]) -> list[Shift]:
    """Fold runs of like shifts (the next number each, by the same offset) into ranges."""
    folded: list[Shift] = []
    run: list[tuple[str, str, int, str]] = []
    for shift in (*shifts, None):
        if shift is not None and run and shift[3] == run[0][3]:
            pairs = [(old, new) for old, new, _, _ in (*run, shift)]
            if len(compact_ranges(pairs)) == 1:
                run.append(shift)
                continue
        if run:
            ((old, new),) = compact_ranges([(old, new) for old, new, _, _ in run])
            folded.append(Shift(old, new, sum(carried for _, _, carried, _ in run), run[0][3]))
        run = [shift] if shift is not None else []
    return folded


def shift_text(shift: Shift) -> str:
    """Write a shift as the changelog does: '722–732 → 723–733, with their 104 rules'."""
    line = f"{shift.old} → {shift.new}"
    if shift.carried:
        whose = "their" if "–" in shift.old else "its"
        noun = shift.beneath if shift.carried > 1 else shift.beneath[:-1]
        line += f", with {whose} {shift.carried} {noun}"
    return line
