"""-v shows what the library logs (retries, waits, cache hits); the default and -q do not."""

import logging
import shutil

from click.testing import CliRunner
from rulesarchive.corpus.derived import DerivedData
from rulesarchive.scraper.http import Fetcher, HttpSettings
from rulesarchive.site_builder.build import sample_archive

from rulesarchive.cli import main


def run(*args):
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.stderr


def test_verbose_shows_diff_cache_hits_and_default_and_quiet_do_not(tmp_path):
    archive = tmp_path / "archive"
    shutil.copytree(sample_archive(), archive)
    export = ["--archive", str(archive), "export", "sqlite", str(tmp_path / "rules.sqlite")]
    first = run("-v", *export)
    assert "diff en/2010-02-01 -> en/2010-10-01: not in the cache, computing" in first
    second = run("--verbose", *export)
    assert "INFO: diff en/2010-02-01 -> en/2010-10-01: from the cache" in second
    assert "diff" not in run(*export)
    assert "diff" not in run("-q", *export)


def test_retries_waits_and_not_modified_are_logged(httpserver, tmp_path, caplog):
    httpserver.expect_ordered_request("/cr.txt").respond_with_data("busy", status=503)
    httpserver.expect_ordered_request("/cr.txt").respond_with_data("rules", headers={"ETag": '"1"'})
    httpserver.expect_ordered_request("/cr.txt").respond_with_data("", status=304)
    settings = HttpSettings(backoff=0.01, per_host_interval=5.0)
    fetcher = Fetcher(DerivedData(tmp_path / "cache"), settings, sleep=lambda _seconds: None)
    with caplog.at_level(logging.INFO, logger="rulesarchive"):
        fetcher.get(httpserver.url_for("/cr.txt"))
        fetcher.get(httpserver.url_for("/cr.txt"))
    said = caplog.text
    assert "HTTP 503 SERVICE UNAVAILABLE; retry 1 in " in said
    assert "waiting " in said and "before the next request to" in said
    assert "not modified, using the cached copy" in said
