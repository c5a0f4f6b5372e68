"""`lexgraph ingest …`: statutes, precedents and literature into the store."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from lexgraph import DEFAULT_CHUNK_SIZE, DEFAULT_OVERLAP
from lexgraph.cli.law import print_links_summary
from lexgraph.cli.options import ChunkSizeOpt, JsonOpt, OverlapOpt, StoreOpt, check_chunking, parse_day
from lexgraph.cli.output import (
    EXIT_BAD_INPUT,
    emit_json,
    err,
    line_shown,
    opened,
    out,
    progress_bar,
)
from lexgraph.errors import ConfigurationError, InputError

if TYPE_CHECKING:
    from lexgraph import DocumentSummary

app = typer.Typer(no_args_is_help=True, help="Load data into the store.")


@app.command("statutes")
def ingest_statutes(
    paths: Annotated[list[Path], typer.Argument(help="XML files, directories, .tar.xz/.zip archives.")],
    revision: Annotated[str | None, typer.Option(help="Revision id for a single file without one in its name.")] = None,
    in_force_on: Annotated[str | None, typer.Option("--in-force-on", help="A day the text was known to be in "
                                                    "force, for snapshots without a revision id.")] = None,
    link: Annotated[bool, typer.Option("--link/--no-link", help="Link clause cross-references (CITES) after "
                                       "ingesting; `lexgraph law link` does it later.")] = True,
    law: Annotated[list[str] | None, typer.Option("--law", help="Only this law's files (title, 略称, number or id; "
                                                  "repeatable), e.g. a few laws of the whole e-Gov archive.")] = None,
    workers: Annotated[int | None, typer.Option(help="Processes that parse XML and read citations while this one "
                                                "writes (default: one per core for a large input, such as the "
                                                "whole e-Gov archive; 1: none). The store is the same either "
                                                "way.", min=1)] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Ingest e-Gov 法令XML, then link the clauses' cross-references. Re-running the same files changes nothing."""
    if revision and len(paths) != 1:
        raise ConfigurationError("--revision names the revision of one file; give exactly one PATH")
    known_day = parse_day(in_force_on, "--in-force-on")
    _require_input(paths, (".xml", ".zip", ".tar.xz", ".txz", ".tar.gz", ".tgz", ".tar"), "e-Gov XML")
    with opened(store) as lg, progress_bar("laws", quiet=as_json) as progress:
        task = progress.add_task("ingesting", total=_xml_files(paths))

        def on_file(size: int, name: str) -> None:
            progress.update(task, advance=1, description=line_shown(Path(name.replace("!", "/")).name)[:40])

        def on_link_start(total: int) -> None:
            progress.reset(task, total=total, description="linking")

        def on_link(law_id: str) -> None:
            progress.update(task, advance=1, description=f"linking {law_id}")

        summary = lg.ingest_statutes(paths, revision=revision, in_force_on=known_day, on_file=on_file, link=link,
                                     on_link=on_link, on_link_start=on_link_start, laws=law or (), workers=workers)
    if as_json:
        emit_json(summary.to_json())
    else:
        out.print(f"files {summary.files}  laws {len(summary.laws)}  versions added {summary.versions_added}  "
                  f"unchanged {summary.unchanged}  clauses written {summary.provisions_written}")
        if summary.links is not None:
            print_links_summary(summary.links)
        for outcome in summary.conflicts:
            err.print(f"[yellow]conflict[/] {escape(line_shown(outcome.message))}", highlight=False)
        for outcome in summary.failures:
            err.print(f"[red]failed[/] {escape(line_shown(outcome.message))}", highlight=False)
    if summary.failures or summary.conflicts or (summary.links is not None and summary.links.failed_laws):
        raise typer.Exit(EXIT_BAD_INPUT)




