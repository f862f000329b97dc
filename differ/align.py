"""Pair the rules of two releases: same number, moved, renumbered, added, removed."""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cached_property, lru_cache
from heapq import nsmallest
from itertools import chain
from math import log
from typing import NamedTuple

from rulesarchive.corpus.model import Rule
from rulesarchive.corpus.numbers import RULE_NUMBER, parent_of, part_name, rule_sort_key
from rulesarchive.differ.texts import typography_key, words_key
from rulesarchive.differ.words import first_words, word_bag

# Scores are IDF-weighted Dice coefficients of the two texts' words: a word found in few rules
# of the two releases (a keyword's name, a cited rule number) weighs far more than the words of
# a template ("is a triggered ability", "whenever", "the").
PAIRED = 0.55  # a pair this alike is the same rule, wherever it moved
SAME_NUMBER_PAIRED = 0.35  # under the same number, less likeness is enough
LIKENESS_FLOOR = 0.2  # however much of the shorter text is kept, less likeness is no pair
LONE_MOVE = 0.65  # a rule moving to another chapter alone, its neighbours staying, needs this
REWRITTEN = 0.25  # left over under one number on both sides, with this much: a rewrite in place
REWRITTEN_MOVED = 0.35  # ... under a parent that moved (502.63a -> 702.2a), a little more
SCATTERED_KEPT = 0.5  # ... under the place most siblings went, if not most: half its words kept
KEPT_SHARE = 0.6  # ... or the shorter text's (weighted) words mostly live on in the longer
KEPT_WORDS = 5  # a shorter text needs this many words for its share to count
SECOND_CHOICE = 0.85  # a rule outscored for its best candidate: how close its next must come
_CANDIDATES = 12  # the rules sharing the most weight with a rule, scored in full
_COMMON_SHARE = 0.2  # a word in more than this share of the rules finds no candidates
_SAME_NUMBER, _SAME_PARENT, _SAME_CHAPTER = 0.05, 0.03, 0.02  # place bonuses, break near-ties
# A sub-rule found under the rule its parent became (502.80a -> 702.77a), or a rule whose
# sub-rules went to the candidate's (601.3, whose 601.3a-d stayed, is 601.3, not 601.4).
_FOLLOWS_PARENT = 0.1
_SAME_OPENING, _OPENING_WORDS = 0.2, 6  # credit for the same first words
KEYWORDS = frozenset({"701", "702"})  # keyword actions and abilities: one rule a keyword


class Pair(NamedTuple):
    """One rule in two releases; `old` or `new` is None for an added or removed rule."""

    old: Rule | None
    new: Rule | None


def align_rules(
    old: Sequence[Rule],
    new: Sequence[Rule],
    whole: tuple[Sequence[Rule], Sequence[Rule]] | None = None,
    chapters: Mapping[str, str] | None = None,
) -> list[Pair]:
    """Pair every rule of `old` with its counterpart in `new`, or with None.

    `whole` gives the two whole releases when `old` and `new` are what is left of them once the
    rules with the same text on both sides (identical ones, retyped ones) are set aside: words
    are weighed by how rare they are in the releases.

    Certain pairs first (same number and words; a text found once on each side; identical
    short texts within a chapter, in order); then every other candidate pair is scored by the
    evidence (distinctive shared words, then place) and pairs are taken best first across the
    whole release, so a rule keeps its number only when no other rule matches it better.
    `chapters` maps the chapters that moved (old number -> new, found by their titles): a
    rule's place is then its number in the chapter's new place (209.1 -> 210.1 when 'Hand
    Modifier' went from 209 to 210).
    """
    matched: dict[int, int] = {}  # old index -> new index
    _match_same_words(old, new, matched)
    _match_unique_texts(old, new, matched)
    _match_in_order(old, new, matched)
    if len(matched) < len(old) and len(matched) < len(new):
        evidence = Evidence(old, new, whole, chapters)
        evidence.follow(old, new, matched, whole)
        _match_by_evidence(old, new, matched, evidence)
        _match_swapped(old, new, matched, evidence)
        _match_rewritten_in_place(old, new, matched, evidence)
    return _pairs_in_order(old, new, matched)


