"""Cross-references in rule text: rule, chapter and section numbers and glossary terms, as links.

A reference links to the rule as it stood in the release the text comes from: the rule's
permanent page, at the version that release printed (`#v<date>`) unless it is the newest.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from markupsafe import Markup, escape
from rulesarchive.corpus.numbers import Citation, parse_citations
from rulesarchive.differ.language import Language
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.link_cache import LinkCache, Linked
from rulesarchive.site_builder.spans import weave

# A text holds a citation only where it holds a digit: a test far quicker than parsing, and
# most texts hold none.
_DIGITS = re.compile(r"\d")
# A term is linked only where it looks like a term (junk entries of a bad parse never are).
_TERM_SHAPE = re.compile(r"[^\d.:;!?“”\"]{3,40}")


Found = tuple[int, int, str]  # a number spelled out in a text: its start, end, and the number


class References:
    """Find and link the references of one language's texts."""

    def __init__(
        self, data: Language, glossary_paths: dict[str, str], links: LinkCache | None = None
    ) -> None:
        self.data = data
        self.links = links or LinkCache(None, data.language)
        self.newest = len(data.releases) - 1
        self.glossary_paths = glossary_paths  # term key -> glossary page
        self.chapters = {h.number for h in data.headings if len(h.number) in (1, 3)}
        self.release_index = {r.effective_date: i for i, r in enumerate(data.releases)}
        self._terms: dict[int, tuple[re.Pattern[str] | None, dict[str, str]]] = {}
        self._term_keys: dict[int, tuple[tuple[str, str, str], ...]] = {}  # what _terms is from
        self._digests: dict[int, str] = {}  # of _term_keys, as keys of the link cache take it
        self._linkable: list[tuple[str, list[tuple[int, int, str]]]] | None = None
        self._changes: dict[int, re.Pattern[str] | None] = {}  # release -> terms linked anew
        # A text is read in many places (a rule's page, changelogs, its chapter): found once.
        self._found_in: dict[str, list[Found]] = {}
        self._targets: dict[tuple[str, int, bool], str | None] = {}

    def rule_target(self, number: str, index: int, anchored: bool = False) -> str | None:
        """Return the page (with its version anchor) of the rule holding a number in a release;
        the newest release's rule has none unless `anchored`."""
        line = self.data.holder(number, index)
        if line is None:
            return None
        target = paths.rule_page(self.data.language, line)
        if index == self.newest and not anchored:
            return target
        stretch = next(s for s in line.stretches if s.first <= index <= s.last)
        return f"{target}#v{self.data.releases[stretch.first].effective_date.isoformat()}"

    def chapter_target(self, number: str, index: int, anchored: bool = False) -> str | None:
        """Return where a chapter or section reference of a release leads (its chapter page in
        the newest release, unless `anchored`: its first rule's version)."""
        if index == self.newest and number in self.chapters and not anchored:
            if len(number) == 3:
                return paths.chapter_page(self.data.language, number)
            return f"{self.data.language}/chapters/index.html#s{number}"
        first = f"{number}.1" if len(number) == 3 else f"{number}00.1"
        return self.rule_target(first, index, anchored)

    def fragment_html(self, page: str, text: str, index: int) -> Markup:
        """Return the words a sweep renames in several rules, linked: a bare section number
        ('407' -> '606' in 2009) is a section reference, whose 'rule' the sweep leaves out."""
        if _SECTION_NUMBER.fullmatch(text):
            return Markup(self._link(page, text, text, self.target(text, index)))
        return self.html(page, text, index)

    def anchored_html(self, page: str, text: str, index: int) -> Markup:
        """Return a text of this language's release `index`, shown on a page of another
        language, with its references linked to the versions they name: anchored links
        read the same whatever releases come later, as those pages' memos assume."""
        found = self._found(text)
        if not found:
            return escape(text)
        targets = tuple(self.target(number, index, True) for *_, number in found)
        return Markup(self._html(page, text, index, None, found, targets))

    def html(self, page: str, text: str, index: int, terms: set[str] | None = None) -> Markup:
        """Return text as HTML with its references linked; `terms`: link glossary terms once."""
        found = self._found(text)
        if not found and terms is None:  # nothing to link: escaped, quicker than a lookup
            return escape(text)
        targets = tuple(self.target(number, index) for *_, number in found)
        glossary = None if terms is None else (self.terms_digest(index), tuple(sorted(terms)))
        key = self.links.key(page, text, targets, glossary)
        kept = self.links.get(page, key)
        if kept is None:
            kept = None if terms is None else self._linked_before(page, text, index, targets, terms)
            if kept is None:
                before = set() if terms is None else set(terms)
                html = self._html(page, text, index, terms, found, targets)
                kept = (str(html), tuple(sorted((terms or set()) - before)))
            self.links.put(page, key, kept)
        if terms is not None:
            terms.update(kept[1])
        return Markup(kept[0])

    def _linked_before(
        self, page: str, text: str, index: int, targets: tuple[str | None, ...], terms: set[str]
    ) -> Linked | None:
        """The text as the last build linked it with the glossary of the release before, if
        no term that came, went or changed page between the two could be in it: then its
        terms match where they did (a match is a term's words, in any case), and link alike.

        Most releases add a term or two, which a text of the newest release would otherwise
        be linked again for (the term patterns are the costly part of linking).
        """
        if index == 0:
            return None
        glossary = (self.terms_digest(index - 1), tuple(sorted(terms)))
        kept = self.links.last_build(page, self.links.key(page, text, targets, glossary))
        if kept is None:
            return None
        changed = self._changed_terms(index)
        return None if changed is not None and changed.search(text) else kept

    def _changed_terms(self, index: int) -> re.Pattern[str] | None:
        """Find the terms linked differently in a release and the one before, in any case
        (as the term patterns do: IGNORECASE matches more than case-folding finds)."""
        if index not in self._changes:
            changed = set(self._terms_of(index - 1)) ^ set(self._terms_of(index))
            words = sorted({re.escape(word) for word, _, _ in changed})
            self._changes[index] = re.compile("|".join(words), re.IGNORECASE) if words else None
        return self._changes[index]

    def _html(
        self,
        page: str,
        text: str,
        index: int,
        terms: set[str] | None,
        found: list[Found],
        targets: tuple[str | None, ...],
    ) -> str:
        spans = [
            (start, end, (value, target))
            for (start, end, value), target in zip(found, targets, strict=True)
        ]
        return weave(
            text,
            spans,
            lambda piece: self._plain(page, piece, index, terms),
            lambda shown, cited: self._link(page, shown, *cited),
        )

    def diff_html(
        self, page: str, pieces: Iterable[tuple[int, str]], index: int, before: int | None = None
    ) -> Markup:
        """Render a word diff with <del>/<ins>, references linked in the release each side shows.

        The new side is release `index`; the old one `before` (by default the release before).
        """
        before = index - 1 if before is None else before
        pieces = list(pieces)
        # A reference may need words of the pieces around it: 'see rule <del>725</del>'.
        sides = {
            side: self._found("".join(text for op, text in pieces if op * side >= 0))
            for side in (-1, 1)
        }
        at = {-1: 0, 1: 0}  # where each piece starts in the old (-1) and new (1) text
        parts = []
        for op, text in pieces:
            side = -1 if op < 0 else 1
            own = self._found(text)
            extra = _spanned(sides[side], at[side], text, own)
            release = before if op < 0 else index
            if extra:
                found = sorted(own + extra)
                targets = tuple(self.target(number, release) for *_, number in found)
                linked = Markup(self._html(page, text, release, None, found, targets))
            else:
                linked = self.html(page, text, release)
            for moved in (-1, 1) if op == 0 else (side,):
                at[moved] += len(text)
            parts.append(
                f"<del>{linked}</del>" if op < 0 else f"<ins>{linked}</ins>" if op > 0 else linked
            )
        return Markup("".join(parts))

    def _found(self, text: str) -> list[Found]:
        """The numbers the text's citations name (corpus.numbers.parse_citations, as the
        reference check reads them), in order: a range's end written short is linked too
        ('h' of '601.2f–h' to 601.2h)."""
        found = self._found_in.get(text)
        if found is None:
            found = self._found_in[text] = citation_spans(text)
        return found

    def target(self, number: str, index: int, anchored: bool = False) -> str | None:
        """Return where a cited number of a release leads: a rule (see rule_target), or a
        chapter or section (see chapter_target)."""
        key = (number, index, anchored)
        if key not in self._targets:  # one number is cited by many texts of a release
            if "." in number:
                self._targets[key] = self.rule_target(number, index, anchored)
            else:
                self._targets[key] = self.chapter_target(number, index, anchored)
        return self._targets[key]

    def _link(self, page: str, shown: str, value: str, target: str | None) -> str:
        if target is None:
            title = f"no rule {escape(value)} in this release"
            return f'<span class="dangling" title="{title}">{escape(shown)}</span>'
        return f'<a href="{escape(paths.relative(page, target))}">{escape(shown)}</a>'

    def _plain(self, page: str, text: str, index: int, terms: set[str] | None) -> str:
        if terms is None or not text:
            return str(escape(text))
        pattern, keys = self._term_pattern(index)
        if pattern is None:
            return str(escape(text))
        parts: list[str] = []
        position = 0
        for match in pattern.finditer(text):
            key = _term_of(match.group(0), keys)
            if key is None or key in terms:
                continue
            terms.add(key)
            target = paths.relative(page, self.glossary_paths[key])
            parts.append(str(escape(text[position : match.start()])))
            parts.append(f'<a class="term" href="{escape(target)}">{escape(match.group(0))}</a>')
            position = match.end()
        parts.append(str(escape(text[position:])))
        return "".join(parts)

    def _terms_of(self, index: int) -> tuple[tuple[str, str, str], ...]:
        """Return the glossary terms a text of a release may link: (folded, key, page)."""
        if index not in self._term_keys:
            keys = {}
            for key, stretches in self._linkable_terms():
                for first, last, folded in stretches:
                    if first <= index <= last:
                        keys[folded] = key
            # In the glossary's order, which the pattern's alternatives follow.
            self._term_keys[index] = tuple(
                (word, key, self.glossary_paths[key]) for word, key in keys.items()
            )
        return self._term_keys[index]

    def _linkable_terms(self) -> list[tuple[str, list[tuple[int, int, str]]]]:
        """The glossary's terms with a page, each with its (first, last, case-folded term)
        stretches that look like a term, in the glossary's order (worked out once)."""
        if self._linkable is None:
            self._linkable = [
                (
                    term.key,
                    [
                        (first, last, entry.term.casefold())
                        for first, last, entry in term.stretches
                        if _TERM_SHAPE.fullmatch(entry.term)
                    ],
                )
                for term in self.data.glossary
                if term.key in self.glossary_paths
            ]
        return self._linkable

    def terms_digest(self, index: int) -> str:
        """Sum up the glossary terms a text of a release may link, and their pages."""
        if index not in self._digests:
            self._digests[index] = hashlib.sha1(repr(self._terms_of(index)).encode()).hexdigest()
        return self._digests[index]

    def _term_pattern(self, index: int) -> tuple[re.Pattern[str] | None, dict[str, str]]:
        if index not in self._terms:
            keys = {word: key for word, key, _ in self._terms_of(index)}
            self._terms[index] = (_pattern(keys), keys)
        return self._terms[index]


