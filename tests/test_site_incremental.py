"""Incremental builds: a page's fingerprint is the context it renders, nothing else."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import re
import time
from dataclasses import replace
from pathlib import Path

import jinja2
import pytest
from rulesarchive.corpus.derived import DerivedData
from rulesarchive.corpus.model import GlossaryEntry, Rule
from rulesarchive.corpus.store import Archive
from rulesarchive.differ.report import history_data
from rulesarchive.scraper.ingest import ingest_paths
from rulesarchive.site_builder import build as build_module
from rulesarchive.site_builder import (
    index_pages,
    json_api,
    number_pages,
    paths,
    release_pages,
    rule_pages,
    workers,
)
from rulesarchive.site_builder import output as output_module
from rulesarchive.site_builder import pages as pages_module
from rulesarchive.site_builder.build import build_site
from rulesarchive.site_builder.render import Job, fingerprint

from rulesarchive.library import Library
from tests.site_fixture import fixture_archive, save_release, save_reworded

RULE_PAGE = "en/r/2010-02-01/400.6/index.html"


def _manifest(site) -> dict[str, list[str]]:
    return json.loads((site.resolve() / ".manifest.json").read_text())["files"]


def _is_a_build_from_nothing(archive: Library, out: Path, fresh: Path) -> None:
    """Assert the site in `out` is file for file the one a build with no cache makes."""
    nothing_kept = Library(archive.root, DerivedData(None))  # no kept diff, trace, summary
    build_site(nothing_kept, fresh, index_search=False)
    assert _manifest(out) == _manifest(fresh)
    for path in _manifest(out):
        assert (out / path).read_bytes() == (fresh / path).read_bytes(), path


def test_a_context_field_changed_for_one_page_rewrites_that_page_only(tmp_path, monkeypatch):
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    before = _manifest(out)
    make_page = pages_module.LanguagePages.page

    def page(self, template, path, **context):
        if path == RULE_PAGE:
            context["description"] = "A field the page kind now gives its template."
        return make_page(self, template, path, **context)

    monkeypatch.setattr(pages_module.LanguagePages, "page", page)
    # As if code changed: the build runs, and no page is kept by its memo (the code's
    # version is in every memo).
    monkeypatch.setattr(build_module, "built_from", lambda out: None)
    monkeypatch.setattr(output_module.Output, "kept", lambda self, path, memo, finer: False)
    report = build_site(archive, out, index_search=False)
    after = _manifest(out)
    assert report.written == 1
    assert [path for path in after if after[path] != before[path]] == [RULE_PAGE]
    assert "A field the page kind now gives" in (out / RULE_PAGE).read_text()


def test_every_page_renders_exactly_the_context_its_fingerprint_hashes(tmp_path, monkeypatch):
    """A page kind that renders anything beside its job's context fails here."""
    renders: dict[str, tuple[str, dict]] = {}  # output -> template, what it was given
    writes: list[tuple[str, str, str, str]] = []
    languages: dict[str, pages_module.LanguagePages] = {}
    template_render = jinja2.Template.render
    write = output_module.Output.write
    language_init = pages_module.LanguagePages.__init__

    def render(self, *args, **kwargs):
        html = template_render(self, *args, **kwargs)
        renders[html] = (self.name, kwargs)
        return html

    def record_write(self, path, content, fingerprint="", memo=""):
        writes.append((path, content, fingerprint, memo))
        write(self, path, content, fingerprint, memo)

    def init(self, *args, **kwargs):
        language_init(self, *args, **kwargs)
        languages[self.language] = self

    monkeypatch.setattr(jinja2.Template, "render", render)
    monkeypatch.setattr(output_module.Output, "write", record_write)
    monkeypatch.setattr(pages_module.LanguagePages, "__init__", init)
    archive = fixture_archive(tmp_path / "archive")
    build_site(archive, tmp_path / "site", index_search=False)

    pages = [(path, html, print_) for path, html, print_, _ in writes if path.endswith(".html")]
    kept = [(path, html, print_) for path, html, print_ in pages if print_]
    assert len(kept) > 80  # every page of a language, the site-wide ones aside
    for path, html, print_ in kept:
        assert html in renders, f"{path} was not rendered from a template"
        template, given = renders[html]
        site = languages[path.split("/")[0]]
        assert {key: given[key] for key in site.shared} == site.shared
        context = {key: value for key, value in given.items() if key not in site.shared}
        assert fingerprint(Job(path, template, context), site.salt) == print_, path
    # A release read whole is known by its memo alone (`build._WholeReleases`); the other
    # pages without a fingerprint are rewritten (compared by their bytes) on every build.
    memoised = {path for path, _, print_, memo in writes if memo and not print_}
    assert memoised == {paths.document_page(r) for r in archive.releases()}
    assert {path for path, _, print_ in pages if not print_} - memoised == {
        "index.html",
        "search.html",
        "404.html",
    }