def _match_same_words(old: Sequence[Rule], new: Sequence[Rule], matched: dict[int, int]) -> None:
    """Pair rules under the same number whose words are the same (compare the text first)."""
    new_by_number = {rule.number: index for index, rule in enumerate(new)}
    for index, rule in enumerate(old):
        other = new_by_number.get(rule.number)
        if other is not None and (
            rule.text == new[other].text or words_key(rule.text) == words_key(new[other].text)
        ):
            matched[index] = other


def _match_unique_texts(old: Sequence[Rule], new: Sequence[Rule], matched: dict[int, int]) -> None:
    """Pair a text found under one other number only: a move or a renumbering."""
    taken = set(matched.values())
    old_by_key: dict[str, list[int]] = defaultdict(list)
    new_by_key: dict[str, list[int]] = defaultdict(list)
    for index, rule in enumerate(old):
        if index not in matched:
            old_by_key[typography_key(rule.text)].append(index)
    for index, rule in enumerate(new):
        if index not in taken:
            new_by_key[typography_key(rule.text)].append(index)
    for key, olds in old_by_key.items():
        news = new_by_key.get(key, [])
        if len(olds) == 1 and len(news) == 1 and _same_part(old[olds[0]], new[news[0]]):
            matched[olds[0]] = news[0]


def _match_in_order(old: Sequence[Rule], new: Sequence[Rule], matched: dict[int, int]) -> None:
    """Pair identical texts ('Reserved for future use.') in order within a chapter (a part of
    a tournament document's section with the same part only)."""
    taken = set(matched.values())
    waiting: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for index, rule in enumerate(new):
        if index not in taken:
            waiting[_in_order_key(rule)].append(index)
    for index, rule in enumerate(old):
        if index in matched:
            continue
        queue = waiting.get(_in_order_key(rule))
        if queue:
            matched[index] = queue.pop(0)


def _in_order_key(rule: Rule) -> tuple[str, str, str]:
    return rule.number[:3], part_name(rule.number), typography_key(rule.text)


class _Weights(dict[str, float]):
    """Word weights, log(1 + rules / rules holding the word), each worked out when first asked."""

    def __init__(self, old: Counter[str], new: Counter[str], total: int) -> None:
        super().__init__()
        self.old, self.new, self.total = old, new, total

    def __missing__(self, word: str) -> float:
        held = self.old.get(word, 0) + self.new.get(word, 0)
        weight = self[word] = log(1 + self.total / (held or 1))
        return weight


