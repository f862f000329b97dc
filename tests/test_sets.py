"""Set names from Scryfall's set list for releases the catalogue lacks."""

import datetime as dt
import json
from pathlib import Path

from rulesarchive.corpus.sets import MagicSet, choose_set
from rulesarchive.corpus.store import Archive
from rulesarchive.scraper.ingest import Overrides, ingest_bytes
from rulesarchive.scraper.sources import read_set_list

from tests.samples import modern_text

FIXTURE = Path(__file__).parent / "fixtures" / "scryfall_sets.json"


def _sets() -> tuple[MagicSet, ...]:
    return tuple(read_set_list(json.loads(FIXTURE.read_text())))


def test_the_first_main_set_released_on_or_after_the_date_is_chosen():
    found, why = choose_set(dt.date(2024, 3, 3), _sets())
    assert found.code == "OTJ"  # not The Big Score, its bonus sheet of the same day
    assert found.released_at == dt.date(2024, 4, 19)  # not Fallout (Commander), 2024-03-08
    assert why.startswith("the first core or expansion set released on or after 2024-03-03")


def test_a_set_released_the_same_day_counts_and_none_far_ahead():
    assert choose_set(dt.date(2024, 2, 9), _sets())[0].code == "MKM"  # not its promos
    assert choose_set(dt.date(2011, 1, 1), _sets()) is None  # M12 is over 120 days later


def test_ingest_says_which_set_it_chose_and_why(tmp_path):
    archive = Archive(tmp_path)
    archive.save_sets(list(_sets()))
    outcome = ingest_bytes(archive, modern_text(date="January 30, 2024").encode(), "cr.txt")
    assert outcome.status == "added", outcome.message
    assert outcome.message.endswith(
        "; set MKM Murders at Karlov Manor: the first core or expansion set released on or "
        "after 2024-01-30 (2024-02-09, in Scryfall's set list)"
    )
    release = outcome.release
    assert (release.set_code, release.set_name) == ("MKM", "Murders at Karlov Manor")
    assert archive.load(release).set_name == "Murders at Karlov Manor"
    assert any(note.startswith("set MKM") for note in release.notes)


def test_without_a_set_list_ingest_says_the_set_is_unknown_and_how_to_give_it(tmp_path):
    archive = Archive(tmp_path)
    text = modern_text(date="January 30, 2024").encode()
    outcome = ingest_bytes(archive, text, "cr.txt")
    assert outcome.status == "added"
    assert "set unknown (no set list yet: run 'rulesarchive scrape'" in outcome.message
    assert 'give --set-name "Name (CODE)"' in outcome.message
    given = Overrides(set_name="Murders at Karlov Manor (MKM)", force=True)
    archive.save_sets([])
    again = ingest_bytes(archive, modern_text(date="January 31, 2024").encode(), "b.txt", given)
    assert (again.release.set_code, again.release.set_name) == ("MKM", "Murders at Karlov Manor")
    assert "set unknown" not in again.message


def test_the_catalogue_wins_over_the_set_list(tmp_path):
    archive = Archive(tmp_path)
    archive.save_sets(list(_sets()))
    outcome = ingest_bytes(archive, modern_text().encode(), "cr.txt")
    assert outcome.release.set_code == "FDN" and "; set" not in outcome.message
