"""`rulesarchive cache`: what the store of derived data holds, and emptying it."""

from __future__ import annotations

import click

from rulesarchive.corpus.derived import Access, DerivedData, Kind, UnwritableCache


@click.group(invoke_without_command=True)
@click.pass_context
def cache(ctx: click.Context) -> None:
    """Show what the cache of derived data holds; `cache clear` empties it."""
    if ctx.invoked_subcommand is not None:
        return
    derived = DerivedData.default()
    access = derived.access()
    if access is Access.NONE:
        click.echo(f"cache: {derived.path} not in use ({derived.reason})")
        return
    rows = derived.summary()
    read_only = f", read only ({derived.reason})" if access is Access.READ else ""
    click.echo(f"cache: {derived.path} (at most {derived.limit // 2**20} MB{read_only})")
    for row in rows:
        click.echo(f"{row.kind:12} {row.entries:7} entries {row.size / 2**20:10.1f} MB")
    total = sum(row.size for row in rows)
    click.echo(f"{'total':12} {sum(r.entries for r in rows):7} entries {total / 2**20:10.1f} MB")


@cache.command()
@click.argument(
    "kinds", nargs=-1, metavar="[KIND]...", type=click.Choice([kind.value for kind in Kind])
)
def clear(kinds: tuple[str, ...]) -> None:
    """Delete what the cache holds (of these kinds; default everything)."""
    try:
        deleted = DerivedData.default().clear(map(Kind, kinds))
    except UnwritableCache as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"deleted {deleted} entries")