class Evidence:
    """Word weights of two releases (rarer words weigh more) and weighted likeness of texts."""

    def __init__(
        self,
        old: Sequence[Rule],
        new: Sequence[Rule],
        whole: tuple[Sequence[Rule], Sequence[Rule]] | None = None,
        chapters: Mapping[str, str] | None = None,
    ) -> None:
        whole_old, whole_new = whole or (old, new)
        self.chapters = chapters or {}
        self.old_frequency = _document_frequency(whole_old)
        # What was set aside holds the same texts on both sides: the new release's counts are
        # the old one's, less the rules left in `old`, plus those left in `new`.
        change = (self.old_frequency, old, new) if whole else None
        self.new_frequency = _document_frequency(whole_new, change)
        self.total = len(whole_old) + len(whole_new)
        self._releases = (whole_old, whole_new)
        self.weights = _Weights(self.old_frequency, self.new_frequency, self.total)
        self._masses: dict[str, float] = {}
        # Scoring a pair asks for the words its texts share up to three times (likeness, kept,
        # and again when a rewrite in place is scored): once is enough.
        self._shared: dict[tuple[str, str], float] = {}
        self.parents: dict[str, str] = {}  # old number -> new number of the rules paired so far
        self.kept_children: set[tuple[str, str]] = set()  # (old, new) whose sub-rules paired

    def common(self, word: str) -> bool:
        """Tell whether a word is too common to point at candidates."""
        held = self.old_frequency.get(word, 0) + self.new_frequency.get(word, 0)
        return held > _COMMON_SHARE * self.total

    def mass(self, text: str) -> float:
        """Return the total weight of a text's words."""
        mass = self._masses.get(text)
        if mass is None:
            weights = self.weights
            mass = sum(weights[word] * count for word, count in word_bag(text).items())
            self._masses[text] = mass
        return mass

    def shared(self, one: str, other: str) -> float:
        """Return the weight of the words two texts share."""
        key = (one, other)
        shared = self._shared.get(key)
        if shared is None:
            a, b = word_bag(one), word_bag(other)
            if len(b) < len(a):
                a, b = b, a
            weights, theirs = self.weights, b.get
            shared = self._shared[key] = sum(
                weights[word] * (count if count <= other_count else other_count)
                for word, count in a.items()
                if (other_count := theirs(word, 0))  # a bag's counts are never 0
            )
        return shared

    def likeness(self, one: str, other: str) -> float:
        """Return the weighted Dice coefficient of two texts' words, 0..1."""
        mass = self.mass(one) + self.mass(other)
        return 2 * self.shared(one, other) / mass if mass else 1.0

    def score(self, old: Rule, new: Rule) -> float:
        """Return the evidence that two rules are one: likeness, kept words, opening, place.

        The mean of likeness and kept words lets the part of a split rule that holds its
        opening words outrank a longer part (410.2's first sentence is 603.2, not 112.7).
        """
        one, other = old.text, new.text
        if not _same_part(old, new):
            return 0.0  # a Penalty stays a Penalty: a part's name is what it is
        if self.is_repeated(one, other) and self.placed(old.number)[:3] != new.number[:3]:
            return 0.0  # a text printed in several sections is placed by its section
        mass = self.mass(one) + self.mass(other)  # the likeness, without a call (most pairs)
        likeness = 2 * self.shared(one, other) / mass if mass else 1.0
        if likeness < LIKENESS_FLOOR:
            return likeness
        kept = (likeness + self.kept(one, other)) / 2
        parent = _parent(old.number)
        went = self.parents.get(parent) if parent is not None else None
        if (
            went is not None
            and new.number[:3] in KEYWORDS
            and went[:3] == new.number[:3]
            and went != _parent(new.number)
        ):
            # a keyword's sub-rule stays with its keyword: Prowl's 702.73b is not Deathtouch's
            # new 702.2d because both speak of last known information
            return 0.0
        follows = (went is not None and went == _parent(new.number)) or (
            (old.number, new.number) in self.kept_children
        )
        return (
            max(likeness, kept)
            + _opening_bonus(old.text, new.text)
            + _place_bonus(self.placed(old.number), new.number)
            + (_FOLLOWS_PARENT if follows else 0.0)
        )

    def in_place(self, old: Rule, new: Rule) -> bool:
        """Tell whether two rules are in one place: the same number, or the same section for
        texts that both releases print in several sections ('Third, the active player gets
        priority.' of the draw step, now 'Second, ...'), where less likeness is enough."""
        if old.number == new.number:
            return True
        repeated = self.is_repeated(old.text, new.text) and (
            _opening_free(old.text) in self.repeated_before
        )
        return repeated and self.placed(old.number)[:3] == new.number[:3]

    @cached_property
    def repeated(self) -> set[str]:
        """The new release's texts printed more than once (see `_repeated`)."""
        return _repeated(self._releases[1])

    @cached_property
    def repeated_before(self) -> set[str]:
        """The old release's texts printed more than once."""
        return _repeated(self._releases[0])

    @property
    def old_rules(self) -> Sequence[Rule]:
        """Every rule of the old release."""
        return self._releases[0]

    def is_repeated(self, old: str, new: str) -> bool:
        """Tell whether a new text is printed in several sections of its release (but for its
        first word: 'Second, the active player gets priority.', 'Third, ...'), unlike the old."""
        if old == new:  # the same text is the same rule wherever it went (117.2 -> 119.3a)
            return False
        return _opening_free(new) in self.repeated

    def placed(self, number: str) -> str:
        """Return where an old number stands in the new release if nothing but its chapter
        moved."""
        chapter = self.chapters.get(number[:3])
        return number if chapter is None else chapter + number[3:]

    def follow(
        self,
        old: Sequence[Rule],
        new: Sequence[Rule],
        matched: dict[int, int],
        whole: tuple[Sequence[Rule], Sequence[Rule]] | None,
    ) -> None:
        """Learn from the certain pairs where parents went and whose sub-rules stayed together.

        The rules identical in both releases (set aside before aligning) stayed where they were.
        """
        self.parents = {old[o].number: new[n].number for o, n in matched.items()}
        for old_number, new_number in self.parents.items():
            old_parent, new_parent = _parent(old_number), _parent(new_number)
            if old_parent is not None and new_parent is not None:
                self.kept_children.add((old_parent, new_parent))
        if whole is not None:  # what was set aside as identical is under the same number
            aligned = {rule.number for rule in old}
            stayed = {rule.number for rule in whole[0]} & {rule.number for rule in whole[1]}
            stayed -= aligned  # the pairs learnt above are all in `aligned`: none is replaced
            self.parents |= dict(zip(stayed, stayed, strict=True))
            parents = filter(None, map(_parent, stayed))
            self.kept_children |= {(parent, parent) for parent in parents}

    def moves_alone(self, old: Rule, new: Rule) -> bool:
        """Tell whether pairing two rules moves one to another chapter alone: the rules next to
        the old one went on in its chapter, and those next to the new one were in the new one's.

        A rule that reads like a rule of another chapter is no move without more evidence
        (Commander's 903.9, removed in 2016, and the new 106.10 both turn mana colorless).
        """
        chapter = self.placed(old.number)[:3]
        if chapter == new.number[:3]:
            return False
        before, after = self._neighbours
        went = list(filter(None, map(self.parents.get, before.get(old.number, ()))))
        came = list(filter(None, map(self._came_from.get, after.get(new.number, ()))))
        return (
            bool(went and came)
            and all(number[:3] == chapter for number in went)
            and all(self.placed(number)[:3] == new.number[:3] for number in came)
        )

    def gaps(
        self, old: Sequence[Rule], new: Sequence[Rule], matched: Mapping[int, int]
    ) -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str, str]]]:
        """Place each rule left over between two paired rules: (new number of the paired rule
        before it, of the one after it), for the old release's rules and for the new one's."""
        went = self.parents | {old[o].number: new[n].number for o, n in matched.items()}
        paired = set(went.values())
        whole_old, whole_new = self._releases
        old_anchors = [went.get(rule.number) for rule in whole_old]
        new_anchors = [rule.number if rule.number in paired else None for rule in whole_new]
        return _gaps(old_anchors, whole_old), _gaps(new_anchors, whole_new)

    @cached_property
    def _neighbours(self) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
        """The numbers either side of each rule's, in the old release and in the new."""
        return _neighbours(self._releases[0]), _neighbours(self._releases[1])

    @cached_property
    def _came_from(self) -> dict[str, str]:
        """New number -> old number of the rules paired so far (asked once they are learnt)."""
        return {new: old for old, new in self.parents.items()}

    def kept(self, one: str, other: str) -> float:
        """Return the weighted share of the shorter text's words found in the longer one.

        A title ('Artifacts') is found in too many texts to tell anything: below KEPT_WORDS
        words the answer is the likeness.
        """
        if min(word_bag(one).total(), word_bag(other).total()) < KEPT_WORDS:
            return self.likeness(one, other)
        mass = min(self.mass(one), self.mass(other))
        return self.shared(one, other) / mass if mass else 0.0


