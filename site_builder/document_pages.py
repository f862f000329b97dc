"""Each release read whole: one page per release and language with the document as it was
printed (sections, chapters, rules, examples, glossary, credits), and its original file.

Every citation in the text links inside the page, to the rule, chapter or section of that
release (`#702.19b`, `#702`, `#s7`): a page of 2005 never leads to today's rules. A chapter
of any release is the page at the chapter's anchor. The page is made in the build's own
process while it walks the releases, with each document at hand (`build._whole_release`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from markupsafe import Markup, escape
from rulesarchive.corpus.model import Document, Release
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.refs import citation_spans
from rulesarchive.site_builder.render import Context, labelled
from rulesarchive.site_builder.rule_pages import Switch, language_switch
from rulesarchive.site_builder.spans import cut_at_spans

TEMPLATE = "document.html"


def document_context(
    release: Release,
    document: Document,
    neighbours: tuple[Release | None, Release | None],
    dates: dict[str, set[str]],
    base_url: str,
) -> Context:
    """Return what the page of a release read whole shows: its text, linked inside itself,
    its source and original file, the releases either side and the language switch.

    `dates` gives each language's release dates, in the site's order of languages (the switch
    leads to the same date's page where a language has one, else to its list of releases).
    """
    path = paths.document_page(release)
    anchors = _anchors(document)
    previous, following = neighbours
    switches = _switches(release, path, dates)
    same = [switch for switch in switches if switch["same"]] if base_url else []
    return {
        "title": f"{release.effective_date} {release.set_name}".strip(),
        "root": paths.root_of(path),
        "canonical": base_url + path if base_url else "",
        "alternates": [
            {"language": switch["language"], "href": base_url + switch["path"]}
            for switch in (same if len(same) > 1 else ())
        ],
        "description": f"{document.title or 'Comprehensive Rules'}, {release.effective_date}",
        "og_type": "website",
        "switches": switches,
        "release": release,
        "document_title": document.title,
        "introduction": document.introduction,
        "sections": _sections(document, anchors, release.language),
        "glossary": [
            {"term": entry.term, "text_html": _linked(entry.printed_text, anchors)}
            for entry in document.glossary
        ],
        "glossary_omitted": document.glossary_omitted,
        "credits": document.credits,
        "original_href": paths.relative(path, paths.original_file(release)),
        "changelog_href": paths.relative(path, paths.release_page(release)),
        "previous": _neighbour(path, previous),
        "following": _neighbour(path, following),
    }


def _anchors(document: Document) -> dict[str, str]:
    """Where each number the document holds is anchored on its page: a rule and a chapter at
    its number, a section at `s<number>`."""
    anchors = {rule.number: rule.number for rule in document.rules}
    for heading in document.headings:
        anchors[heading.number] = _anchor(heading.number)
    return anchors


def _sections(document: Document, anchors: dict[str, str], language: str) -> list[Context]:
    """The document's sections, each with its chapters, each with its rules (text linked)."""
    sections: list[dict[str, Any]] = []  # built up in place: a section's chapters, their rules
    chapters: dict[str, dict[str, Any]] = {}
    for heading in document.headings:
        if len(heading.number) == 1:
            sections.append({"heading": heading, "chapters": []})
        elif len(heading.number) == 3:
            if not sections:  # a chapter before any section (an excerpt): a section of its own
                sections.append({"heading": None, "chapters": []})
            chapter = {"heading": heading, "rules": []}
            sections[-1]["chapters"].append(chapter)
            chapters[heading.number] = chapter
    loose: list[Markup] = []  # rules of a chapter the document gives no heading
    for rule in document.rules:
        texts = (rule.printed_text, *rule.printed_examples)
        item = _rule_html(rule.number, texts, anchors, language)
        held = chapters.get(rule.number[:3])
        (held["rules"] if held else loose).append(item)
    if loose:
        sections.append({"heading": None, "chapters": [{"heading": None, "rules": loose}]})
    return sections


def _rule_html(
    number: str, texts: tuple[str, ...], anchors: dict[str, str], language: str
) -> Markup:
    """A rule's paragraph and its examples' (`texts`: its text, then its examples)."""
    cited = {number for text in texts for _, _, number in _pieces(text)[0]}
    return _rule_paragraphs(number, texts, frozenset(cited & anchors.keys()), language)


@lru_cache(maxsize=2**15)
def _rule_paragraphs(
    number: str, texts: tuple[str, ...], held: frozenset[str], language: str
) -> Markup:
    """Made once per rule's wording and the numbers it cites that its release holds: most
    rules read the same in release after release (a third of a build's time for these pages
    went into the same rules' paragraphs again)."""
    anchors = {cited: _anchor(cited) for cited in held}
    text, *examples = (_linked(text, anchors) for text in texts)
    lines = [
        f'<p id="{escape(number)}"><a href="#{escape(number)}">{escape(number)}</a> {text}</p>\n'
    ]
    lines += [f'<p class="example">{labelled(example, language)}</p>\n' for example in examples]
    return Markup("".join(lines))


def _anchor(number: str) -> str:
    """Where a number is anchored on a release's page: a section at `s<number>`."""
    return number if len(number) > 1 else f"s{number}"


def _linked(text: str, anchors: dict[str, str]) -> Markup:
    """Return a text of the document with each number it cites linked to its place on the
    page, or marked where the document holds no such number."""
    parts: list[str] = []
    pieces, rest = _pieces(text)
    for before, shown, number in pieces:
        parts.append(before)
        anchor = anchors.get(number)
        if anchor is None:
            parts.append(f'<span class="dangling" title="no rule {escape(number)}">{shown}</span>')
        else:
            parts.append(f'<a href="#{escape(anchor)}">{shown}</a>')
    parts.append(rest)
    return Markup("".join(parts))


@lru_cache(maxsize=2**16)
def _pieces(text: str) -> tuple[tuple[tuple[str, str, str], ...], str]:
    """Split a text at the numbers it cites: (the text before, escaped; the citation as
    shown, escaped; the number) for each, and the rest, escaped.

    Worked out once per text: most rules read the same in release after release, and the
    pages of all of them are made in one process.
    """
    pieces, rest = cut_at_spans(text, citation_spans(text))
    escaped = tuple((str(escape(before)), str(escape(shown)), n) for before, shown, n in pieces)
    return escaped, str(escape(rest))


def _neighbour(path: str, release: Release | None) -> Context | None:
    if release is None:
        return None
    return {"release": release, "href": paths.relative(path, paths.document_page(release))}


def _switches(release: Release, path: str, dates: dict[str, set[str]]) -> list[Switch]:
    """The page's language switch: the same date's page in each language that has it."""
    if len(dates) < 2:
        return []
    date = release.effective_date.isoformat()
    found = []
    for language, held in dates.items():
        if language == release.language:
            found.append(language_switch(language, "", True, path))
            continue
        same = date in held
        target = paths.document_page_of(language, date) if same else paths.language_home(language)
        found.append(language_switch(language, paths.relative(path, target), False, target, same))
    return found
