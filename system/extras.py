"""The optional parts of the install, by job: what each needs, and the one-line error when a
part is missing (`pip install 'rulesarchive[formats]'`), instead of an ImportError's traceback.

The default install reads an archive and runs the API and every command that only reads it;
`formats` reads DOCX, PDF and RTF; `site` builds the site and its search index; `scrape`
fetches from the network.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

EXTRAS = {
    "docx": "formats",
    "pdfminer": "formats",
    "pypdf": "formats",
    "striprtf": "formats",
    "jinja2": "site",
    "markupsafe": "site",
    "feedgen": "site",
    "pagefind": "site",
    "requests": "scrape",
    "bs4": "scrape",
}


class MissingExtra(ImportError):
    """An optional part of the install that a command needs is not installed."""


def missing_extra(error: ImportError) -> MissingExtra | None:
    """Return the one-line error naming the extra a failed import needs, or None."""
    module = (error.name or "").partition(".")[0]
    extra = EXTRAS.get(module)
    if extra is None:
        return None
    return MissingExtra(
        f"this needs the optional '{extra}' packages ({module} is not installed): "
        f"pip install 'rulesarchive[{extra}]'",
        name=error.name,
    )


@contextmanager
def extra_needed() -> Iterator[None]:
    """Turn an import of a missing optional package into MissingExtra, naming its extra."""
    try:
        yield
    except ImportError as error:
        found = missing_extra(error)
        if found is None:
            raise
        raise found from None