_parent = lru_cache(maxsize=1 << 14)(parent_of)  # asked of every rule of each pair


def _same_part(old: Rule, new: Rule) -> bool:
    """Tell whether two units are the same part of their sections (any two CR rules are)."""
    return part_name(old.number) == part_name(new.number)


# Each release of a chain is diffed twice, with either neighbour: its word counts are kept for
# the last few releases, by identity (hashing 2,000 rules would cost as much as counting).
_FREQUENCIES: dict[int, tuple[Sequence[Rule], Counter[str]]] = {}
_KEPT_FREQUENCIES = 8


def _document_frequency(
    rules: Sequence[Rule],
    change: tuple[Counter[str], Sequence[Rule], Sequence[Rule]] | None = None,
) -> Counter[str]:
    """Count the rules each word appears in.

    `change` is (another release's counts, its rules that are not in `rules`, the rules of
    `rules` that are not in it): the texts of the other rules are the same in both.
    """
    kept = _FREQUENCIES.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1]
    if change is None:
        frequency = Counter(_words_of_each(rules))
    else:
        counts, gone, added = change
        frequency = counts.copy()
        frequency.subtract(_words_of_each(gone))
        frequency.update(_words_of_each(added))
    if len(_FREQUENCIES) >= _KEPT_FREQUENCIES:
        del _FREQUENCIES[next(iter(_FREQUENCIES))]
    _FREQUENCIES[id(rules)] = (rules, frequency)  # the rules are kept: their id stays theirs
    return frequency


