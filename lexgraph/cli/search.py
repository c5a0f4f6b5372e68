"""`lexgraph index` and `lexgraph search`: build the search indexes, and rank clauses and chunks for a
question with evidence through the citation graph."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from lexgraph import NOT_STORED_LABEL, Searching, SearchOptions
from lexgraph.cli.options import (
    EmbedderOpt,
    JsonOpt,
    KindOpt,
    LawsOpt,
    SearchAsOfOpt,
    StoreOpt,
    is_server,
    make_embedder,
    parse_day,
    parse_kinds,
    parse_weights,
)
from lexgraph.cli.output import (
    EXIT_BAD_INPUT,
    emit_json,
    err,
    opened,
    out,
    progress_bar,
    snippet,
    table,
)
from lexgraph.errors import ConfigurationError

if TYPE_CHECKING:
    from lexgraph import SearchResult


def index_command(
    law: LawsOpt = None,
    kind: KindOpt = None,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Rebuild even the parts that are up to date.")] = False,
    status: Annotated[bool, typer.Option("--status", help="Only say which parts are stale; build nothing.")] = False,
    embedder: EmbedderOpt = None,
    anchors: Annotated[list[Path] | None, typer.Option(
        "--anchors", help="Judgment text files or folders: their sentences citing an article become its anchor "
                          "field (the learned search mode reads it).")] = None,
    no_statute_anchors: Annotated[bool, typer.Option(
        "--no-statute-anchors",
        help="Save no statutes' anchor field (a field saved before is still kept up to date). By default the "
             "statutes' anchors (every resolved citation between clauses gives the cited article the citing "
             "sentence, without its citations) are saved as the anchor field beside the index (in the database on "
             "Neo4j), which the learned search mode reads; skipped where the store holds no resolved citation "
             "between clauses, and when the field saved before is up to date. Seconds on a few laws; about 1.5 "
             "minutes on the whole 2020 archive (resumed after a kill).")] = False,
    statute_anchors: Annotated[bool, typer.Option(
        "--statute-anchors", help="Save the statutes' anchor field: the default, for scripts that ask for it.")
    ] = False,
    rebuild_anchors: Annotated[bool, typer.Option(
        "--rebuild-anchors", help="Build the statutes' anchor field again even when it is up to date.")] = False,
    suppl_vectors: Annotated[bool, typer.Option(
        "--suppl-vectors",
        help="Give 附則 clauses vectors too. By default a new index embeds the main text only: 附則 (37 % of the "
             "whole archive's clauses, most of them transitional provisions) are found by BM25 and the anchors, "
             "not by the dense list. Embedding them costs 20-30 % more time (on the whole 2020 archive 115,000 "
             "more texts, 20-26 minutes more on two quiet cores). Unset, an index keeps what it was built "
             "with; a change rebuilds every part from the embedding cache.")] = False,
    no_suppl_vectors: Annotated[bool, typer.Option(
        "--no-suppl-vectors", help="Take the 附則 clauses' vectors out of an index built with them.")] = False,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Build or refresh the BM25 and vector indexes of clauses and chunks from the graph (only what changed).

    Texts are embedded on a CUDA GPU when ONNX Runtime's GPU package (onnxruntime-gpu) and a device are present,
    else on the CPU; LEXGRAPH_DEVICE=cpu keeps them on the CPU, LEXGRAPH_DEVICE=cuda refuses to run without a GPU."""
    kinds = parse_kinds(kind)
    if suppl_vectors and no_suppl_vectors:
        raise ConfigurationError("--suppl-vectors cannot be given with --no-suppl-vectors: give one of them")
    if no_statute_anchors and (statute_anchors or rebuild_anchors):
        raise ConfigurationError("--no-statute-anchors cannot be given with --statute-anchors or --rebuild-anchors: "
                                 "give one of them")
    # The embedded backend's indexes are files beside the graph: the graph itself is only read. --status only
    # reads, on Neo4j too (opened to write, a server store would be migrated first).
    with opened(store, read_only=status or not is_server(store)) as lg:
        if status:
            report = lg.index_status()
            if as_json:
                emit_json(report.to_json())
            else:
                _print_status(report)
            raise typer.Exit(0 if report.ok else EXIT_BAD_INPUT)
        model = make_embedder(embedder, lg)
        with progress_bar("texts", quiet=as_json) as progress:
            task = progress.add_task("indexing", total=None)
            shown = [""]

            def on_progress(stage: str, done: int, total: int) -> None:
                if stage != shown[0]:  # a new part or step: its own count and time left
                    shown[0] = stage
                    progress.reset(task, total=total or None, completed=done, description=stage[:48])
                else:
                    progress.update(task, completed=done, total=total or None)

            summary = lg.index(laws=law or (), kinds=kinds, rebuild=rebuild, embedder=model, progress=on_progress,
                               suppl_vectors=True if suppl_vectors else False if no_suppl_vectors else None,
                               statute_anchors=not no_statute_anchors, rebuild_anchors=rebuild_anchors)
        written = lg.build_anchors(anchors) if anchors else None
    if as_json:
        emit_json({**summary.to_json(), **({"anchors": written} if written is not None else {})})
        return
    if summary.statute_anchors is not None:
        out.print(f"statute anchors: {summary.statute_anchors} citing sentences saved as the anchor field",
                  highlight=False)
    if written is not None:
        out.print(f"anchors: {written} citing sentences", highlight=False)
    out.print(f"index {summary.location} ({summary.embedder}): built {len(summary.built)} parts, "
              f"{summary.fresh} already up to date, removed {len(summary.removed)}; {summary.units} units, "
              f"{summary.tokenised} tokenised, {summary.embedded_texts} texts embedded (the rest from the cache)",
              highlight=False)
    timings = ", ".join(f"{k} {v:.1f} s" for k, v in summary.seconds.items() if v >= 0.05)
    if timings:
        out.print(f"time: {timings}", highlight=False)


