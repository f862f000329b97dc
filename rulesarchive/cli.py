"""The command line: a thin click shell over the Python API and the library.

Every command line goes through click. The group loads a command's module only when the
command runs (click's lazily loading group), so `--help` and each command import only what
they use; the archive path travels in `ctx.obj`.
"""

from __future__ import annotations

import atexit
import copy
import functools
import gc
import importlib
import io
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from rulesarchive.errors import reported_errors
from rulesarchive.logs import configure_logging
from rulesarchive.options import ARCHIVE_VARIABLE, DEFAULT_ARCHIVE, INTERRUPTED, USAGE

# A command's objects are left to the operating system when the process ends: the interpreter's
# last collections walk every object still alive (a twentieth of a quick command's work)
# only to free what exit frees anyway. Files are closed by their `with` blocks, the derived
# data's transactions are committed, and atexit handlers (logging's flush) still run.
atexit.register(gc.freeze)

# Each command: the module that defines it, and its line in `--help` (the same as the
# command's own short help; a test holds them equal).
COMMANDS = {
    "build": (
        "rulesarchive.commands.site",
        "Render the archive as a static site (histories, changelogs, search, feed, data, API).",
    ),
    "cache": (
        "rulesarchive.commands.cache",
        "Show what the cache of derived data holds; `cache clear` empties it.",
    ),
    "changelog": (
        "rulesarchive.commands.rules",
        "Show a release's changes against the release before it (default: the newest).",
    ),
    "check": (
        "rulesarchive.commands.rules",
        "Check every citation of a release (default: newest): dangling, stale, self.",
    ),
    "compare": (
        "rulesarchive.commands.rules",
        "Compare the translations of one rule with each other and the English, across time.",
    ),
    "diff": (
        "rulesarchive.commands.rules",
        "Show what changed, rule by rule, between any two releases.",
    ),
    "export": (
        "rulesarchive.commands.export",
        "Export the archive as a SQLite database, JSON files or a git repository.",
    ),
    "history": (
        "rulesarchive.commands.rules",
        "Show every version of a rule, following it through renumbering.",
    ),
    "ingest": (
        "rulesarchive.commands.archive",
        "Store documents (.txt .docx .pdf .rtf, Italian wiki pages) as releases in the archive.",
    ),
    "releases": (
        "rulesarchive.commands.rules",
        "List the releases in the archive, oldest first.",
    ),
    "rule": ("rulesarchive.commands.rules", "Print one rule with its examples."),
    "scrape": (
        "rulesarchive.commands.archive",
        "Fetch the releases the archive lacks from Wizards and the translations, and ingest them.",
    ),
    "serve": (
        "rulesarchive.commands.site",
        "Preview the built site at http://HOST:PORT/ (Ctrl-C stops).",
    ),
    "translations": (
        "rulesarchive.commands.rules",
        "Compare translations with the English they came from: current, stale, missing, extra.",
    ),
}


class Commands(click.Group):
    """The command group: loads each command when it runs; its domain errors become one line."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module = importlib.import_module(COMMANDS[cmd_name][0])
        command: click.Command = copy.copy(getattr(module, cmd_name))
        if command.callback is not None:
            command.callback = functools.partial(_leaving_out_unreadable, command.callback)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """List the commands with their short help, importing none of them."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = [
            (name, textwrap.shorten(line, limit, placeholder="...", break_on_hyphens=False))
            for name, (_module, line) in sorted(COMMANDS.items())
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        with one_line_usage():
            return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> object:
        try:
            with reported_errors(), one_line_usage():
                return super().invoke(ctx)
        except KeyboardInterrupt:  # as a shell reports a command stopped by Ctrl-C (128 + 2)
            click.echo("\nAborted!", err=True)
            sys.exit(INTERRUPTED)


def _leaving_out_unreadable(callback: Callable[..., Any], /, **params: Any) -> Any:
    """Run a command; when a release's document proves unreadable, run it again without that
    release (one bad document costs only itself; the listing that leaves it out says so, in
    one line). A release is left out once: the same error again is an error. A run again
    repeats no warning (system.once says each problem once)."""
    from rulesarchive.corpus.store import UnreadableDocument, leave_out

    while True:
        try:
            return callback(**params)
        except UnreadableDocument as error:
            if not leave_out(error):
                raise


class UsageError(click.ClickException):
    """A command line click cannot take, as one line: `Error: <what> (see '<command> --help')`."""

    exit_code = USAGE


@contextmanager
def one_line_usage() -> Iterator[None]:
    """Turn click's usage error (usage, hint and error: three lines) into one line."""
    try:
        yield
    except click.UsageError as error:
        command = error.ctx.command_path if error.ctx is not None else "rulesarchive"
        raise UsageError(f"{error.format_message()} (see '{command} --help')") from None


@click.group(cls=Commands)
@click.option(
    "--archive",
    "archive_path",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_ARCHIVE,
    show_default=True,
    envvar=ARCHIVE_VARIABLE,
    help="Archive folder (env RULESARCHIVE_ARCHIVE).",
)
@click.option(
    "-v",
    "--verbose",
    count=True,
    help="Log what happens: retries, waits, cache hits (-vv: debugging detail).",
)
@click.option("-q", "--quiet", is_flag=True, help="Log errors only.")
@click.version_option(package_name="rulesarchive")
@click.pass_context
def main(ctx: click.Context, archive_path: Path, verbose: int, quiet: bool) -> None:
    """Keep, normalise and diff every Comprehensive Rules release."""
    if isinstance(sys.stdout, io.TextIOWrapper):  # a terminal that can't show '→' gets '?'
        sys.stdout.reconfigure(errors="replace")
    configure_logging(verbose, quiet)
    ctx.obj = archive_path