# Like the word counts, kept for the last few releases by identity.
_REPEATED: dict[int, tuple[Sequence[Rule], set[str]]] = {}


def _repeated(rules: Sequence[Rule]) -> set[str]:
    """Return the texts printed by more than one rule, each without its first word ('Second,
    the active player gets priority.' and 'Third, ...' in every step of the turn)."""
    kept = _REPEATED.get(id(rules))
    if kept is not None and kept[0] is rules:
        return kept[1]
    counts = Counter(_opening_free(rule.text) for rule in rules)
    repeated = {text for text, count in counts.items() if count > 1}
    if len(_REPEATED) >= _KEPT_FREQUENCIES:
        del _REPEATED[next(iter(_REPEATED))]
    _REPEATED[id(rules)] = (rules, repeated)  # the rules are kept: their id stays theirs
    return repeated


def _gaps(anchors: Sequence[str | None], rules: Sequence[Rule]) -> dict[str, tuple[str, str]]:
    """Map each rule without an anchor (a paired rule's new number) to the anchors either side."""
    gaps: dict[str, tuple[str, str]] = {}
    before, waiting = "", []
    for anchor, rule in zip([*anchors, ""], [*rules, None], strict=True):
        if anchor is None and rule is not None:
            waiting.append(rule.number)
            continue
        gaps |= dict.fromkeys(waiting, (before, anchor or ""))
        before, waiting = anchor or "", []
    return gaps


def _neighbours(rules: Sequence[Rule]) -> dict[str, tuple[str, ...]]:
    """Map each rule's number to those of the rules before and after it."""
    numbers = [rule.number for rule in rules]
    return {
        number: tuple(numbers[max(0, at - 1) : at] + numbers[at + 1 : at + 2])
        for at, number in enumerate(numbers)
    }


def _opening_free(text: str) -> str:
    """A text without its first word (a one-word title is '': titles count as repeated, so a
    retitled rule is paired within its section only)."""
    return text.partition(" ")[2]


def _words_of_each(rules: Sequence[Rule]) -> Iterator[str]:
    """Yield the words of each rule, each word once a rule."""
    return chain.from_iterable(word_bag(rule.text).keys() for rule in rules)


def _opening_bonus(old: str, new: str) -> float:
    """Credit for opening with the same words, as a rule that kept its subject does."""
    shared = 0
    for one, other in zip(_opening(old), _opening(new), strict=False):
        if one != other:
            break
        shared += 1
    return _SAME_OPENING * shared / _OPENING_WORDS


@lru_cache(maxsize=1 << 15)
def _opening(text: str) -> tuple[str, ...]:
    return tuple(first_words(text, _OPENING_WORDS))


def _place_bonus(old: str, new: str) -> float:
    """A little credit for staying in place: same number, same parent rule, same chapter."""
    if old == new:
        return _SAME_NUMBER
    if _parent(old) == _parent(new):
        return _SAME_PARENT
    return _SAME_CHAPTER if old[:3] == new[:3] else 0.0


