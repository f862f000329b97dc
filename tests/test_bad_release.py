"""One bad release folder costs only itself: the others stay listed and readable."""

import json

import pytest
from click.testing import CliRunner

from rulesarchive.cli import main
from tests.samples import modern_text

DATES = ["April 1, 2011", "May 1, 2011", "July 15, 2011"]


@pytest.fixture
def archive(tmp_path):
    paths = []
    for at, date in enumerate(DATES):
        paths.append(tmp_path / f"{at}.txt")
        paths[-1].write_text(modern_text(date=date))
    root = tmp_path / "archive"
    result = CliRunner().invoke(main, ["--archive", str(root), "ingest", *map(str, paths)])
    assert result.exit_code == 0, result.output
    return root


def _spoil(root, key: str, **changes) -> None:
    path = root / key / "release.json"
    data = json.loads(path.read_text())
    path.write_text(json.dumps({**data, **changes}))


@pytest.mark.parametrize(
    ("changes", "why"),
    [
        (
            {"effective_date": "2011-05-02"},
            "says en/2011-05-02, not en/2011-05-01 as its folder does",
        ),
        ({"language": "ko"}, "says ko/2011-05-01, not en/2011-05-01 as its folder does"),
        ({"flags": 5}, "unreadable release metadata (flags is not a list)"),
        ({"rule_count": "many"}, "unreadable release metadata (rule_count is not a whole number)"),
    ],
)
def test_a_bad_release_json_is_named_and_left_out(archive, changes, why):
    _spoil(archive, "en/2011-05-01", **changes)
    run = CliRunner().invoke
    listed = run(main, ["--archive", str(archive), "releases"])
    assert listed.exit_code == 0
    assert [line.split()[1] for line in listed.stdout.splitlines()] == ["2011-04-01", "2011-07-15"]
    warning = f"WARNING: {archive / 'en/2011-05-01/release.json'}: {why}"
    assert [line for line in listed.stderr.splitlines() if "2011-05-01" in line] == [
        f"{warning}: left out"
    ]
    rule = run(main, ["--archive", str(archive), "rule", "400.6"])
    assert rule.exit_code == 0 and "2011-07-15" in rule.stdout
    old = run(main, ["--archive", str(archive), "rule", "400.6", "--release", "2011-04-01"])
    assert old.exit_code == 0 and "2011-04-01" in old.stdout
