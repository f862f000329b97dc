"""The page of each English rule beside its translations across time (`compare RULE`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from rulesarchive.corpus.model import Release
from rulesarchive.differ.language import Language
from rulesarchive.differ.lineage import Line
from rulesarchive.differ.translation_compare import (
    EnglishChange,
    Follow,
    Rendering,
    Track,
    compare_rule,
    translated_release,
)
from rulesarchive.differ.translations import TranslationReport
from rulesarchive.site_builder import paths
from rulesarchive.site_builder.changelog import change_page
from rulesarchive.site_builder.render import LANGUAGE_NAMES, Context, Job, Memoised, memo

if TYPE_CHECKING:
    from rulesarchive.site_builder.pages import LanguagePages


def tracks_of(
    english: Language, translations: list[tuple[Language, list[TranslationReport]]]
) -> list[Track]:
    """Each translated language's reports (one per release, oldest first) and its lines."""
    return [
        Track(
            language.language,
            tuple(translated_release(report, english.releases) for report in reports),
            language.holder,
        )
        for language, reports in translations
    ]


class ComparePages:
    """The English rules' pages beside their translations (English pages only)."""

    def __init__(self, site: LanguagePages) -> None:
        self.site = site
        self.tracks = {track.language: track for track in site.tracks}
        self.positions = {  # each translated release's index in its language, by date
            track.language: {t.release.effective_date: i for i, t in enumerate(track.releases)}
            for track in site.tracks
        }

    def makers(self) -> list[Callable[[], Memoised]]:
        """Return the makers of the page across translations of each English rule a
        translation translates (makers, as the rule pages': both processes share them out)."""
        site = self.site
        if site.language != "en" or not site.tracks:
            return []
        # what every page is made from but the English releases: the translated releases
        translated = tuple(one.release for track in site.tracks for one in track.releases)
        others = memo(site.salt, "tracks", translated)
        return [
            partial(self._memoised, line_id, others) for line_id in sorted(site.pairing.by_english)
        ]

    def _memoised(self, line_id: str, others: str) -> Memoised:
        site = self.site
        make: Callable[[], Job] = partial(self.page, site.data.by_id[line_id])
        inputs = (site.releases_memo, others, line_id)
        return site.memoised(paths.translations_page(line_id), inputs, make)

    def page(self, line: Line) -> Job:
        """One English rule beside its translations: each change, and each release."""
        site = self.site
        path = paths.translations_page(line.id)
        compared = compare_rule(line, site.data.releases, site.tracks, line.last)
        return site.page(
            "rule_translations.html",
            path,
            title=site.t["across_translations_title"].format(number=compared.number),
            number=compared.number,
            rule_href=paths.relative(path, paths.rule_page("en", line)),
            changes=[self._change(path, change) for change in compared.changes],
            tracks=[
                {
                    "language": language,
                    "name": LANGUAGE_NAMES.get(language, language),
                    "rows": [self._row(path, language, r) for r in renderings],
                }
                for language, renderings in compared.renderings
            ],
        )

    def _change(self, path: str, change: EnglishChange) -> Context:
        index = self.site.index_of[change.release.effective_date]
        return {
            "release": change.release,
            "number": change.number,
            "kind": change.kind,
            "href": paths.relative(
                path, change_page(change.release, self.site.data.diffs[index], change.number)
            ),
            "follows": [self._follow(path, follow) for follow in change.follows],
        }

    def _follow(self, path: str, follow: Follow) -> Context:
        return {
            "follow": follow,
            "name": LANGUAGE_NAMES.get(follow.language, follow.language),
            "href": paths.relative(path, paths.release_page(follow.release))
            if follow.release
            else "",
        }

    def _row(self, path: str, language: str, rendering: Rendering) -> Context:
        """One translated release's row, as the plain strings it shows: a page has one per
        translated release, and reading them from the releases took most of its rendering."""
        line = None
        if rendering.number:
            index = self.positions[language][rendering.release.effective_date]
            line = self.tracks[language].holder(rendering.number, index)
        return {
            "date": rendering.release.effective_date.isoformat(),
            "base": rendering.base.effective_date.isoformat(),
            "english_number": rendering.english_number,
            "translates": _date(rendering.translates),
            "number": rendering.number,
            "status": rendering.status,
            "stale_since": _date(rendering.stale_since),
            "reworded": rendering.reworded,
            "href": paths.relative(path, paths.rule_page(language, line)) if line else "",
        }


def _date(release: Release | None) -> str | None:
    return release.effective_date.isoformat() if release is not None else None