def _match_by_evidence(
    old: Sequence[Rule], new: Sequence[Rule], matched: dict[int, int], evidence: Evidence
) -> None:
    """Score candidate pairs of the unpaired rules; take them best first, each rule once."""
    taken = set(matched.values())
    free_new = [index for index in range(len(new)) if index not in taken]
    new_by_number = {new[index].number: index for index in free_new}
    postings: dict[str, list[int]] = defaultdict(list)
    common: dict[str, bool] = {}
    for index in free_new:
        for word in word_bag(new[index].text):
            too_common = common.get(word)
            if too_common is None:
                too_common = common[word] = evidence.common(word)
            if not too_common:
                postings[word].append(index)
    masses = {index: evidence.mass(new[index].text) for index in free_new}
    weights = evidence.weights
    scored: list[tuple[float, int, int]] = []
    for index, rule in enumerate(old):
        if index in matched:
            continue
        votes: dict[int, float] = defaultdict(float)
        for word in word_bag(rule.text):
            posting = postings.get(word)
            if posting:
                weight = weights[word]
                for candidate in posting:
                    votes[candidate] += weight
        candidates = _best_candidates(votes, evidence.mass(rule.text), masses)
        if rule.number in new_by_number:
            candidates.add(new_by_number[rule.number])
        for candidate in candidates:
            other = new[candidate]
            score = evidence.score(rule, other)
            floor = SAME_NUMBER_PAIRED if evidence.in_place(rule, other) else PAIRED
            if evidence.moves_alone(rule, other):
                floor = LONE_MOVE
            if score >= floor:
                scored.append((score, index, candidate))
    parent = evidence.placed

    def together(index: int, candidate: int) -> bool:
        return _parent(parent(old[index].number)) == _parent(new[candidate].number)

    _take_best_first(scored, matched, taken, together)


def _take_best_first(
    scored: list[tuple[float, int, int]],
    matched: dict[int, int],
    taken: set[int],
    together: Callable[[int, int], bool] | None = None,
) -> None:
    """Pair (score, old index, new index) candidates best first, each rule once.

    With `together` (whether an old and a new rule are under one parent): a rule whose best
    candidate, under its own parent, went to another rule takes a lesser candidate only if
    it scores at least SECOND_CHOICE of the best. Else its text went into that candidate too
    (201.2b folded into 201.2a) or came out of it, which find_splits tells.
    """
    scored.sort(key=lambda item: (-item[0], item[1], item[2]))
    best_old: dict[int, tuple[float, int]] = {}
    best_new: dict[int, tuple[float, int]] = {}
    if together is not None:
        for score, index, candidate in scored:
            best_old.setdefault(index, (score, candidate))
            best_new.setdefault(candidate, (score, index))
    for score, index, candidate in scored:
        if index in matched or candidate in taken:
            continue
        if together is not None:
            (old_best, other), (new_best, rival) = best_old[index], best_new[candidate]
            if (score < SECOND_CHOICE * old_best and together(index, other)) or (
                score < SECOND_CHOICE * new_best and together(rival, candidate)
            ):
                continue
        matched[index] = candidate
        taken.add(candidate)


def _best_candidates(votes: dict[int, float], mass: float, masses: dict[int, float]) -> set[int]:
    """The candidates sharing most weight with a text, as a share of both texts and of theirs.

    The second ranking keeps a short rule that holds one sentence of a long one in the running.
    `mass` is the text's, `masses` the candidates'.
    """
    candidates, shares = list(votes), list(votes.values())
    theirs = list(map(masses.__getitem__, candidates))
    return {
        *_lowest([-s / (mass + m) for s, m in zip(shares, theirs, strict=True)], candidates),
        *_lowest([-s / (m or 1) for s, m in zip(shares, theirs, strict=True)], candidates, 2),
    }


def _lowest(keys: list[float], candidates: list[int], fraction: int = 1) -> list[int]:
    """Return the _CANDIDATES // fraction candidates of lowest (key, candidate)."""
    count = _CANDIDATES // fraction
    if len(keys) <= count:
        return candidates
    # Sorting bare floats and pairing only those at or below the cut is far quicker than
    # sorting (key, candidate) pairs; ties at the cut go to the lower candidates, as before.
    cut = sorted(keys)[count - 1]
    chosen = [pair for pair in zip(keys, candidates, strict=True) if pair[0] <= cut]
    if len(chosen) > count:
        chosen = nsmallest(count, chosen)
    return [candidate for _, candidate in chosen]