def test_a_context_holding_a_function_cannot_be_fingerprinted():
    job = Job("en/x.html", "base.html", {"ref": lambda text: text})
    with pytest.raises((AttributeError, TypeError, ValueError)):
        fingerprint(job, "salt")


def test_a_rebuild_with_nothing_changed_stops_before_reading_the_archive(tmp_path, monkeypatch):
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    first = build_site(archive, out, index_search=False)

    def gather(*args, **kwargs):
        raise AssertionError("the archive was read again")

    monkeypatch.setattr(Library, "gather", gather)
    again = build_site(archive, out, index_search=False)
    assert (again.pages, again.written) == (first.pages, 0)
    with pytest.raises(AssertionError, match="read again"):  # another option: another site
        build_site(archive, out, base_url="https://example.org/", index_search=False)


def test_a_rebuild_moves_what_changed_into_the_live_folder_and_mends_a_stopped_one(
    tmp_path, monkeypatch
):
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    release = archive.root / "en" / "2019-05-03"
    aside = tmp_path / "2019-05-03"
    replace, moved = os.replace, []

    def stopped_halfway(source, target):  # as a build killed while moving its files in
        if len(moved) == 5:
            raise KeyboardInterrupt
        moved.append(target)
        replace(source, target)

    live = None
    for build in range(3):  # without the release, with it, without it again
        release.rename(aside) if release.exists() else aside.rename(release)
        if build == 1:
            monkeypatch.setattr(output_module.os, "replace", stopped_halfway)
            with pytest.raises(KeyboardInterrupt):
                build_site(archive, out)
            monkeypatch.undo()
        report = build_site(archive, out)
        assert 0 < report.written < report.pages or build == 0
        assert out.resolve() == (live or out.resolve())  # one folder, changed in place
        live = out.resolve()
    output_module.wait_for_pruning()
    # one copy at rest, and the lock that serialises builds
    assert sorted(p.name for p in tmp_path.glob(".*")) == [live.name, ".site.lock"]
    fresh = tmp_path / "fresh"
    build_site(archive, fresh)
    files = _manifest(out)
    assert files == _manifest(fresh)  # same bytes as a build from nothing, file by file
    for path, (digest, *_) in files.items():
        assert hashlib.sha256((live / path).read_bytes()).hexdigest() == digest, path
    made = {p.relative_to(live).as_posix() for p in live.rglob("*") if p.is_file()}
    assert {p for p in made if not p.startswith("pagefind/")} - set(files) == {".manifest.json"}
    assert _index_files(live) == _index_files(fresh.resolve())
    assert all(p.is_dir() or p.is_file() for p in live.rglob("*"))
    assert not [p for p in live.rglob("*") if p.is_dir() and not any(p.iterdir())]


def _index_files(site: Path) -> set[str]:
    """Name the search index's files, leaving out the hash in the names of the filter and
    meta files: Pagefind writes a filter's values in hash-map order, so that the same pages
    indexed twice give those two files one of two names."""
    names = set()
    for path in site.rglob("pagefind/**/*"):
        name = path.relative_to(site).as_posix()
        names.add(re.sub(r"_[0-9a-f]+\.pf_(filter|meta)$", r".pf_\1", name))
    return names


def test_pages_made_in_two_processes_are_the_pages_made_in_one(tmp_path, monkeypatch):
    archive = fixture_archive(tmp_path / "archive")
    build_site(archive, tmp_path / "one", index_search=False)
    monkeypatch.setattr(workers, "FORK_FROM", 0)
    report = build_site(archive, tmp_path / "two", index_search=False)
    assert report.written == report.pages
    assert _manifest(tmp_path / "two") == _manifest(tmp_path / "one")
    for name in ("sitemap.xml", "en/r/2010-02-01/400.6/index.html"):
        assert (tmp_path / "two" / name).read_bytes() == (tmp_path / "one" / name).read_bytes()


