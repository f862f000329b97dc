"""Exports of the archive for data tools: a SQLite database, JSON files, a git repository.

Each export gathers a language once (site_builder.gather: the cached diffs and the lines of
descent the site uses), then writes its whole output beside the destination and renames it
into place, so a failed export leaves the previous one as it was.
"""

from typing import TypedDict


class ExportError(Exception):
    """An export that cannot be made; the message says why, in one line."""


class ExportMeta(TypedDict):
    """What an export says about itself (the SQLite meta table, the JSON files' "meta")."""

    schema_version: int
    doc: str  # the kind of document the export holds: cr, mtr or ipg
    data_version: str
    generated_at: str
    rulesarchive_version: str