def _match_swapped(
    old: Sequence[Rule], new: Sequence[Rule], matched: dict[int, int], evidence: Evidence
) -> None:
    """Pair two neighbours left over on both sides that traded places, when each reads more
    like the other's new text than like its own (2016 put the end of combat step's 'Second,
    the active player gets priority' first, as 'Once it begins, the active player gets
    priority', and its triggers second).
    """
    taken = set(matched.values())
    free_new = {rule.number: index for index, rule in enumerate(new) if index not in taken}
    by_place: dict[tuple[str, int], int] = {}
    for index, rule in enumerate(old):
        place = _position(rule.number)
        if index not in matched and place is not None and rule.number in free_new:
            by_place[place] = index
    for (parent, ordinal), index in by_place.items():
        other = by_place.get((parent, ordinal + 1))
        if other is None or index in matched or other in matched:
            continue
        first, second = old[index], old[other]
        first_new, second_new = new[free_new[first.number]], new[free_new[second.number]]
        crossed = (
            evidence.likeness(first.text, second_new.text),
            evidence.likeness(second.text, first_new.text),
        )
        straight = (
            evidence.likeness(first.text, first_new.text),
            evidence.likeness(second.text, second_new.text),
        )
        if min(crossed) >= REWRITTEN and all(c > s for c, s in zip(crossed, straight, strict=True)):
            matched[index] = free_new[second.number]
            matched[other] = free_new[first.number]


def _match_rewritten_in_place(
    old: Sequence[Rule], new: Sequence[Rule], matched: dict[int, int], evidence: Evidence
) -> None:
    """Pair rules left over in one place on both sides when their texts still share enough.

    One place: the same number, a sub-rule of a rule that moved (502.63a under 502.63, which
    became 702.2, and 702.2a), or between the same two paired rules on both sides (100.3,
    the forty-card decks of limited play, and 100.2b in 2009, both between 100.2 and 101.1
    once 100.2 had gained 100.2a). A rule rewritten in place ('Alternative costs are always
    optional.' growing into a paragraph) is one change, not a removal and an addition.
    """
    taken = set(matched.values())
    children_went, scattered = _children_went(old, new, matched)
    paired = {old[o].number: new[n].number for o, n in matched.items()}
    moved_parents = children_went | paired
    scattered -= paired.keys()
    free_by_number = {rule.number: index for index, rule in enumerate(new) if index not in taken}
    free_by_parent: dict[str | None, list[int]] = defaultdict(list)
    for index in free_by_number.values():
        free_by_parent[_parent(new[index].number)].append(index)
    old_gaps, new_gaps = evidence.gaps(old, new, matched)
    free_by_gap: dict[tuple[str, str] | None, list[int]] = defaultdict(list)
    for index in free_by_number.values():
        free_by_gap[new_gaps.get(new[index].number)].append(index)
    free_by_gap.pop(None, None)
    scored: list[tuple[float, int, int]] = []
    for index, rule in enumerate(old):
        if index in matched:
            continue
        candidates = set()
        if rule.number in free_by_number:
            candidates.add(free_by_number[rule.number])
        parent = _parent(rule.number)
        if parent in moved_parents:
            candidates.update(free_by_parent.get(moved_parents[parent], ()))
        candidates.update(free_by_gap.get(old_gaps.get(rule.number), ()))
        for candidate in candidates:
            old_text, new_text = rule.text, new[candidate].text
            likeness = evidence.likeness(old_text, new_text)
            if new[candidate].number == rule.number:
                enough = likeness >= REWRITTEN or evidence.kept(old_text, new_text) >= KEPT_SHARE
            else:
                enough = likeness >= REWRITTEN_MOVED and (
                    parent not in scattered or evidence.kept(old_text, new_text) >= SCATTERED_KEPT
                )
            score = evidence.score(rule, new[candidate])
            went = moved_parents.get(parent) if parent is not None else None
            if not score and went is not None and went == _parent(new[candidate].number):
                score = likeness  # a text printed in several sections, placed by its siblings
            if enough and score:
                scored.append((score, index, candidate))
    _take_best_first(scored, matched, taken)