def test_a_failure_in_the_forked_process_fails_the_build(tmp_path, monkeypatch):
    archive = fixture_archive(tmp_path / "archive")
    monkeypatch.setattr(workers, "FORK_FROM", 0)
    parent = os.getpid()
    make_rule = rule_pages.RulePages.rule

    def rule(self, line):  # in the forked process only (the parent claims rule pages too)
        if os.getpid() != parent:
            raise ValueError("a rule page exploded")
        time.sleep(0.01)  # leaves rule pages for the child to claim
        return make_rule(self, line)

    monkeypatch.setattr(rule_pages.RulePages, "rule", rule)
    with pytest.raises(RuntimeError, match="a rule page exploded"):
        build_site(archive, tmp_path / "site", index_search=False)
    assert not (tmp_path / "site").exists()


def test_an_interrupt_in_the_build_stops_the_forked_process_at_once(tmp_path, monkeypatch):
    """A SIGINT to the build's own process (not its group): the child making rule pages is
    stopped, not waited for (it could block sending its pages to a pipe nobody reads)."""
    archive = fixture_archive(tmp_path / "archive")
    monkeypatch.setattr(workers, "FORK_FROM", 0)
    parent = os.getpid()
    make_rule, render = rule_pages.RulePages.rule, pages_module.LanguagePages.render

    def rule(self, line):
        if os.getpid() != parent:
            time.sleep(2)  # the child's rule pages alone would take a minute
        return make_rule(self, line)

    def interrupted(self, job):
        if os.getpid() == parent:
            raise KeyboardInterrupt
        return render(self, job)

    monkeypatch.setattr(rule_pages.RulePages, "rule", rule)
    monkeypatch.setattr(pages_module.LanguagePages, "render", interrupted)
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        build_site(archive, tmp_path / "site", index_search=False)
    assert time.monotonic() - started < 15
    assert not (tmp_path / "site").exists()


def test_a_new_release_remakes_only_the_changelogs_it_changes_and_the_site_is_as_from_nothing(
    shared_archive, tmp_path, monkeypatch
):
    """Changelogs are memoised by what they are made from (`LanguagePages.memoised`), and the
    releases gathered before are read from the kept summary (`gather(kept=True)`); real
    releases, a glossary change and renumbered rules among them."""
    monkeypatch.setattr(json_api, "_BATCH", 2)  # the API's stream of the new release: 3 and 4
    archive = Library(tmp_path / "archive")
    dates = ["2021-06-09", "2021-07-12", "2021-09-24", "2021-11-15"]
    ingest_paths(archive.archive, [shared_archive / "en" / f"{date}.txt" for date in dates[:-1]])
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    made: list[tuple[int, str | None]] = []
    release = release_pages.ReleasePages.release
    ingest_paths(archive.archive, [shared_archive / "en" / f"{dates[-1]}.txt"])
    loaded: list[str] = []
    load = Archive.load
    with monkeypatch.context() as patched:
        patched.setattr(
            release_pages.ReleasePages,
            "release",
            lambda self, index, part=None: made.append((index, part)) or release(self, index, part),
        )
        patched.setattr(Archive, "load", lambda self, r: loaded.append(r.key) or load(self, r))
        build_site(archive, out, index_search=False)
    assert {index for index, _ in made} == {2, 3}  # the newest before (its links gain anchors)
    assert set(loaded) == {r.key for r in archive.releases()[-2:]}  # the rest is kept
    _is_a_build_from_nothing(archive, out, tmp_path / "fresh")


