"""The one place that turns the library's errors into a one-line CLI error (exit status 1)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from rulesarchive.system.extras import missing_extra

# The domain errors by module: a class is looked up only once its module is loaded (a command
# that never imported the site builder cannot have raised its errors), so mapping errors
# imports nothing.
_DOMAIN_ERRORS = (
    ("rulesarchive.corpus.store", "ArchiveError"),
    ("rulesarchive.scraper.errors", "InputError"),
    ("rulesarchive.scraper.http", "FetchError"),
    ("rulesarchive.site_builder.build", "BuildError"),
    ("rulesarchive.site_builder.search", "SearchIndexError"),
    ("rulesarchive.exports", "ExportError"),
)
# Raised as such by the library for a missing release or rule and a bad number or file; their
# subclasses (KeyError, IndexError, UnicodeDecodeError...) are bugs and keep their traceback.
_PLAIN_ERRORS = (LookupError, ValueError)


@contextmanager
def reported_errors() -> Iterator[None]:
    """Turn a domain error raised inside into a ClickException carrying its message."""
    try:
        yield
    except ImportError as error:  # an optional part of the install is missing
        found = missing_extra(error)
        if found is None:
            raise
        raise click.ClickException(str(found)) from None
    except Exception as error:
        if type(error) in _PLAIN_ERRORS or isinstance(error, _loaded_domain_errors()):
            raise click.ClickException(str(error)) from None
        raise


def _loaded_domain_errors() -> tuple[type[Exception], ...]:
    return tuple(
        getattr(sys.modules[module], name)
        for module, name in _DOMAIN_ERRORS
        if module in sys.modules
    )
