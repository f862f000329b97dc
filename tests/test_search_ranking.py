"""Search on the site built from the shared archive finds the rule a judge looks for.

The queries and the rule each expects are in tests/fixtures/search_queries.json. Each is typed
into the search page in Chromium; its rank is the place of the first result that is the rule
(or its glossary term). The issue's bar: in each language, the rule in the top 3 for 90 % of
queries and first for 75 %; a nonsense query finds nothing.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from urllib.parse import quote

import pytest
from rulesarchive.site_builder.serve import make_server

from tests.test_browser import browser, page  # noqa: F401  (the browser fixtures)

QUERIES = Path(__file__).parent / "fixtures" / "search_queries.json"


@pytest.fixture(scope="module")
def real_url(real_site):
    server = make_server(real_site, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def found_by(page, base_url: str, language: str, query: str) -> list[tuple[str, str]]:  # noqa: F811
    """Return the (rule, term) of each result the search page lists, in order."""
    page.goto(f"{base_url}search.html?q={quote(query)}&lang={language}")
    page.wait_for_selector("#search-results[aria-busy=false]", state="attached")
    return page.eval_on_selector_all(
        "#search-results > li",
        "items => items.map(li => [li.dataset.rule || '', li.dataset.term || ''])",
    )


def rank_of(results: list[tuple[str, str]], expect: str, term: str | None) -> int | None:
    """Return the 1-based place of the first result that is the rule or its term."""
    for place, (rule, found_term) in enumerate(results, 1):
        if rule == expect or (term is not None and found_term == term):
            return place
    return None


def test_the_expected_rule_comes_first(page, real_url):  # noqa: F811
    queries = json.loads(QUERIES.read_text(encoding="utf-8"))["queries"]
    assert len(queries) >= 40
    table, nonsense = [], []
    by_language: dict[str, list[int | None]] = {}
    for item in queries:
        results = found_by(page, real_url, item["lang"], item["query"])
        if item["expect"] is None:
            nonsense.append((item["query"], len(results)))
            table.append(f"{item['lang']}\t{item['query']}\t(nothing)\t{len(results)} results")
            continue
        rank = rank_of(results, item["expect"], item.get("term"))
        by_language.setdefault(item["lang"], []).append(rank)
        table.append(f"{item['lang']}\t{item['query']}\t{item['expect']}\t{rank or '-'}")
    print("\n".join(table))
    assert nonsense and all(count == 0 for _, count in nonsense), nonsense
    for language, ranks in by_language.items():
        top3 = sum(1 for rank in ranks if rank is not None and rank <= 3) / len(ranks)
        first = sum(1 for rank in ranks if rank == 1) / len(ranks)
        assert top3 >= 0.9 and first >= 0.75, (language, top3, first, "\n".join(table))