def citation_spans(text: str) -> list[Found]:
    """The numbers a text's citations name, where each is spelled out, in order: the spans a
    link is put on (corpus.numbers.parse_citations, as the reference check reads them)."""
    citations = parse_citations(text) if _DIGITS.search(text) else ()
    return [span for citation in citations for span in linked_spans(citation)]


def linked_spans(citation: Citation) -> tuple[Found, ...]:
    """The numbers of a citation a link is put on: each one spelled out, and a range's end or
    a list member written short, whose letters stand for the whole number."""
    spans = citation.spans
    if not spans:  # a list member written short: 'b' of 'rules 608.3a and b'
        return ((citation.start, citation.end, citation.first),)
    if len(spans) == 1 and citation.last_at >= 0 and citation.last != citation.first:
        return (*spans, (citation.last_at, citation.end, citation.last))
    return spans


def _pattern(keys: dict[str, str]) -> re.Pattern[str] | None:
    latin = [word for word in keys if word.isascii()]
    other = [word for word in keys if not word.isascii()]
    # A Latin term stands as a word (and may take a plural); a CJK term stands anywhere.
    alternatives = []
    if latin:
        alternatives.append(rf"(?<![\w-]){_longest_first(latin)}(?:e?s)?(?![\w-])")
    if other:
        alternatives.append(_longest_first(other))
    return re.compile("|".join(alternatives), re.IGNORECASE) if alternatives else None