def test_an_english_release_remakes_the_translated_rule_pages_it_changes_and_keeps_the_rest(
    tmp_path, monkeypatch
):
    """Rule pages are memoised by their language's releases, what they use of their
    counterparts and their reference marks (`RulePages.memoised_rule`): an English release
    that makes one translated rule stale makes that translated page again and no other."""
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    save_reworded(
        archive, "en", "100.1", " Reworded.", dt.date(2019, 6, 14), ("M20", "Core Set 2020")
    )
    made: list[tuple[str, str]] = []
    make_rule = rule_pages.RulePages.rule

    def rule(self, line):
        made.append((self.site.language, line.rule.number))
        return make_rule(self, line)

    monkeypatch.setattr(rule_pages.RulePages, "rule", rule)
    for kind, name in [
        (index_pages.IndexPages, "chapter"),
        (index_pages.IndexPages, "glossary_term"),
        (number_pages.NumberPages, "number_map"),
    ]:
        make = getattr(kind, name)
        monkeypatch.setattr(
            kind,
            name,
            lambda self, *a, make=make, name=name: (
                made.append((self.site.language, a[0] if a else name)) or make(self, *a)
            ),
        )
    build_site(archive, out, index_search=False)
    # Nor its chapters, glossary or number map: all they show is the language's releases.
    assert [number for language, number in made if language == "zh-Hans"] == ["100.1"]
    assert len([number for language, number in made if language == "en"]) > 1
    monkeypatch.undo()
    _is_a_build_from_nothing(archive, out, tmp_path / "fresh")


def test_a_release_keeps_the_pages_of_rules_it_did_not_change(tmp_path, monkeypatch):
    """A rule dropped before the newest release shows only what the releases up to the one
    that dropped it say, and a current rule the release did not change what the releases up
    to its last change say and what it shows of the newest (`RulePages._since_last_change`):
    a new release does not make their pages again, and the site is still the one a build
    from nothing makes."""
    archive = fixture_archive(tmp_path / "archive")
    newest = archive.load(archive.releases("en")[-1])
    kept = tuple(rule for rule in newest.rules if rule.number != "400.8")  # cites 400.6
    save_release(
        archive,
        replace(newest, effective_date=dt.date(2019, 6, 14), rules=kept),
        "M20",
        "Core Set 2020",
    )
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    save_reworded(
        archive, "en", "100.1", " Reworded.", dt.date(2019, 7, 12), ("HA1", "Historic Anthology 1")
    )
    made: list[str] = []
    make_rule = rule_pages.RulePages.rule

    def rule(self, line):
        if self.site.language == "en":
            made.append(line.rule.number)
        return make_rule(self, line)

    monkeypatch.setattr(rule_pages.RulePages, "rule", rule)
    build_site(archive, out, index_search=False)
    # 400.8 is gone, 400.6 unchanged; 702.20 and 400.9 show reference problems, which link
    # to the newest release's check.
    assert sorted(made) == ["100.1", "400.9", "702.20"]
    monkeypatch.undo()
    _is_a_build_from_nothing(archive, out, tmp_path / "fresh")


def test_an_unchanged_rule_shows_what_changed_around_it_in_the_newest_release(tmp_path):
    """What the page of a rule the newest release left alone shows of that release: a new
    glossary term its text holds, a new neighbour, a new rule citing it. And the release
    after the one that changed a rule gives its links version anchors."""
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    rule_page = str(out / "en" / "r" / "{}" / "index.html")
    games = Path(rule_page.format("2010-02-01/100.1"))  # '... and multiplayer games.'
    deathtouch = Path(rule_page.format("2011-09-30/702.18"))  # 702.18, then 702.19
    before = [page.read_text() for page in (games, deathtouch)]
    glossary = (GlossaryEntry("Multiplayer Game", "A game of three or more."),)
    _save_with(archive, dt.date(2019, 6, 14), "702.18", "702.18a", "After deathtouch.", glossary)
    build_site(archive, out, index_search=False)
    after = [page.read_text() for page in (games, deathtouch)]
    assert "glossary/multiplayer-game/" in after[0] and "multiplayer-game" not in before[0]
    assert "→ 702.18a<" in after[1] and "702.18a" not in before[1]
    _is_a_build_from_nothing(archive, out, tmp_path / "fresh")
    _save_with(archive, dt.date(2019, 7, 12), "702.18a", "702.18b", "See rule 100.1.")
    build_site(archive, out, index_search=False)
    assert ">702.18b<" in games.read_text()  # cited by it
    added = Path(rule_page.format("2019-07-12/702.18b"))
    assert "100.1/index.html#v" not in added.read_text()
    save_reworded(archive, "en", "702.18", " Reworded.", dt.date(2019, 8, 23), ("C19", "C19"))
    build_site(archive, out, index_search=False)
    # Its version of 2019-07-12 links 100.1 at a release no longer the newest.
    assert "100.1/index.html#v2010-02-01" in added.read_text()
    _is_a_build_from_nothing(archive, out, tmp_path / "fresh-2")
    # The history files' entries, most kept from the builds before, are `history`'s.
    for number in ("100.1", "702.18", "702.18a", "702.18b"):
        kept = json.loads((out / f"data/en/history/{number[:3]}.json").read_text())
        entry = next(entry for entry in kept.values() if entry["rule"] == number)
        assert entry["versions"] == history_data(archive.history(number))["versions"]


