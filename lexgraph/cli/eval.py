"""`lexgraph eval …`: extraction, retrieval, multiple-choice and answer quality measured on gold data."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from lexgraph import (
    DEFAULT_EXTRACTOR,
    DEFAULT_MAX_REPAIRS,
    DEFAULT_TAU,
    METHODS,
    NOT_CONFIGURED,
    AskOptions,
    Evaluating,
    SearchOptions,
    compared_modes,
    configured_client,
    method_names,
    store_location,
)
from lexgraph.cli.options import EmbedderOpt, ExtractorOpt, JsonOpt, StoreOpt, load_extractor, make_embedder, parse_ks
from lexgraph.cli.output import (
    emit_json,
    err,
    fmt,
    opened,
    out,
    progress_bar,
    table,
)
from lexgraph.errors import ConfigurationError, InputError, ModelUnavailable

if TYPE_CHECKING:
    from lexgraph import CitationScores, RunComparison

app = typer.Typer(no_args_is_help=True, help="Measure extraction, retrieval and answers on gold data.")


@app.command("citations")
def eval_citations(
    gold: Annotated[Path, typer.Option("--gold", help="Gold JSONL: one sentence per line, {doc, sentence_start, "
                                       "sentence, citations: [cite's --json entries]}.")],
    misses: Annotated[int, typer.Option(help="How many misses to list (0: none).")] = 20,
    extractor: ExtractorOpt = DEFAULT_EXTRACTOR,
    judgments: Annotated[Path | None, typer.Option(
        "--judgments", help="Folder of the judgments the gold's sentences come from (default: LEXGRAPH_JUDGMENTS, "
                            "else ../shared/data/precedents/supreme_court); a missing folder is an error.")] = None,
    sentences_alone: Annotated[bool, typer.Option(
        "--sentences-alone", help="Score each sentence alone, without its judgment (lower figures).")] = False,
    store: Annotated[str | None, typer.Option(
        "--store", help="Resolve against this store's laws too, as `lexgraph cite --store` does, each judgment as of "
                        "its own date (default: the bundled catalogue alone).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Precision, recall and F1 of the citation extractor on a gold file, for statutes and precedents, on spans,
    overlaps and resolved targets. Lines with a `context` (the lawqa_jp gold) are replayed as statute clauses."""
    load_extractor(extractor)
    try:
        lines = Evaluating.load_citation_gold(gold)  # not a gold line: an `InputError` naming FILE:LINE (exit 1)
    except OSError as error:
        raise InputError(f"{gold}: {error}") from error
    if not (lines and "context" in lines[0]):
        if store is None:
            scores = Evaluating.score_citations(lines, extractor, judgments=judgments,
                                                sentences_alone=sentences_alone)
        else:
            with opened(store, read_only=True) as lg:
                scores = Evaluating.score_citations(
                    lines, extractor, judgments=judgments, sentences_alone=sentences_alone,
                    cite=lambda text: lg.cite_pieces([text], extractor=extractor, judgment_days=[]))
        _print_scores(gold, scores, misses, as_json)
        return
    if store is not None:  # the lawqa_jp gold's brackets are read inside their own clause's text, not a store's
        err.print("note: --store is not used for a gold with `context` lines (each is read within its own clause)",
                  highlight=False)
    result = Evaluating.score_relative_references(lines, extractor)
    payload = {"kind": "relative references in statutes", "brackets": result.total, "correct": result.correct,
               "accuracy": round(result.accuracy, 4),
               "misses": [{"gold": dict(g), "found": list(found)} for g, found in result.misses[:misses]]}
    if as_json:
        emit_json(payload)
    else:
        out.print(f"{gold.name}: {result.correct}/{result.total} bracketed references resolved "
                  f"(accuracy {result.accuracy:.4f})", highlight=False)


def _print_scores(gold: Path, scores: CitationScores, misses: int, as_json: bool) -> None:
    if as_json:
        payload = scores.to_json(with_misses=misses > 0)
        if misses > 0:
            payload["misses"] = payload["misses"][:misses]
        emit_json(payload)
        return
    grid = table("kind", "level", "precision", "recall", "F1", "tp", "fp", "fn")
    for kind, levels in (("statute", scores.statute), ("precedent", scores.precedent), ("overall", scores.overall)):
        for level in ("span", "overlap", "target"):
            prf = getattr(levels, level)
            grid.add_row(kind, level, f"{prf.precision:.4f}", f"{prf.recall:.4f}", f"{prf.f1:.4f}",
                          str(prf.tp), str(prf.fp), str(prf.fn))
    out.print(f"{gold.name}: {scores.sentences} sentences", highlight=False)
    out.print(grid)
    for miss in scores.misses[:misses]:
        out.print(f"  {miss.side:8} {miss.kind:9} {miss.doc}@{miss.sentence_start}  {miss.surface!r}",
                  highlight=False)