_Letters = dict[str, "_Letters"]  # a tree of words: letter -> what follows ("": a word ends)


def _longest_first(words: list[str]) -> str:
    """Return a pattern matching any of the (case-folded) words, the longest that fits first.

    As a tree of their letters ('attack(?:ing creature)?'), not a list of 700 alternatives:
    the same matches, a tenth of the time to compile, and each position tried letter by letter
    instead of word by word.
    """
    tree: _Letters = {}
    for word in words:
        node = tree
        for letter in word:
            node = node.setdefault(letter, {})
        node[""] = {}
    return _branch(tree)


def _branch(node: _Letters) -> str:
    ways = [re.escape(letter) + _branch(rest) for letter, rest in node.items() if letter]
    if not ways:
        return ""
    ends = "" in node
    if len(ways) == 1 and not ends:
        return ways[0]
    return f"(?:{'|'.join(ways)}){'?' if ends else ''}"


_SECTION_NUMBER = re.compile(r"[1-9]\d\d")


def _spanned(found: list[Found], start: int, text: str, own: list[Found]) -> list[Found]:
    """The references of a whole text that lie in its piece at `start` (shifted to the piece)
    and that the piece alone does not show: a section number whose 'rule' is in a piece before."""
    end = start + len(text)
    inside = [(a - start, b - start, number) for a, b, number in found if start <= a and b <= end]
    return [f for f in inside if not any(f[0] < b and a < f[1] for a, b, *_ in own)]


def _term_of(matched: str, keys: dict[str, str]) -> str | None:
    folded = matched.casefold()
    for candidate in (folded, folded[:-1], folded[:-2]):
        if candidate in keys:
            return keys[candidate]
    return None