def _children_went(
    old: Sequence[Rule], new: Sequence[Rule], matched: Mapping[int, int]
) -> tuple[dict[str, str], set[str]]:
    """Map each old parent to the new parent most of its paired sub-rules went under (214.9,
    'Lands', whose 214.9a-f became 212.6a-e in 2003, though 212.6 is titled 'Land'); also
    return the parents whose sub-rules scattered, no place taking more than half of them.

    2003's 415 ('Editing Spells') sent one sub-rule each to 415.7a, 418.6a and 213.5: its
    415.1 ('A few effects can "edit" a spell...') is no rewrite of the new 418.6d (token
    types changed by text-changing effects), though the two share a third of their words.
    """
    went: dict[str, Counter[str]] = defaultdict(Counter)
    for o, n in matched.items():
        old_parent, new_parent = _parent(old[o].number), _parent(new[n].number)
        if old_parent is not None and new_parent is not None:
            went[old_parent][new_parent] += 1
    places = {parent: counts.most_common(1)[0] for parent, counts in went.items()}
    scattered = {p for p, (_, count) in places.items() if 2 * count <= went[p].total()}
    return {parent: place for parent, (place, _) in places.items()}, scattered


def _pairs_in_order(
    old: Sequence[Rule], new: Sequence[Rule], matched: dict[int, int]
) -> list[Pair]:
    """Return pairs in the new release's order; a removed rule follows its old predecessor."""
    by_new = {new_index: old_index for old_index, new_index in matched.items()}
    removed_before: dict[int, list[Rule]] = defaultdict(list)  # new index -> removed rules
    for index, rule in enumerate(old):
        if index not in matched:
            at = bisect_right(new, rule_sort_key(rule.number), key=_number_key)
            removed_before[at].append(rule)
    pairs: list[Pair] = []
    for index, rule in enumerate(new):
        if index in removed_before:
            pairs.extend(Pair(gone, None) for gone in removed_before[index])
        pairs.append(Pair(old[by_new[index]] if index in by_new else None, rule))
    pairs.extend(Pair(gone, None) for gone in removed_before.get(len(new), ()))
    return pairs


def _number_key(rule: Rule) -> tuple[int, int, int, str]:
    return rule_sort_key(rule.number)


def renumbering(pairs: Sequence[Pair]) -> list[tuple[str, str]]:
    """Return every (old number, new number) of a rule that kept its line but changed number."""
    return [
        (pair.old.number, pair.new.number)
        for pair in pairs
        if pair.old and pair.new and pair.old.number != pair.new.number
    ]


def compact_ranges(moves: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """Fold runs of shifted numbers: 702.140..702.190 -> 702.141..702.191 as one ('a–b', 'c–d')."""
    ranges: list[list[tuple[str, str]]] = []
    for old, new in moves:
        if ranges and _continues(ranges[-1][-1], (old, new)):
            ranges[-1].append((old, new))
        else:
            ranges.append([(old, new)])
    return [
        (run[0][0], run[0][1])
        if len(run) == 1
        else (f"{run[0][0]}–{run[-1][0]}", f"{run[0][1]}–{run[-1][1]}")
        for run in ranges
    ]


def _position(number: str) -> tuple[str, int] | None:
    """Return (parent, ordinal): ('903.11', 5) for 903.11e, ('702', 140) for 702.140."""
    if len(number) == 3 and number.isdigit():  # a chapter: '725' -> '726' runs like rules
        return "", int(number)
    match = RULE_NUMBER.fullmatch(number)
    if match is None:
        return None
    chapter, rule, letters = match.groups()
    if letters:  # 'a' is 1, 'z' 26, 'aa' 27: a run of sub-rules goes on past 'z'
        ordinal = sum(26**i * (ord(letter) - 96) for i, letter in enumerate(reversed(letters)))
        return f"{chapter}.{rule}", ordinal
    return chapter, int(rule)


def _continues(previous: tuple[str, str], current: tuple[str, str]) -> bool:
    """Tell whether a move shifts like the one before it: the next rule, the same offset."""
    positions = [_position(number) for number in (*previous, *current)]
    (po, pn, co, cn) = positions
    if po is None or pn is None or co is None or cn is None:
        return False
    same_parents = po[0] == co[0] and pn[0] == cn[0]
    return same_parents and pn[1] - po[1] == cn[1] - co[1] and co[1] - po[1] == 1