def _print_status(report: Any) -> None:
    out.print(f"index {report.location} ({report.embedder or 'not built'})", highlight=False)
    if report.suppl_vectors is False:
        out.print("附則 clauses have no vectors (found by BM25 and the anchors; `lexgraph index --suppl-vectors` "
                  "embeds them)", highlight=False)
    if report.problem:
        out.print(f"[yellow]{report.problem}[/]", highlight=False)
    grid = table("part", "status", "units")
    for part in report.parts:
        colour = "green" if part.status == "fresh" else "yellow"
        grid.add_row(part.part, f"[{colour}]{part.status}[/]", str(part.rows))
    out.print(grid)


def search_command(
    question: Annotated[str, typer.Argument(help="The question, in Japanese.")],
    mode: Annotated[str, typer.Option("--mode", help=f"One of {', '.join(SearchOptions.modes())}.")
                    ] = SearchOptions.mode,
    as_of: SearchAsOfOpt = None,
    law: LawsOpt = None,
    kind: KindOpt = None,
    k: Annotated[int, typer.Option("--k", help="Clauses and chunks shown.")] = SearchOptions.k,
    m: Annotated[int, typer.Option("--m", help="Chunks whose citations select evidence.")] = SearchOptions.m,
    n: Annotated[int, typer.Option("--n", help="Evidence items.")] = SearchOptions.n,
    rrf_k: Annotated[float, typer.Option("--rrf-k", help="Reciprocal Rank Fusion constant.")] = SearchOptions.rrf_k,
    weight: Annotated[list[str] | None, typer.Option(
        "--weight", help="A fused list's weight, e.g. dense=0.5; law=0: no law-level evidence.")] = None,
    embedder: EmbedderOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Rank clauses and chunks for a question, and select evidence through the citation graph."""
    Searching.check_question(question)  # before the index is opened: bad input, whatever the index
    options = SearchOptions(mode=mode, k=k, m=m, n=n, rrf_k=rrf_k, weights=parse_weights(weight))
    parse_kinds(kind)
    day = parse_day(as_of)
    with opened(store, read_only=True) as lg:
        result = lg.search(question, as_of=day, laws=law or (), kind=kind,  # type: ignore[arg-type]
                           options=options, embedder=make_embedder(embedder, lg))
    if as_json:
        emit_json(result.to_json())
    else:
        _print_result(result)
        if result.unembedded == "suppl":
            err.print("[yellow]dense list[/] holds the main text only: this index gives 附則 clauses no vectors "
                      "(search them with --mode bm25 or hybrid; `lexgraph index --suppl-vectors` embeds them)",
                      highlight=False)


def _print_result(result: SearchResult) -> None:
    where = result.where.to_json()
    scope = ", ".join(f"{key} {value}" for key, value in where.items() if value) or "no filter"
    out.print(f"[bold]{result.question}[/]  (mode {result.mode}; {scope})", highlight=False)
    if result.ranked_by is not None:
        err.print(f"[yellow]ranked as {result.ranked_by.mode}[/] {result.ranked_by.reason}", highlight=False)
    for i, answer in enumerate(result.hypothetical_answers, start=1):
        out.print(f"[dim]hypothetical answer {i}: {snippet(answer, 100)}[/]", highlight=False)
    evidence = table("#", "score", "evidence", "why")
    for rank, item in enumerate(result.evidence, start=1):
        reasons = []
        if item.direct_rank:
            reasons.append(f"found directly at #{item.direct_rank}")
        if item.cited_by:
            chunks = ", ".join(f"{chunk} (#{r})" for chunk, r in item.cited_by[:3])
            more = f" and {len(item.cited_by) - 3} more" if len(item.cited_by) > 3 else ""
            reasons.append(f"cited by {len(item.cited_by)} chunk(s): {chunks}{more}")
        text = f"[yellow]{NOT_STORED_LABEL}[/]" if item.stub else f"[dim]{snippet(item.text)}[/]"
        evidence.add_row(str(rank), f"{item.score:.4f}", f"{item.title}\n{text}",
                         "; ".join(reasons))
    if result.evidence:
        out.print(evidence)
    for name, hits in (("clauses", result.clauses), ("chunks", result.chunks)):
        if not hits:
            continue
        grid = table("#", "score", name, "lists")
        for hit in hits:
            lists = ", ".join(f"{src} #{r}" for src, r in hit.sources.items())
            grid.add_row(str(hit.rank), f"{hit.score:.4f}", f"{hit.unit.shown_title}\n[dim]{snippet(hit.unit.text)}[/]",
                          lists)
        out.print(grid)
    if not result.evidence and not result.clauses and not result.chunks:
        out.print("nothing found under this filter")
    for note in result.dropped:
        err.print(f"[yellow]left out[/] {note}", highlight=False)
    for kept in result.unverified:
        err.print(f"[yellow]not known in force[/] {kept.title}: shown as its last known wording: {kept.reason}",
                  highlight=False)
    for part in result.stale:
        err.print(f"[yellow]stale index[/] {part.note}", highlight=False)
