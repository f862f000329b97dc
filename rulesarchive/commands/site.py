"""The commands of the static site: `build` and `serve`."""

from __future__ import annotations

import errno
from contextlib import ExitStack, nullcontext
from pathlib import Path

import click

from rulesarchive.commands.rules import note_leftovers
from rulesarchive.corpus.model import DocKind
from rulesarchive.library import Library
from rulesarchive.progress import stages
from rulesarchive.site_builder.build import build_site, sample_archive
from rulesarchive.site_builder.serve import make_server


@click.command()
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default="site",
    show_default=True,
    help="Folder of the site.",
)
@click.option(
    "--base-url",
    default="http://localhost:8000/",
    show_default=True,
    help="Where the site will be served (for the feed and sitemap).",
)
@click.option("--sample", is_flag=True, help="Build a demo site from the shipped sample archive.")
@click.option(
    "--api-diff",
    "pairs",
    nargs=2,
    multiple=True,
    metavar="OLD NEW",
    help="Also write the JSON API's diff of these two English releases (repeatable).",
)
@click.pass_obj
def build(
    root: Path, out: Path, base_url: str, sample: bool, pairs: tuple[tuple[str, str], ...]
) -> None:
    """Render the archive as a static site (histories, changelogs, search, feed, data, API)."""
    library = Library(sample_archive() if sample else root)
    if not base_url.endswith("/"):
        base_url += "/"
    # The archive as it is now, so ingesting meanwhile is safe; the shipped sample never changes.
    frozen = nullcontext(library) if sample else library.snapshot()
    kinds = [library.of_kind(kind) for kind in (DocKind.MTR, DocKind.IPG)]
    with stages() as progress, frozen as view, ExitStack() as stack:
        note_leftovers(library)  # after the snapshot, which clears those of killed builds
        found = view.find_all([reference for pair in pairs for reference in pair])
        diffs = list(zip(found[::2], found[1::2], strict=True))
        # A snapshot holds one kind: each tournament document's is its own.
        documents = [stack.enter_context(kind.snapshot()) for kind in kinds if kind.releases()]
        made = build_site(view, out, base_url, progress, diffs=diffs, documents=documents)
    click.echo(
        f"built {out}: {made.pages} files ({made.written} written) for "
        f"{', '.join(made.languages)} in {made.seconds:.1f} s"
    )


@click.command()
@click.option(
    "--out",
    "site",
    type=click.Path(file_okay=False, path_type=Path),
    default="site",
    show_default=True,
    help="Folder of the built site.",
)
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True)
def serve(site: Path, port: int, host: str) -> None:
    """Preview the built site at http://HOST:PORT/ (Ctrl-C stops)."""
    if not (site / "index.html").is_file():
        raise click.ClickException(
            f"{site}: no built site here (make one with 'rulesarchive build --out {site}')"
        )
    try:
        server = make_server(site, port, host)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise click.ClickException(
                f"port {port} on {host} is in use (stop what uses it, or give another --port)"
            ) from None
        raise click.ClickException(f"cannot serve on {host}:{port} ({error.strerror})") from None
    click.echo(f"serving {site} at http://{host}:{port}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    finally:  # Ctrl-C goes on to the command group: "Aborted!", exit status 130
        server.server_close()
