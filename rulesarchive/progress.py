"""Progress of long commands on a terminal: a bar on stderr per job or stage, hidden when piped.

Each file's outcome line is printed as the file is done, not after the bar ends: after Ctrl-C
the user has seen what was stored.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING

import click

from rulesarchive.scraper.outcome import Outcome, Status

if TYPE_CHECKING:
    from click._termui_impl import ProgressBar


# Control characters as escapes: a file name holding a newline must not break the one line
# per file, nor one holding ESC drive the terminal.
_CONTROLS = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))}


def report(outcome: Outcome) -> None:
    """Print one file's outcome, one line: stored ones on stdout, errors and notes on stderr."""
    message = outcome.message.translate(_CONTROLS)
    if outcome.status == Status.FAILED:
        click.echo(f"error: {message}", err=True)
    elif outcome.status in (Status.RECOVERED, Status.SKIPPED):
        click.echo(f"note: {message}", err=True)
    else:
        click.echo(message)


@contextmanager
def outcomes(total: int, label: str) -> Iterator[Callable[[Outcome], None]]:
    """Report each outcome as it comes, under a progress bar on a terminal (stderr)."""
    hidden = total <= 1 or not sys.stderr.isatty()
    with click.progressbar(length=total, label=label, file=sys.stderr, hidden=hidden) as bar:

        def advance(outcome: Outcome) -> None:
            if not hidden:
                sys.stderr.write("\r\033[K")  # clear the bar's line; the update redraws it
            report(outcome)
            if outcome.status not in (Status.RECOVERED, Status.REPAIRED):
                bar.update(1)

        yield advance


class Plan:
    """The progress of a job that learns its length once planned (scrape)."""

    def __init__(self, label: str, stack: ExitStack) -> None:
        self.label = label
        self.stack = stack
        self.shown: list[Outcome] = []

    def start(self, total: int) -> Callable[[Outcome], None]:
        """Open the bar for `total` jobs; return the callback for each outcome."""
        advance = self.stack.enter_context(outcomes(total, self.label))

        def shown(outcome: Outcome) -> None:
            self.shown.append(outcome)
            advance(outcome)

        return shown


@contextmanager
def planned(label: str) -> Iterator[Plan]:
    """Like `outcomes`, for jobs that learn their length once planned (scrape)."""
    with ExitStack() as stack:
        yield Plan(label, stack)


class _Stages:
    """A progress bar per stage of a long job (build); hidden when stderr is not a terminal."""

    def __init__(self, stack: ExitStack) -> None:
        self.stack = stack  # holds the bar of the current stage
        self.hidden = not sys.stderr.isatty()
        self.stage = ""
        self.bar: ProgressBar[int] | None = None
        self.shown = 0

    def update(self, stage: str, done: int, total: int) -> None:
        """Move the bar of `stage` to `done` of `total` (a new stage gets a new bar)."""
        if stage != self.stage:
            self.stack.close()
            self.stage, self.shown, self.bar = stage, 0, None
            if total <= 0:
                if not self.hidden:
                    click.echo(f"{stage}…", err=True)
                return
            bar = click.progressbar(length=total, label=stage, file=sys.stderr, hidden=self.hidden)
            self.bar = self.stack.enter_context(bar)
        if self.bar is not None:
            self.bar.update(done - self.shown)
            self.shown = done


@contextmanager
def stages() -> Iterator[Callable[[str, int, int], None]]:
    """Yield the progress callback of a long job (build)."""
    with ExitStack() as stack:
        yield _Stages(stack).update
