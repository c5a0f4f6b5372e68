"""The `lexgraph` command: a thin face over `lexgraph.client.LexGraph`.

Results go to stdout (as JSON with ``--json``); progress and messages go to stderr. Exit codes (DESIGN §8):
0 ok, 1 bad input, 2 usage, 3 store or model unavailable.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from lexgraph.citations import Citation, CitationContext, extract
from lexgraph.citations.document import document_date
from lexgraph.citations.lawqa_gold import evaluate as evaluate_lawqa
from lexgraph.client import LexGraph
from lexgraph.config import ConfigError, store_location
from lexgraph.documents.ingest import DEFAULT_CHUNK_SIZE, DEFAULT_OVERLAP, DocumentSummary
from lexgraph.documents.reading import DOCUMENT_KINDS
from lexgraph.eval.citations import evaluate, load_gold
from lexgraph.statutes.catalog import Catalog
from lexgraph.statutes.crossrefs import LinkSummary
from lexgraph.statutes.reading import LookupError_
from lexgraph.store.base import ReadOnlyViolation, StoreError, StoreUnavailable
from lexgraph.store.copy import DEFAULT_BATCH

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Japanese law as a versioned citation graph.")
ingest_app = typer.Typer(no_args_is_help=True, help="Load data into the store.")
law_app = typer.Typer(no_args_is_help=True, help="Read laws as of a date.")
eval_app = typer.Typer(no_args_is_help=True, help="Measure extraction, retrieval and answers on gold data.")
precedent_app = typer.Typer(no_args_is_help=True, help="Read precedents.")
app.add_typer(ingest_app, name="ingest")
app.add_typer(law_app, name="law")
app.add_typer(eval_app, name="eval")
app.add_typer(precedent_app, name="precedent")
graph_app = typer.Typer(no_args_is_help=True, help="The citation graph around a node (see also `lexgraph viz`).")
app.add_typer(graph_app, name="graph")

out = Console(soft_wrap=True)
err = Console(stderr=True, soft_wrap=True)

StoreOpt = Annotated[str | None, typer.Option("--store", help="Store directory or bolt:// URI "
                                             "(env LEXGRAPH_STORE; default ./lexgraph-store).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as JSON on stdout.")]
AsOfOpt = Annotated[str | None, typer.Option("--as-of", help="Date (YYYY-MM-DD); default today.")]

EXIT_BAD_INPUT, EXIT_USAGE, EXIT_UNAVAILABLE = 1, 2, 3


def _fail(message: str, code: int) -> NoReturn:
    err.print(f"[bold red]error:[/] {message}", highlight=False)
    raise typer.Exit(code)


def _day(text: str | None, option: str = "--as-of") -> date:
    if text is None:
        return date.today()
    try:
        return date.fromisoformat(text)
    except ValueError:
        _fail(f"{option} {text!r} is not a date; write it as YYYY-MM-DD", EXIT_USAGE)


@contextmanager
def _open(store: str | None, *, read_only: bool = False) -> Iterator[LexGraph]:
    """Open the store and turn every library error into a message and an exit code."""
    try:
        location = store_location(store)
        if read_only and not location.startswith(("bolt", "neo4j")) and not Path(location).exists():
            _fail(f"no store at {location}; run `lexgraph ingest statutes PATH…` first or pass --store",
                  EXIT_UNAVAILABLE)
        with LexGraph.open(location, read_only=read_only) as lg:
            yield lg
    except ConfigError as error:
        _fail(str(error), EXIT_USAGE)
    except ReadOnlyViolation as error:
        _fail(str(error), EXIT_BAD_INPUT)
    except StoreUnavailable as error:
        _fail(str(error), EXIT_UNAVAILABLE)
    except LookupError_ as error:
        _fail(str(error), EXIT_BAD_INPUT)
    except StoreError as error:
        _fail(str(error), EXIT_UNAVAILABLE)


def _emit_json(payload: Any) -> None:
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2, default=str) + "\n")


# -- ingest ---------------------------------------------------------------------------------------------------
@ingest_app.command("statutes")
def ingest_statutes(
    paths: Annotated[list[Path], typer.Argument(help="XML files, directories, .tar.xz/.zip archives.")],
    revision: Annotated[str | None, typer.Option(help="Revision id for a single file without one in its name.")] = None,
    in_force_on: Annotated[str | None, typer.Option("--in-force-on", help="A day the text was known to be in "
                                                    "force, for snapshots without a revision id.")] = None,
    link: Annotated[bool, typer.Option("--link/--no-link", help="Link clause cross-references (CITES) after "
                                       "ingesting; `lexgraph law link` does it later.")] = True,
    law: Annotated[list[str] | None, typer.Option("--law", help="Only this law's files (title, 略称, number or id; "
                                                  "repeatable), e.g. a few laws of the whole e-Gov archive.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Ingest e-Gov 法令XML, then link the clauses' cross-references. Re-running the same files changes nothing."""
    if revision and len(paths) != 1:
        _fail("--revision names the revision of one file; give exactly one PATH", EXIT_USAGE)
    known_day = _day(in_force_on, "--in-force-on") if in_force_on else None
    with _open(store) as lg, _progress() as progress:
        task = progress.add_task("ingesting", total=None)

        def on_file(size: int, name: str) -> None:
            progress.update(task, advance=1, description=Path(name.replace("!", "/")).name[:40])

        def on_link(law_id: str) -> None:
            progress.update(task, description=f"linking {law_id}")

        summary = lg.ingest_statutes(paths, revision=revision, in_force_on=known_day, on_file=on_file, link=link,
                                     on_link=on_link, laws=law or ())
    if as_json:
        _emit_json(summary.to_json())
    else:
        out.print(f"files {summary.files}  laws {len(summary.laws)}  versions added {summary.versions_added}  "
                  f"unchanged {summary.unchanged}  clauses written {summary.provisions_written}")
        if summary.links is not None:
            _print_links_summary(summary.links)
        for outcome in summary.conflicts:
            out.print(f"[yellow]conflict[/] {outcome.message}", highlight=False)
        for outcome in summary.failures:
            out.print(f"[red]failed[/] {outcome.message}", highlight=False)
    if summary.failures or summary.conflicts or (summary.links is not None and summary.links.failed_laws):
        raise typer.Exit(EXIT_BAD_INPUT)