@app.command("retrieval")
def eval_retrieval(
    dataset: Annotated[Path, typer.Option("--dataset", help="lawqa_jp JSON (e.g. ../shared/data/lawqa_jp/dev.json) "
                                          "or a benchmark file (bench/data/judgment_retrieval.json).")],
    split: Annotated[str | None, typer.Option("--split", help="Only this split of a benchmark file (dev, test).")
                     ] = None,
    depth: Annotated[int, typer.Option("--depth", help="Clauses searched per question; article Recall@k reads the "
                                       "first k distinct articles of them.")] = 100,
    mode: Annotated[list[str] | None, typer.Option("--mode", help="Modes to compare "
                                                   f"({', '.join(SearchOptions.modes())}); "
                                                   "repeatable. Default: bm25, dense and hybrid.")] = None,
    k: Annotated[str, typer.Option("--k", help="Cut-offs for Recall@k.")] = "5,10,20",
    report: Annotated[Path | None, typer.Option("--report", help="Write metrics.json, comparisons.json, "
                                                "details.csv, config.json and recall.png (Recall@k curves) here.")
                      ] = None,
    reference: Annotated[str, typer.Option("--reference", help="Test this mode against each other one, question "
                                           "by question (paired randomization test, bootstrap interval).")
                         ] = SearchOptions().mode,
    without_law: Annotated[list[str] | None, typer.Option(
        "--without-law", help="Leave out the questions with gold in this law (title, 略称, number or e-Gov id); "
        "repeatable: the same benchmark scored without one law's questions.")] = None,
    embedder: EmbedderOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Recall@k and MRR, at article and paragraph level, of the clauses found for lawqa_jp's questions or a
    benchmark file's queries; gold that no stored wording holds, or holds as another provision (renumbered), is
    listed apart and left out of the "reachable" rows. Then the --reference mode against each other mode: the
    difference of each metric, its 95% interval and whether it is more than chance (p < 0.05), with the queries of
    one judgment resampled together."""
    from lexgraph import compare_modes, load_questions, without_laws, write_retrieval_report

    ks = parse_ks(k)
    if depth < max(ks):
        raise ConfigurationError(f"--depth {depth} is less than the largest k ({max(ks)}): search at least as "
                                 "deep as you score")
    modes = mode or list(compared_modes())
    known = SearchOptions.modes()  # read now: a mode registered at run time is evaluable
    for name in [*modes, reference]:
        if name not in known:
            raise ConfigurationError(f"--mode {name!r}: choose from {', '.join(known)}" if name in modes else
                                     f"--reference {name!r}: choose from {', '.join(known)}")
    questions = load_questions(dataset, split)
    with opened(store, read_only=True) as lg, progress_bar("questions", quiet=as_json) as progress:
        tasks: dict[str, Any] = {}

        def advance(name: str, done: int, total: int) -> None:
            if name not in tasks:
                tasks[name] = progress.add_task(name, total=total)
            progress.update(tasks[name], completed=done)

        kept, left_out = without_laws(questions, lg.catalog, without_law or [])
        model = make_embedder(embedder, lg)
        runs = lg.eval_retrieval(kept, modes, ks, embedder=model, progress=advance, depth=depth)
    comparisons = compare_modes(runs, reference)
    files = []
    if report is not None:
        config = {"dataset": str(dataset), "split": split, "depth": depth, "modes": modes, "ks": list(ks),
                  "reference": reference, "store": store_location(store), "embedder": model.name,
                  "without_laws": list(without_law or []), "left_out": [q.qid for q in left_out]}
        files = write_retrieval_report(report, config, runs, ks, comparisons)
    if as_json:
        emit_json({"dataset": str(dataset), "split": split, "depth": depth, "ks": list(ks),
                   "without_laws": list(without_law or []), "left_out": [q.qid for q in left_out],
                   "runs": [run.to_json() for run in runs], "comparisons": [c.to_json() for c in comparisons],
                   "report": [str(f) for f in files]})
        return
    first = runs[0]
    out.print(f"{dataset}: {first.n_questions} questions; {len(first.scored)} scored (every gold law in the store), "
              f"{len(first.absent)} with a gold law not in the store, {len(first.no_gold)} without statute gold",
              highlight=False)
    if left_out:
        out.print(f"left out: {len(left_out)} questions with gold in {', '.join(without_law or [])} "
                  "(--without-law)", highlight=False)
    missing = sorted({law for _, laws in first.absent for law in laws})
    if missing:
        out.print(f"laws not in the store: {', '.join(missing)}", highlight=False)
    for level, items in first.not_in_store.items():
        mismatched = first.mismatched.get(level, ())
        if items:
            out.print(f"{level} gold not in any stored version ({len(items)}): "
                      f"{', '.join(gold for _, gold in items[:6])}", highlight=False)
        if mismatched:
            out.print(f"{level} gold version-mismatched (the stored wording at that path is another provision) "
                      f"({len(mismatched)}): {', '.join(gold for _, gold, _ in mismatched[:6])}", highlight=False)
        if items or mismatched:
            out.print(f"{level}: best reachable recall {fmt(first.ceiling.get(level))}", highlight=False)
    grid = table("mode", "level", "n", *[f"R@{cut}" for cut in ks], "MRR")
    for run in runs:
        for level, scored in run.levels.items():
            grid.add_row(run.mode, level, str(scored.n_scored),
                          *[fmt(scored.recall_at(cut)) for cut in ks], fmt(scored.mrr))
    out.print(grid)
    if comparisons:
        print_comparisons(comparisons)
    for path in files:
        out.print(f"wrote {path}", highlight=False)


def print_comparisons(comparisons: list[RunComparison]) -> None:
    """One row per mode, level and metric: the reference's difference, its 95% interval, p and the verdict, in
    80 columns (a level's "(reachable)" becomes a star)."""
    first = comparisons[0].differences[0]
    grouped = (f" from {first.clusters} documents (a document's queries are resampled together)"
               if first.clusters < first.n else "")
    out.print(f"{comparisons[0].mode} minus each other mode, question by question: {first.n} questions{grouped}, "
              f"paired randomization test and 95% bootstrap interval over {first.resamples:,} resamples. "
              f"better / worse: p < {first.alpha}; —: the gap may be chance. * reachable gold only.", highlight=False)
    grid = table("against", "level", "metric", "diff", "95% interval", "p", "verdict")
    for comparison in comparisons:
        level = comparison.level.replace(" (reachable)", "*")
        for d in comparison.differences:
            verdict = d.verdict if d.verdict != "no difference" else "—"
            grid.add_row(comparison.against, level, d.metric, f"{d.difference:+.3f}",
                         f"{d.low:+.3f}..{d.high:+.3f}", f"{d.p_value:.3f}", verdict)
    out.print(grid)


@app.command("mcqa")
def eval_mcqa(
    dataset: Annotated[Path | None, typer.Option("--dataset", help="lawqa_jp JSON (e.g. "
                                                 "../shared/data/lawqa_jp/dev.json).")] = None,
    method: Annotated[list[str] | None, typer.Option("--method", help=f"One of {', '.join(METHODS)}; "
                                                     "repeatable (default baseline).")] = None,
    use_context: Annotated[bool, typer.Option("--use-context", help="Give the agents the dataset's own statute "
                                              "text instead of lexgraph's retrieved clauses.")] = False,
    randomized: Annotated[bool, typer.Option("--randomized", help="Run each question in its 4 choice orders and "
                                             "report consistency.")] = False,
    limit: Annotated[int | None, typer.Option("--limit", help="Only the first N questions.")] = None,
    tau: Annotated[float, typer.Option("--tau", help="Debate: agreement that ends it (0.8 or 0.98).")] = DEFAULT_TAU,
    max_repairs: Annotated[int, typer.Option("--max-repairs", help="Repairs of an invalid agent output.")
                           ] = DEFAULT_MAX_REPAIRS,
    config: Annotated[Path | None, typer.Option("--config", help="Run again as a report's config.json says.")
                      ] = None,
    report: Annotated[Path | None, typer.Option("--report", help="Write metrics.json, details.csv, config.json "
                                                "and accuracy.png here.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Accuracy of the multi-agent methods on lawqa_jp's 4-choice questions, with every agent's trace."""
    from lexgraph import MCQAConfig, load_lawqa

    llm = configured_client()
    if llm is None:
        raise ModelUnavailable(f"eval mcqa asks a model; {NOT_CONFIGURED}")
    if config is not None:
        try:
            settings = MCQAConfig.read(config)
        except (OSError, ValueError, TypeError, KeyError) as error:
            raise InputError(f"--config {config}: not a report's config.json ({error})") from error
    else:
        if dataset is None:
            raise ConfigurationError("give --dataset FILE (or --config DIR/config.json)")
        try:
            settings = MCQAConfig.for_dataset(dataset, method or ["baseline"], llm, use_context=use_context,
                                              randomized=randomized, limit=limit, tau=tau,
                                              max_repairs=max_repairs, store=store or "")
        except OSError as error:
            raise InputError(f"--dataset {dataset}: cannot be read ({error.strerror})") from error
    for name in settings.methods:
        if name not in (names := method_names()):
            raise ConfigurationError(f"--method {name!r}: choose from {', '.join(names)}")
    items = load_lawqa(settings.dataset)
    # a report of `experiment run multi-agent` names the sample it ran: the same questions again
    items = [q for q in items if q.qid in set(settings.qids)] if settings.qids else items[: settings.limit]
    if config is not None and settings.dataset_changed():
        err.print(f"[yellow]warning[/] {settings.dataset} changed since the configuration was written", highlight=False)
    with opened(store or settings.store or None, read_only=True) as lg, \
            progress_bar("runs", quiet=as_json) as progress:
        task = progress.add_task("agents", total=len(items) * len(settings.methods)
                                 * settings.runs_per_question)
        runs = lg.eval_mcqa(llm, items, settings, on_result=lambda _: progress.advance(task))
    files = Evaluating.write_mcqa_report(report, settings, runs) if report is not None else []
    if as_json:
        emit_json({"config": settings.to_json(), "methods": [run.to_json() for run in runs],
                    "report": [str(f) for f in files]})
        return
    grid = table("method", "accuracy", "consistency", "runs", "failed")
    for run in runs:
        grid.add_row(run.method, fmt(run.accuracy), fmt(run.consistency), str(len(run.results)),
                      str(run.failed))
    out.print(f"{settings.dataset}: {len(items)} questions, model {settings.model}, "
                  f"{'dataset context' if settings.use_context else 'lexgraph retrieval'}", highlight=False)
    out.print(grid)
    for path in files:
        out.print(f"wrote {path}", highlight=False)


@app.command("answers")
def eval_answers(
    dataset: Annotated[Path, typer.Option("--dataset", help="lawqa_jp JSON: the correct choice is the reference "
                                          "answer, the context's headings the gold evidence.")],
    limit: Annotated[int | None, typer.Option("--limit", help="Only the first N questions.")] = None,
    k: Annotated[str, typer.Option("--k", help="Cut-offs for the evidence Recall@k.")] = "5,10,20",
    mode: Annotated[str, typer.Option("--mode", help=f"Generation mode: {', '.join(AskOptions.modes())}.")
                    ] = AskOptions.mode,
    prompt: Annotated[str, typer.Option("--prompt", help=f"Prompt style: {', '.join(AskOptions.styles())}.")
                      ] = AskOptions.prompt_style,
    no_model: Annotated[bool, typer.Option("--no-model", help="Score extractive answers (and no judge).")] = False,
    report: Annotated[Path | None, typer.Option("--report", help="Write metrics.json, details.csv, config.json "
                                                "and answers.png here.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """ROUGE-L (Sudachi tokens), Recall@k of the cited evidence, and an LLM-judge score when a model is set."""
    from lexgraph import load_lawqa, write_answers_report

    ks = parse_ks(k)
    options = AskOptions(mode=mode, prompt_style=prompt)
    questions = load_lawqa(dataset)[:limit]
    llm = None if no_model else configured_client()
    with opened(store, read_only=True) as lg, progress_bar("questions", quiet=as_json) as progress:
        task = progress.add_task("answering", total=len(questions))
        scores = lg.eval_answers(
            questions, options, ks, llm=llm, on_question=lambda _: progress.advance(task),
            on_error=lambda question, error: err.print(f"[yellow]{question.qid}[/]: {error}", highlight=False))
    payload = scores.to_json()
    files = []
    if report is not None:
        files = write_answers_report(report, {"dataset": str(dataset), "limit": limit, "ks": list(ks), "mode": mode,
                                              "prompt": prompt, "model": llm.config.model if llm else None,
                                              "base_url": llm.config.base_url if llm else None}, scores)
    if as_json:
        emit_json({**payload, "report": [str(f) for f in files]})
        return
    grid = table("metric", "value")
    grid.add_row("questions", str(payload["questions"]))
    grid.add_row("ROUGE-L (Sudachi)", fmt(payload["rouge_l"]))
    for cut in ks:
        grid.add_row(f"evidence Recall@{cut}", fmt(payload[f"evidence_recall@{cut}"]))
    grid.add_row("judge (1-5)", "-" if payload["judge"] is None else f"{payload['judge']:.2f}")
    out.print(grid)
    for path in files:
        out.print(f"wrote {path}", highlight=False)
