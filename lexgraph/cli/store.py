"""The store as a whole: `stats`, `doctor`, `migrate`, `copy` and read-only `query`."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from lexgraph import DEFAULT_BATCH, store_exists, store_location
from lexgraph.cli.options import JsonOpt, StoreOpt
from lexgraph.cli.output import (
    EXIT_BAD_INPUT,
    emit_json,
    err,
    opened,
    out,
    progress_bar,
    table,
)
from lexgraph.errors import ConfigurationError, StoreUnavailable

QUERY_LIMIT = 10_000  # rows `query` reads at most unless told: a user's MATCH over 1.6 M clauses must not fill memory


def stats(store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """Node counts per label and relationship counts per type."""
    with opened(store, read_only=True) as lg:
        counts = lg.stats()
    if as_json:
        emit_json(counts.to_json())
        return
    grid = table("kind", "name", "count")
    for label, n in counts.nodes.items():
        grid.add_row("node", label, f"{n:,}")
    for rel, n in counts.relationships.items():
        grid.add_row("relationship", rel, f"{n:,}")
    out.print(grid)


def doctor(
    store: StoreOpt = None,
    as_json: JsonOpt = False,
    repair: Annotated[bool, typer.Option(
        "--repair", help="Open the store for writing, as any write command does: a write-ahead log torn by a killed "
        "writer is copied beside the store and the store keeps every transaction committed before the tear "
        "(pending migrations are applied too).")] = False,
) -> None:
    """Check migrations, counts and consistency, and say what to do about any problem."""
    if repair and not store_exists(store_location(store)):
        raise StoreUnavailable(f"no store at {store_location(store)} to repair; pass --store")
    with opened(store, read_only=not repair) as lg:
        report = lg.doctor()
    if as_json:
        emit_json(report.to_json())
    else:
        out.print(f"{report.backend} store at {report.location}", highlight=False)
        findings = Table.grid(padding=(0, 1))  # wrapped within the terminal's width, the marks in their own column
        findings.add_column(no_wrap=True)
        findings.add_column(overflow="fold")
        for finding in report.findings:
            mark = "[green]ok[/]" if finding.ok else "[red]PROBLEM[/]"
            findings.add_row(mark, f"{escape(finding.check)}: {escape(finding.detail)}")
            if finding.fix:
                findings.add_row("", f"fix: {escape(finding.fix)}")
        out.print(findings, highlight=False)
    if not report.ok:
        raise typer.Exit(EXIT_BAD_INPUT)


def migrate(store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """Apply pending schema migrations (write commands do this on their own)."""
    with opened(store) as lg:
        history = lg.store.applied_migrations()
    payload = [{"version": m.version, "name": m.name, "checksum": m.checksum, "applied_at": m.applied_at}
               for m in history]
    if as_json:
        emit_json(payload)
        return
    for m in payload:
        out.print(f"V{m['version']:03d}__{m['name']}  {m['applied_at']}")


def copy(
    to: Annotated[str, typer.Option("--to", help="The target store: bolt://user:password@host:7687 or a directory.")],
    batch: Annotated[int, typer.Option(help="Rows (nodes or relationships) per transaction.")] = DEFAULT_BATCH,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Copy the whole graph into another store (an embedded store into Neo4j, say). Running it again changes
    nothing.

    The search index is not copied: the command that builds it from this store's cached vectors is printed. Its
    anchor field (the learned search mode's two files) is copied with the graph, byte for byte, into the target's
    index folder or Neo4j database."""
    if batch <= 0:
        raise ConfigurationError("--batch must be positive")
    if store_location(store) == to:
        raise ConfigurationError("--to names the store being copied; give another")
    with opened(store, read_only=True) as lg, progress_bar("rows", quiet=as_json) as progress:
        task = progress.add_task("copying", total=None)
        summary = lg.copy_to(to, batch=batch, on_batch=lambda what, n: progress.update(
            task, description=f"{what} {n:,}"))
    if as_json:
        emit_json(summary.to_json())
        return
    out.print("copied " + ", ".join(f"{n:,} {label}" for label, n in summary.nodes.items()) + "; "
              + ", ".join(f"{n:,} {rel}" for rel, n in summary.relationships.items()), highlight=False)
    if summary.anchors:
        out.print("anchor field copied: " + ", ".join(f"{name} ({size:,} bytes)" for name, size in
                                                      summary.anchors.items()), highlight=False)
    if summary.index is not None:
        out.print("the copy has no search index yet; this builds it from this store's cached vectors, embedding "
                  "nothing again:", highlight=False)
        out.print(f"  {escape(summary.index.command)}", highlight=False, soft_wrap=True)


def query(
    cypher: Annotated[str | None, typer.Argument(help="A read-only Cypher query.")] = None,
    param: Annotated[list[str] | None, typer.Option("--param", help="k=v (v parsed as JSON when it can be).")]
    = None,
    schema: Annotated[bool, typer.Option("--schema", help="Print the store's labels, relationship types and "
                                         "properties, with their types, meanings and an example, instead.")]
    = False,
    limit: Annotated[int, typer.Option("--limit", help="At most this many rows; the rest are never read, so that "
                                       "a query over the whole store stays in bounded memory.")] = QUERY_LIMIT,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run your own Cypher, read-only: a query that writes is refused."""
    if (cypher is None) == (not schema):
        raise ConfigurationError("give a Cypher query, or --schema for the store's schema (not both)")
    if limit < 1:
        raise ConfigurationError("--limit must be at least 1")
    params = dict(_parse_param(p) for p in param or [])
    with opened(store, read_only=True) as lg:
        if schema:
            reference = lg.schema()
            if as_json:
                emit_json(reference.to_json())
            else:
                out.print(reference.to_text(), highlight=False, markup=False)
            return
        assert cypher is not None
        rows = lg.query(cypher, params, limit=limit + 1)
    if len(rows) > limit:
        rows = rows[:limit]
        err.print(f"only the first {limit:,} rows are shown; there are more (--limit, or LIMIT / SKIP in the query)",
                  highlight=False)
    if as_json:
        emit_json(rows)
        return
    if not rows:
        out.print("(no rows)")
        return
    grid = table(*rows[0].keys())
    for row in rows:
        grid.add_row(*(str(v) for v in row.values()))
    out.print(grid)


def _parse_param(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key.isidentifier():
        raise ConfigurationError(f"--param {text!r} must be name=value")
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value