ChunkSizeOpt = Annotated[int, typer.Option("--chunk-size", help="Characters per chunk (whole sentences).")]
OverlapOpt = Annotated[int, typer.Option("--overlap", help="Characters of the previous chunk repeated.")]


@ingest_app.command("precedents")
def ingest_precedents(
    paths: Annotated[list[Path], typer.Argument(help="Judgment texts (.txt, folders) and metadata (.jsonl).")],
    chunk_size: ChunkSizeOpt = DEFAULT_CHUNK_SIZE,
    overlap: OverlapOpt = DEFAULT_OVERLAP,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Ingest judgments: the precedent, its chunks, and edges to the clauses (in force on the decision date) and
    precedents it cites. Re-running the same files changes nothing."""
    _check_chunking(chunk_size, overlap)
    with _open(store) as lg, _progress() as progress:
        task = progress.add_task("ingesting", total=None)
        summary = lg.ingest_precedents(paths, size=chunk_size, overlap=overlap,
                                       on_document=lambda name: progress.update(task, advance=1,
                                                                                description=Path(name).name[:40]))
    _print_document_summary(summary, as_json)


@ingest_app.command("literature")
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
        _fail("--kind is book, guideline or other", EXIT_USAGE)
    if title and len(paths) != 1:
        _fail("--title names one document; give exactly one PATH", EXIT_USAGE)
    _check_chunking(chunk_size, overlap)
    when = _day(day, "--date") if day else None
    with _open(store) as lg, _progress() as progress:
        task = progress.add_task("ingesting", total=None)
        summary = lg.ingest_literature(paths, kind=kind, title=title, day=when, source=source, size=chunk_size,
                                       overlap=overlap, on_document=lambda name: progress.update(
                                           task, advance=1, description=Path(name).name[:40]))
    _print_document_summary(summary, as_json)


def _check_chunking(size: int, overlap: int) -> None:
    if size <= 0 or not 0 <= overlap < size:
        _fail(f"--chunk-size must be positive and --overlap in [0, size): got {size} and {overlap}", EXIT_USAGE)


def _print_document_summary(summary: DocumentSummary, as_json: bool) -> None:
    if as_json:
        _emit_json(summary.to_json())
    else:
        data = summary.to_json()
        out.print(f"files {data['files']}  added {data['added']}  replaced {data['replaced']}  unchanged "
                  f"{data['unchanged']}  chunks {data['chunks_written']}  citations {data['citations']}  "
                  f"edges to clauses {data['clause_edges']}, to precedents {data['precedent_edges']}  "
                  f"stubs +{data['stubs_created']} filled {data['stubs_filled']}", highlight=False)
        for outcome in summary.outcomes:
            for problem in outcome.problems:
                out.print(f"[yellow]note[/] {outcome.source}: {problem}", highlight=False)
        for message in data["duplicates"]:
            out.print(f"[yellow]duplicate[/] {message}", highlight=False)
        for outcome in summary.failures:
            out.print(f"[red]failed[/] {outcome.message}", highlight=False)
    if summary.failures:
        raise typer.Exit(EXIT_BAD_INPUT)


@contextmanager
def _progress(unit: str = "files") -> Iterator[Progress]:
    progress = Progress(TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
                        TextColumn(f"{{task.completed}} {unit}"), TimeElapsedColumn(), console=err, transient=True,
                        disable=not err.is_terminal)
    with progress:
        yield progress


# -- law ------------------------------------------------------------------------------------------------------
@law_app.command("show")
def law_show(
    law: Annotated[str, typer.Argument(help="Title, law number, abbreviation or law id.")],
    clause: Annotated[str | None, typer.Argument(help="第七百九条, 709条, 第三条の二第一項第二号 or a709/p1.")] = None,
    as_of: AsOfOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The text of a clause in force on a date, with the revision it comes from."""
    day = _day(as_of)
    with _open(store, read_only=True) as lg:
        if clause is None:
            info = lg.law(law)
            versions = lg.versions(law)
            payload = {"law_id": info.law_id, "title": info.title, "law_num": info.law_num,
                       "law_type": info.law_type, "aliases": list(info.aliases),
                       "versions": [_version_json(v) for v in versions]}
            if as_json:
                _emit_json(payload)
            else:
                _print_law(payload)
            return
        result = lg.show(law, clause, as_of=day)
    if as_json:
        _emit_json(result.to_json())
        return
    p = result.provision
    out.print(f"[bold]{result.law.title}[/] {p.title} {p.caption}", highlight=False)
    out.print(f"as of {day}  revision {result.version.revision_id}  ({p.path}, in force "
              f"{p.valid_from or '…'} – {p.valid_until or 'now'})", style="dim", highlight=False)
    out.print(p.text, highlight=False)


def _print_law(payload: dict[str, Any]) -> None:
    out.print(f"[bold]{payload['title']}[/] {payload['law_num']} ({payload['law_id']}, {payload['law_type']})",
              highlight=False)
    for v in payload["versions"]:
        out.print(f"  {v['revision_id']}  {v['enforced_from'] or '…'} – {v['enforced_until'] or 'now'}",
                  highlight=False)


def _version_json(v: Any) -> dict[str, Any]:
    return {"revision_id": v.revision_id, "enforced_from": _iso(v.enforced_from),
            "enforced_until": _iso(v.enforced_until), "amended_by": v.amended_by, "dated_by": v.dated_by,
            "known_in_force_on": _iso(v.known_in_force_on), "source": v.source}


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None


@law_app.command("versions")
def law_versions(
    law: Annotated[str, typer.Argument(help="Title, law number, abbreviation or law id.")],
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The stored revisions of a law and their enforcement periods."""
    with _open(store, read_only=True) as lg:
        info = lg.law(law)
        versions = lg.versions(law)
    if as_json:
        _emit_json({"law_id": info.law_id, "title": info.title, "versions": [_version_json(v) for v in versions]})
        return
    table = Table("revision id", "in force from", "until", "dated by")
    for v in versions:
        table.add_row(v.revision_id, _iso(v.enforced_from) or "unknown", _iso(v.enforced_until) or "—",
                      v.dated_by if v.dated_by != "snapshot" else f"snapshot (seen {v.known_in_force_on})")
    out.print(f"[bold]{info.title}[/] ({info.law_id})", highlight=False)
    out.print(table)


@law_app.command("diff")
def law_diff(
    law: Annotated[str, typer.Argument(help="Title, law number, abbreviation or law id.")],
    from_day: Annotated[str, typer.Option("--from", help="YYYY-MM-DD")],
    to_day: Annotated[str, typer.Option("--to", help="YYYY-MM-DD")],
    level: Annotated[str, typer.Option(help="article (articles and other top-level units) or all (every clause)")]
    = "article",
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Clauses added, changed and removed between the versions in force on two dates."""
    if level not in ("article", "all"):
        _fail("--level is article or all", EXIT_USAGE)
    start, end = _day(from_day, "--from"), _day(to_day, "--to")
    with _open(store, read_only=True) as lg:
        diff = lg.diff(law, start, end, level=level)
    if as_json:
        _emit_json(diff.to_json())
        return
    out.print(f"[bold]{diff.law.title}[/] {diff.from_revision} → {diff.to_revision}: "
              f"{diff.count('added')} added, {diff.count('changed')} changed, {diff.count('removed')} removed",
              highlight=False)
    for change in diff.changes:
        colour = {"added": "green", "changed": "yellow", "removed": "red"}[change.status]
        out.print(f"[{colour}]{change.status:8}[/] {change.path}  {change.title}", highlight=False)


@law_app.command("cites")
def law_cites(
    law: Annotated[str, typer.Argument(help="Title, law number, abbreviation or law id.")],
    clause: Annotated[str, typer.Argument(help="第七百十条, 710条 or a710/p1.")],
    as_of: AsOfOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The clauses a clause (and the clauses inside it) cites, as both were worded on a date."""
    _print_clause_links(law, clause, as_of, store, as_json, "cites")


@law_app.command("cited-by")
def law_cited_by(
    law: Annotated[str, typer.Argument(help="Title, law number, abbreviation or law id.")],
    clause: Annotated[str, typer.Argument(help="第七百九条, 709条 or a709.")],
    kind: Annotated[str, typer.Option(help="provision (clauses of laws), precedent, book, guideline, other, or "
                                      "document (all but provisions).")] = "provision",
    as_of: Annotated[str | None, typer.Option("--as-of", help="Date (YYYY-MM-DD). Clauses: default today. "
                                              "Documents: only those citing the wording in force then "
                                              "(default: any wording).")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """What cites a clause (or a clause inside it): other clauses, or precedents, books and guidelines."""
    if kind == "provision":
        _print_clause_links(law, clause, as_of, store, as_json, "cited_by")
        return
    kinds = DOCUMENT_KINDS if kind == "document" else (kind,)
    if kind != "document" and kind not in DOCUMENT_KINDS:
        _fail("--kind is provision, precedent, book, guideline, other or document", EXIT_USAGE)
    day = _day(as_of) if as_of else None
    with _open(store, read_only=True) as lg:
        info = lg.law(law)
        found = lg.documents_citing(law, clause, as_of=day, kinds=kinds)
    if as_json:
        _emit_json({"law_id": info.law_id, "law_title": info.title, "clause": clause,
                    "as_of": day.isoformat() if day else None, "kind": kind,
                    "cited_by": [c.to_json() for c in found]})
        return
    out.print(f"[bold]{info.title}[/] {clause}: cited by {len({c.uid for c in found})} {kind}(s) in "
              f"{len(found)} chunk(s)", highlight=False)
    for c in found:
        out.print(f"  {c.day or '?'}  {c.court or c.kind:12} {c.name[:30]:30} 「{c.surface}」 → {c.path} "
                  f"(revision {c.revision_id or 'not stored'})", highlight=False)


def _print_clause_links(law: str, clause: str, as_of: str | None, store: str | None, as_json: bool,
                        direction: str) -> None:
    day = _day(as_of)
    with _open(store, read_only=True) as lg:
        found = lg.cites(law, clause, as_of=day) if direction == "cites" else lg.cited_by(law, clause, as_of=day)
    if as_json:
        _emit_json(found.to_json())
        return
    verb = "cites" if direction == "cites" else "is cited by"
    out.print(f"[bold]{found.law.title}[/] {found.path} {verb} {len(found.links)} clause(s) as of {day}",
              highlight=False)
    for link in found.links:
        text = link.other.text.replace("\n", " ")
        out.print(f"  {link.near_path:14} 「{link.surface}」 → {link.other_law_title} {link.other.path}  "
                  f"{text[:60]}{'…' if len(text) > 60 else ''}", highlight=False)


@law_app.command("link")
def law_link(
    laws: Annotated[list[str] | None, typer.Argument(help="Laws to link (default: every stored law).")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """(Re)compute the CITES edges between clauses, for laws ingested with --no-link or stored before linking."""
    with _open(store) as lg, _progress() as progress:
        task = progress.add_task("linking", total=None)
        summary = lg.link(laws, on_law=lambda law_id: progress.update(task, advance=1, description=law_id))
    if as_json:
        _emit_json(summary.to_json())
    else:
        _print_links_summary(summary)
    if summary.failed_laws:
        raise typer.Exit(EXIT_BAD_INPUT)


def _print_links_summary(summary: LinkSummary) -> None:
    out.print(f"linked {summary.laws} laws: {summary.citations} citations in {summary.clauses_read} clauses, "
              f"{summary.edges_total} CITES edges (+{summary.edges_added} −{summary.edges_removed}); "
              f"{len(summary.pending_laws)} cited laws not stored", highlight=False)
    for reason, count in summary.not_linked.most_common():
        out.print(f"  not linked: {count} × {reason}", style="dim", highlight=False)
    for law_id, reason in summary.failed_laws.items():
        out.print(f"[red]failed[/] linking {law_id}: {reason}; its edges are as they were, and "
                  f"`lexgraph law link {law_id}` tries again", highlight=False)


# -- precedents -----------------------------------------------------------------------------------------------
@precedent_app.command("show")
def precedent_show(
    case: Annotated[str, typer.Argument(help="Lawsuit id (91244), uid, case number or a landmark's name.")],
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A precedent: its header, what it cites (clauses as of its date, precedents) and who cites it."""
    with _open(store, read_only=True) as lg:
        view = lg.precedent(case)
    data = view.to_json()
    if as_json:
        _emit_json(data)
        return
    out.print(f"[bold]{data.get('case_name') or data['uid']}[/]  {data.get('court') or ''} {data.get('date') or ''} "
              f"{data.get('decision_type') or ''}  {data.get('case_number') or ''}"
              + ("  [yellow](stub: cited, not stored)[/]" if data.get("stub") else ""), highlight=False)
    for key, label in (("reporter", "reporter"), ("holdings", "判示事項"), ("summary", "判決要旨")):
        if data.get(key):
            out.print(f"{label}: {data[key]}", highlight=False)
    out.print(f"{data['chunks']} chunks; cites {len(data['cites_clauses'])} clauses, "
              f"{len(data['cites_precedents'])} precedents; cited by {len(data['cited_by'])}", highlight=False)
    for row in data["cites_clauses"]:
        out.print(f"  → {row['law_title']} {row['path']}  「{row['surface']}」", highlight=False)
    for row in data["cites_precedents"]:
        out.print(f"  → {row['court']} {row['date']} {row['decision_type']} {row['case_number'] or ''}"
                  + (" (stub)" if row["stub"] else ""), highlight=False)


# -- citations ------------------------------------------------------------------------------------------------
@app.command()
def cite(
    file: Annotated[str, typer.Argument(help="A UTF-8 text file, or - for standard input.")] = "-",
    as_of: Annotated[str | None, typer.Option("--as-of", help="Date (YYYY-MM-DD) the statutes are read as of; "
                                              "default: the judgment's date in the text, else today.")] = None,
    in_law: Annotated[str | None, typer.Option("--in-law", help="The text is a clause of this law …")] = None,
    at: Annotated[str | None, typer.Option("--at", help="… namely this clause (第二十一条第二項), so that 前項 "
                                           "resolves.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Find and resolve the statute and precedent citations in a text."""
    if at and not in_law:
        _fail("--at names a clause of the law given by --in-law; give --in-law too", EXIT_USAGE)
    text = _read_text(file)
    day = _day(as_of) if as_of else (document_date(text) or date.today())
    err.print(f"as of {day} ({'--as-of' if as_of else 'the date in the text' if document_date(text) else 'today'})",
              style="dim", highlight=False)
    try:
        citations = _cite_with_store(text, day, in_law, at, store)
    except ValueError as error:
        _fail(str(error), EXIT_BAD_INPUT)
    if as_json:
        _emit_json({"citations": [c.to_json() for c in citations]})
        return
    table = Table("span", "surface", "kind", "cites", "status")
    for c in citations:
        target = (f"{c.law_title or '?'} {c.path or ''}" if c.kind == "statute"
                  else f"{c.court or '?'} {c.date or ''} {c.decision_type or ''} {c.reporter or ''}")
        table.add_row(f"{c.start}–{c.end}", c.surface.replace("\n", "⏎"), c.kind, target.strip(),
                      c.status + (f" ({c.reason})" if c.reason else ""))
    out.print(table)


def _read_text(file: str) -> str:
    try:
        data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    except OSError as error:
        _fail(f"{file}: cannot be read ({error.strerror})", EXIT_BAD_INPUT)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        _fail(f"{file}: byte {error.start} is not UTF-8; convert the file (e.g. iconv -f SHIFT_JIS -t UTF-8)",
              EXIT_BAD_INPUT)


def _cite_with_store(text: str, day: date, in_law: str | None, at: str | None, store: str | None) -> list[Citation]:
    """With a store, laws resolve to the revision in force; without one (a fresh machine), names still resolve
    through the bundled catalogue, and revision ids stay empty."""
    location = store_location(store)
    if location.startswith(("bolt", "neo4j")) or Path(location).exists():
        with _open(store, read_only=True) as lg:
            return lg.cite(text, as_of=day, in_law=in_law, at=at)
    context = (CitationContext.in_law(in_law, at, as_of=day) if in_law else CitationContext(as_of=day))
    return extract(text, context)


# -- evaluation -----------------------------------------------------------------------------------------------
@eval_app.command("citations")
def eval_citations(
    gold: Annotated[Path, typer.Option("--gold", help="Gold JSONL: one sentence per line (issue 3 format).")],
    misses: Annotated[int, typer.Option(help="How many misses to list (0: none).")] = 20,
    as_json: JsonOpt = False,
) -> None:
    """Precision, recall and F1 of the citation extractor on a gold file, for statutes and precedents, on spans,
    overlaps and resolved targets. Lines with a `context` (the lawqa_jp gold) are replayed as statute clauses."""
    try:
        lines = load_gold(gold)
    except (OSError, ValueError) as error:
        _fail(f"{gold}: {error}", EXIT_BAD_INPUT)
    if lines and "context" in lines[0]:
        result = evaluate_lawqa(lines, Catalog.bundled())
        payload = {"kind": "relative references in statutes", "brackets": result.total, "correct": result.correct,
                   "accuracy": round(result.accuracy, 4),
                   "misses": [{"gold": dict(g), "found": list(found)} for g, found in result.misses[:misses]]}
        if as_json:
            _emit_json(payload)
        else:
            out.print(f"{gold.name}: {result.correct}/{result.total} bracketed references resolved "
                      f"(accuracy {result.accuracy:.4f})", highlight=False)
        return
    scores = evaluate(lines, lambda sentence: [c.to_json() for c in extract(sentence)])
    if as_json:
        payload = scores.to_json(with_misses=misses > 0)
        if misses > 0:
            payload["misses"] = payload["misses"][:misses]
        _emit_json(payload)
        return
    table = Table("kind", "level", "precision", "recall", "F1", "tp", "fp", "fn")
    for kind, levels in (("statute", scores.statute), ("precedent", scores.precedent), ("overall", scores.overall)):
        for level in ("span", "overlap", "target"):
            prf = getattr(levels, level)
            table.add_row(kind, level, f"{prf.precision:.4f}", f"{prf.recall:.4f}", f"{prf.f1:.4f}",
                          str(prf.tp), str(prf.fp), str(prf.fn))
    out.print(f"{gold.name}: {scores.sentences} sentences", highlight=False)
    out.print(table)
    for miss in scores.misses[:misses]:
        out.print(f"  {miss.side:8} {miss.kind:9} {miss.doc}@{miss.sentence_start}  {miss.surface!r}",
                  highlight=False)


# -- the store ------------------------------------------------------------------------------------------------
@app.command()
def stats(store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """Node counts per label and relationship counts per type."""
    with _open(store, read_only=True) as lg:
        counts = lg.stats()
    if as_json:
        _emit_json(counts.to_json())
        return
    table = Table("kind", "name", "count")
    for label, n in counts.nodes.items():
        table.add_row("node", label, f"{n:,}")
    for rel, n in counts.relationships.items():
        table.add_row("relationship", rel, f"{n:,}")
    out.print(table)


@app.command()
def doctor(store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """Check migrations, counts and consistency, and say what to do about any problem."""
    with _open(store, read_only=True) as lg:
        report = lg.doctor()
    if as_json:
        _emit_json(report.to_json())
    else:
        out.print(f"{report.backend} store at {report.location}", highlight=False)
        for finding in report.findings:
            mark = "[green]ok[/]" if finding.ok else "[red]PROBLEM[/]"
            out.print(f"{mark:20} {finding.check}: {finding.detail}", highlight=False)
            if finding.fix:
                out.print(f"{'':10} fix: {finding.fix}", highlight=False)
    if not report.ok:
        raise typer.Exit(EXIT_BAD_INPUT)


@app.command()
def migrate(store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """Apply pending schema migrations (write commands do this on their own)."""
    with _open(store) as lg:
        history = lg.store.applied_migrations()
    payload = [{"version": m.version, "name": m.name, "checksum": m.checksum, "applied_at": m.applied_at}
               for m in history]
    if as_json:
        _emit_json(payload)
        return
    for m in payload:
        out.print(f"V{m['version']:03d}__{m['name']}  {m['applied_at']}")


@app.command()
def copy(
    to: Annotated[str, typer.Option("--to", help="The target store: bolt://user:password@host:7687 or a directory.")],
    batch: Annotated[int, typer.Option(help="Nodes per transaction.")] = DEFAULT_BATCH,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Copy the whole graph into another store (an embedded store into Neo4j, say). Running it again changes
    nothing."""
    if batch <= 0:
        _fail("--batch must be positive", EXIT_USAGE)
    if store_location(store) == to:
        _fail("--to names the store being copied; give another", EXIT_USAGE)
    with _open(store, read_only=True) as lg, _progress() as progress:
        task = progress.add_task("copying", total=None)
        try:
            summary = lg.copy_to(to, batch=batch, on_batch=lambda what, n: progress.update(
                task, description=f"{what} {n:,}"))
        except ConfigError as error:
            _fail(str(error), EXIT_USAGE)
    if as_json:
        _emit_json(summary.to_json())
        return
    out.print("copied " + ", ".join(f"{n:,} {label}" for label, n in summary.nodes.items()) + "; "
              + ", ".join(f"{n:,} {rel}" for rel, n in summary.relationships.items()), highlight=False)


@app.command()
def query(
    cypher: Annotated[str, typer.Argument(help="A read-only Cypher query.")],
    param: Annotated[list[str] | None, typer.Option("--param", help="k=v (v parsed as JSON when it can be).")]
    = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run your own Cypher, read-only: a query that writes is refused."""
    params = dict(_parse_param(p) for p in param or [])
    with _open(store, read_only=True) as lg:
        rows = lg.query(cypher, params)
    if as_json:
        _emit_json(rows)
        return
    if not rows:
        out.print("(no rows)")
        return
    table = Table(*rows[0].keys())
    for row in rows:
        table.add_row(*(str(v) for v in row.values()))
    out.print(table)


def _parse_param(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key.isidentifier():
        _fail(f"--param {text!r} must be name=value", EXIT_USAGE)
    try:
        return key, json.loads(value)
    except ValueError:
        return key, value


# -- the graph around a node ----------------------------------------------------------------------------------
NodeArg = Annotated[str, typer.Argument(help="A uid (hanrei:91244, doc:…, a clause uid), a lawsuit id (91244) or a "
                                        "law and clause in force on --as-of (\"民法 第七百九条\").")]
DepthOpt = Annotated[int, typer.Option("--depth", help="Steps from NODE, citing and cited (0: the node alone).")]
MaxNodesOpt = Annotated[int, typer.Option("--max-nodes", help="At most this many nodes: the nearest are kept.")]


def _neighbourhood(node: str, depth: int, as_of: str | None, max_nodes: int, store: str | None) -> Any:
    from lexgraph.graph import neighbourhood, resolve_node

    if depth < 0:
        _fail("--depth must be 0 or more", EXIT_USAGE)
    if max_nodes < 1:
        _fail("--max-nodes must be at least 1", EXIT_USAGE)
    day = _day(as_of) if as_of else None
    with _open(store, read_only=True) as lg:
        uid = resolve_node(lg.store, node, as_of=day, catalog=lg.catalog)
        return neighbourhood(lg.store, uid, depth, as_of=day, max_nodes=max_nodes)


@graph_app.command("neighbourhood")
def graph_neighbourhood(
    node: NodeArg,
    depth: DepthOpt = 1,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Date (YYYY-MM-DD): the graph as it stood then "
                                              "(and the clause in force then); default: all of it, clauses as "
                                              "of today.")] = None,
    max_nodes: MaxNodesOpt = 150,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The citation neighbourhood of a node at document level: precedents, books and guidelines as single nodes,
    clauses as their articles, edges counting the citations they stand for."""
    hood = _neighbourhood(node, depth, as_of, max_nodes, store)
    if as_json:
        _emit_json(hood.to_json())
        return
    out.print(hood.note, style="dim", highlight=False)
    table = Table("distance", "kind", "caption", "uid")
    for n in hood.nodes:
        table.add_row(str(n.distance), n.kind, n.caption, n.uid)
    out.print(table)
    captions = {n.uid: n.caption for n in hood.nodes}
    for e in hood.edges:
        out.print(f"  {captions[e.source]} → {captions[e.target]}  {e.type} ×{e.count}", highlight=False)


@app.command()
def viz(
    node: NodeArg,
    out_file: Annotated[Path, typer.Option("--out", help="FILE.png, FILE.svg or FILE.html (the SVG inline).")],
    depth: DepthOpt = 1,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Date (YYYY-MM-DD): the graph as it stood then "
                                              "(and the clause in force then); default: all of it, clauses as "
                                              "of today.")] = None,
    max_nodes: MaxNodesOpt = 150,
    store: StoreOpt = None,
) -> None:
    """Draw the citation neighbourhood of a node with Graphviz: laws red, precedents gold, guidelines green, books
    blue, other documents grey, cited-but-not-stored precedents dashed."""
    from lexgraph.graph.render import FORMATS, GraphvizMissing, RenderError, graphviz, render

    if out_file.suffix.lower() not in FORMATS:
        _fail(f"--out {out_file}: write the picture as .png, .svg or .html", EXIT_USAGE)
    try:
        graphviz()
    except GraphvizMissing as error:
        _fail(str(error), EXIT_UNAVAILABLE)
    hood = _neighbourhood(node, depth, as_of, max_nodes, store)
    try:
        written = render(hood, out_file)
    except RenderError as error:
        _fail(str(error), EXIT_UNAVAILABLE)
    except OSError as error:
        _fail(f"{out_file}: cannot be written ({error.strerror})", EXIT_BAD_INPUT)
    err.print(f"wrote {written}: {hood.note}", highlight=False)


def main(argv: list[str] | None = None) -> int:
    """Entry point for tests that want the exit code without a subprocess."""
    try:
        app(args=argv, standalone_mode=False)
    except typer.Exit as stop:
        return stop.exit_code
    except SystemExit as stop:  # click usage errors
        return int(stop.code or 0)
    return 0


# The search and answer commands live in their own modules; importing them registers them on `app`.
from lexgraph import cli_answer, cli_search  # noqa: E402, F401