@app.command("precedents")
def ingest_precedents(
    paths: Annotated[list[Path], typer.Argument(help="Judgment texts (.txt, folders) and metadata (.jsonl).")],
    chunk_size: ChunkSizeOpt = DEFAULT_CHUNK_SIZE,
    overlap: OverlapOpt = DEFAULT_OVERLAP,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Ingest judgments: the precedent, its chunks, and edges to the clauses (in force on the decision date) and
    precedents it cites. Re-running the same files changes nothing."""
    check_chunking(chunk_size, overlap)
    _require_input(paths, (".txt", ".jsonl"), "judgment texts or metadata")
    with opened(store) as lg, progress_bar(quiet=as_json) as progress:
        task = progress.add_task("ingesting", total=None)
        summary = lg.ingest_precedents(paths, size=chunk_size, overlap=overlap,
                                       on_document=lambda name: progress.update(task, advance=1,
                                                                                description=Path(name).name[:40]))
    _print_document_summary(summary, as_json)


@app.command("literature")
def ingest_literature(
    paths: Annotated[list[Path], typer.Argument(help="Markdown, text or PDF files, folders, or a registry folder.")],
    kind: Annotated[str | None, typer.Option(help="book or guideline (a registry says for itself).")] = None,
    title: Annotated[str | None, typer.Option(help="Title, for a single file.")] = None,
    day: Annotated[str | None, typer.Option("--date", help="The document's date (YYYY-MM-DD): its citations are "
                                            "read as of it.")] = None,
    source: Annotated[str | None, typer.Option(help="Where the document comes from (a URL).")] = None,
    chunk_size: ChunkSizeOpt = DEFAULT_CHUNK_SIZE,
    overlap: OverlapOpt = DEFAULT_OVERLAP,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Ingest books and guidelines: documents, chunks, and edges to the clauses and precedents they cite."""
    if kind is not None and kind not in ("book", "guideline", "other"):
        raise ConfigurationError("--kind is book, guideline or other")
    if title and len(paths) != 1:
        raise ConfigurationError("--title names one document; give exactly one PATH")
    check_chunking(chunk_size, overlap)
    when = parse_day(day, "--date")
    _require_input(paths, (".md", ".markdown", ".txt", ".pdf", ".jsonl"), "documents")
    with opened(store) as lg, progress_bar(quiet=as_json) as progress:
        task = progress.add_task("ingesting", total=None)
        summary = lg.ingest_literature(paths, kind=kind, title=title, day=when, source=source, size=chunk_size,
                                       overlap=overlap, on_document=lambda name: progress.update(
                                           task, advance=1, description=Path(name).name[:40]))
    _print_document_summary(summary, as_json)



def _require_input(paths: list[Path], suffixes: tuple[str, ...], what: str) -> None:
    """Exit 1, before the store is opened (and so created), when no path gives anything to read: every path is
    missing, or a folder that holds no file an ingest reads. An ingest of nothing must neither leave an empty store
    behind nor report success. Where some paths give input, the ingest goes on and reports the others as failures
    (exit 1), as it reports a file it cannot read."""
    problems = []
    for path in paths:
        if not path.exists():
            problems.append(f"{path}: no such file or directory")
        elif path.is_dir() and not any(p.is_file() and p.name.lower().endswith(suffixes) for p in path.rglob("*")):
            problems.append(f"{path}: holds no {what} ({', '.join(suffixes)})")
    if paths and len(problems) == len(paths):
        raise InputError("; ".join(problems) + "; nothing was ingested")


def _xml_files(paths: list[Path]) -> int | None:
    """How many XML files the inputs hold, for the ETA; None for an archive, which only a full read could count."""
    total = 0
    for path in paths:
        if path.is_dir():
            total += sum(1 for _ in path.rglob("*.xml"))
        elif path.suffix.lower() == ".xml":
            total += 1
        else:
            return None
    return total


def _print_document_summary(summary: DocumentSummary, as_json: bool) -> None:
    if as_json:
        emit_json(summary.to_json())
    else:
        data = summary.to_json()
        out.print(f"files {data['files']}  added {data['added']}  replaced {data['replaced']}  unchanged "
                  f"{data['unchanged']}  chunks {data['chunks_written']}  citations {data['citations']}  "
                  f"edges to clauses {data['clause_edges']}, to precedents {data['precedent_edges']}  "
                  f"stubs +{data['stubs_created']} filled {data['stubs_filled']}  "
                  f"参照法条 linked {data['referenced_links']}", highlight=False)
        # Results on stdout; notes, duplicates and failures are messages, on stderr (with --json, part of it).
        for outcome in summary.outcomes:
            for problem in outcome.problems:
                err.print(f"[yellow]note[/] {escape(line_shown(outcome.source))}: {escape(line_shown(problem))}",
                          highlight=False)
        for reason, count in data["not_linked"].items():
            if reason.startswith("参照法条"):
                err.print(f"[yellow]not linked[/] {count} × {escape(line_shown(reason))}", highlight=False)
        for message in data["duplicates"]:
            err.print(f"[yellow]duplicate[/] {escape(line_shown(message))}", highlight=False)
        for outcome in summary.failures:
            err.print(f"[red]failed[/] {escape(line_shown(outcome.message))}", highlight=False)
    if summary.failures:
        raise typer.Exit(EXIT_BAD_INPUT)