def _save_with(
    archive: Archive,
    date: dt.date,
    after: str,
    number: str,
    text: str,
    glossary: tuple[GlossaryEntry, ...] = (),
) -> None:
    """Store an English release after the newest: the same, with rule `number` added after
    rule `after` and the glossary entries added."""
    newest = archive.load(archive.releases("en")[-1])
    rules: tuple[Rule, ...] = ()
    for rule in newest.rules:
        rules += (rule, Rule(number, text)) if rule.number == after else (rule,)
    newer = replace(newest, effective_date=date, rules=rules, glossary=newest.glossary + glossary)
    save_release(archive, newer, date.strftime("S%m"), f"Set of {date}")


def test_a_gone_rule_follows_its_glossary_terms_to_the_pages_they_move_to(tmp_path):
    """The one input of a gone rule's page from later releases: the glossary pages its terms
    link to, whose slugs are given out over every release, current terms first."""
    archive = fixture_archive(tmp_path / "archive")
    newest = archive.load(archive.releases("en")[-1])
    kept = tuple(rule for rule in newest.rules if rule.number != "400.8")  # links 'zones'
    gone = replace(newest, effective_date=dt.date(2019, 6, 14), rules=kept)
    save_release(archive, gone, "M20", "Core Set 2020")
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    page = out / "en" / "r" / "2010-02-01" / "400.8" / "index.html"
    assert 'href="../../../glossary/zone/index.html"' in page.read_text()
    # 'Zone' goes; a new term 'Zone:' comes a release later (not a renaming of it: nothing
    # pairs them) and takes the slug 'zone' as a current term: the old 'Zone' becomes 'zone-2'.
    without = tuple(entry for entry in gone.glossary if entry.term != "Zone")
    dropped = replace(gone, effective_date=dt.date(2019, 7, 12), glossary=without)
    save_release(archive, dropped, "HA1", "Historic Anthology 1")
    zone = GlossaryEntry("Zone:", "A place where objects can be during a game of chess.")
    later = replace(gone, effective_date=dt.date(2019, 8, 23), glossary=(*without, zone))
    save_release(archive, later, "C19", "Commander 2019")
    build_site(archive, out, index_search=False)
    assert 'href="../../../glossary/zone-2/index.html"' in page.read_text()
    _is_a_build_from_nothing(archive, out, tmp_path / "fresh")


def test_a_renamed_term_keeps_one_page_and_its_old_address_sends_there(tmp_path):
    archive = fixture_archive(tmp_path / "archive")
    newest = archive.load(archive.releases("en")[-1])
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    glossary = tuple(
        replace(entry, term="Zones") if entry.term == "Zone" else entry for entry in newest.glossary
    )
    renamed = replace(newest, effective_date=dt.date(2019, 6, 14), glossary=glossary)
    save_release(archive, renamed, "M20", "Core Set 2020")
    build_site(archive, out, index_search=False)
    old = (out / "en" / "glossary" / "zone" / "index.html").read_text()
    assert 'url=../zones/index.html"' in old
    page = (out / "en" / "glossary" / "zones" / "index.html").read_text()
    assert "renamed: “Zone” → “Zones”" in page
    index = (out / "en" / "glossary" / "index.html").read_text()
    assert 'href="zone/index.html"' not in index  # not a removed term
    _is_a_build_from_nothing(archive, out, tmp_path / "fresh")


def test_the_old_folder_is_deleted_after_the_build_and_a_deletion_left_unfinished_is_taken_up(
    tmp_path, monkeypatch
):
    archive = fixture_archive(tmp_path / "archive")
    out = tmp_path / "site"
    build_site(archive, out, index_search=False)
    left = tmp_path / ".pruning.site.1.2"  # as a deleting process killed halfway leaves it
    (left / "en").mkdir(parents=True)
    (left / "en" / "index.html").write_text("old")
    monkeypatch.setattr(build_module, "built_from", lambda out: None)
    build_site(archive, out, index_search=False)
    output_module.wait_for_pruning()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == [
        out.resolve().name,
        ".site.lock",
    ]
