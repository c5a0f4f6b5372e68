"""Running a registered experiment (`eval.experiments`) on the data at hand, and its report.

Each kind of experiment is a thin composition of the evaluations lexgraph already has (`eval.retrieval`,
`eval.answers`, `eval.mcqa`, the turn log); each variant (a retrieval mode, an answer mode, an M of the sweep)
writes that evaluation's own report into ``DIR/<variant>/``. The experiment's report in ``DIR`` then holds:

- ``config.json``: the experiment, the parameters used, the paper's, the overrides, and ``differs_from_paper``
  (dataset, model, embedder, overridden parameters, limits, and the standing notes), so a substitute run is never
  mistaken for the original;
- ``metrics.json``: each variant's headline figures;
- ``details.csv``: every variant's details.csv, one after the other, with the variant in the first column;
- ``summary.png``: the headline figures by variant.
"""

from __future__ import annotations

import contextlib
import csv
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from lexgraph.errors import InputError
from lexgraph.eval.citation_quality import METRICS
from lexgraph.eval.experiments import (
    AnswerStyleParams,
    CitaLawParams,
    CitationGraphParams,
    Experiment,
    GuardrailParams,
    MultiAgentParams,
    Params,
    RunSetting,
    TreeParams,
    differences,
    parameters_json,
)
from lexgraph.eval.lawqa import LawqaQuestion, load_law_list, question_type
from lexgraph.eval.report import pyplot, report_folder, save_figure, write_csv, write_json
from lexgraph.retrieve.modes import search_mode

#: Called with a line of progress ("citation-graph: bm25").
Progress = Callable[[str], None]


@dataclass(frozen=True)
class Variant:
    """One variant's headline figures and the folder of its full report."""

    name: str
    headline: dict[str, float | None]
    folder: Path


@dataclass(frozen=True)
class ExperimentReport:
    experiment: str
    config: dict[str, Any]
    variants: tuple[Variant, ...]
    files: tuple[Path, ...]

    def to_json(self) -> dict[str, Any]:
        return {"experiment": self.experiment, "config": self.config,
                "metrics": {v.name: v.headline for v in self.variants}, "report": [str(f) for f in self.files]}


def stratified_sample(questions: Sequence[LawqaQuestion], size: int, seed: int,
                      law_titles: Mapping[str, str] | None = None) -> list[LawqaQuestion]:
    """The multi-agent paper's sample (its §4.1): (i) each question's law is the title `law_titles` (lawqa_jp's
    law_list.json, URL → title) gives its first e-Gov URL — the qid's first part where the list does not know it;
    (ii) every law gets at least one question (when `size` allows) and the rest in proportion to its questions, by
    largest remainder; (iii) within a law, questions are taken greedily from a seeded shuffle, each time of the
    question type (正しい選択 / 誤り選択 / 組み合わせ / その他) taken least so far. `random.Random(seed)` does not
    depend on Python's hash. Returned in the dataset's order; a dataset of at most `size` questions whole."""
    if size >= len(questions):
        return list(questions)
    strata: dict[str, list[int]] = {}
    for position, question in enumerate(questions):
        strata.setdefault(law_of(question, law_titles or {}), []).append(position)
    names = sorted(strata)
    counts = _allocate(size, {name: len(strata[name]) for name in names})
    rng = random.Random(seed)
    chosen: list[int] = []
    for name in names:
        chosen += _balanced_types(strata[name], counts[name], questions, rng)
    return [questions[p] for p in sorted(chosen)]


def law_of(question: LawqaQuestion, law_titles: Mapping[str, str]) -> str:
    """The law a question is about, for stratifying: its first reference's title, else its qid's first part."""
    for url in question.references:
        if (title := law_titles.get(url.rstrip("/"))) is not None:
            return title
    return question.qid.split("_")[0]


def _allocate(size: int, sizes: Mapping[str, int]) -> dict[str, int]:
    """One question per stratum first (while `size` lasts, largest strata first), the rest in proportion to each
    stratum's remaining questions by largest remainder."""
    names = sorted(sizes, key=lambda n: (-sizes[n], n))
    counts = {name: 0 for name in names}
    for name in names[:size]:
        counts[name] = 1
    left = size - sum(counts.values())
    spare = {name: sizes[name] - counts[name] for name in names}
    total = sum(spare.values())
    if left and total:
        exact = {name: left * spare[name] / total for name in names}
        extra = {name: int(exact[name]) for name in names}
        for name in sorted(names, key=lambda n: (-(exact[n] - extra[n]), n))[: left - sum(extra.values())]:
            extra[name] += 1
        counts = {name: counts[name] + extra[name] for name in names}
    return counts


def _balanced_types(positions: Sequence[int], count: int, questions: Sequence[LawqaQuestion],
                    rng: random.Random) -> list[int]:
    order = list(positions)
    rng.shuffle(order)
    by_type: dict[str, list[int]] = {}
    for position in order:
        by_type.setdefault(question_type(questions[position].question), []).append(position)
    taken: dict[str, int] = {name: 0 for name in by_type}
    out: list[int] = []
    while len(out) < count and any(by_type.values()):
        name = min((n for n in by_type if by_type[n]), key=lambda n: (taken[n], n))
        out.append(by_type[name].pop(0))
        taken[name] += 1
    return out


def select_questions(exp: Experiment, params: Params, questions: Sequence[LawqaQuestion],
                     limit: int | None, law_titles: Mapping[str, str] | None = None) -> list[LawqaQuestion]:
    """The paper's sample (multi-agent: stratified by law and question type, seeded), then the first `limit`."""
    chosen = list(questions)
    if isinstance(params, MultiAgentParams):
        chosen = stratified_sample(chosen, params.sample, params.seed, law_titles)
    return chosen[:limit] if limit is not None else chosen


def run_experiment(lg: Any, exp: Experiment, params: Params, *, dataset: str, questions: Sequence[LawqaQuestion],
                   folder: Path, limit: int | None = None, llm: Any = None, embedder: Any = None,
                   progress: Progress | None = None) -> ExperimentReport:
    """Run `exp` with `params` on `questions` (read from `dataset`) over `lg` (a `LexGraph`), with `llm` where the
    experiment needs a model and `embedder` for dense search, and write its report into `folder`. Raises what the
    evaluations raise (`IndexUnavailable`, `EmbedderMismatch`, `ModelUnavailable`)."""
    chosen = select_questions(exp, params, questions, limit, load_law_list(Path(dataset).parent / "law_list.json"))
    folder = report_folder(folder)
    say = progress or (lambda _: None)
    uses_embedder = (any(search_mode(mode).embeds_question for mode in params.modes)
                     if isinstance(params, CitationGraphParams)
                     else exp.kind != "mcqa" or not getattr(params, "use_context", True))
    setting = RunSetting(dataset, len(chosen), len(questions), embedder.name if uses_embedder and embedder else None,
                         llm.config.model if llm is not None else None,
                         llm.config.base_url if llm is not None else None, limit)
    config = {"experiment": exp.name, "paper": exp.paper, "measures": exp.measures, "kind": exp.kind,
              "dataset": dataset, "questions": [q.qid for q in chosen],
              "parameters": parameters_json(params), "paper_parameters": parameters_json(exp.parameters),
              "paper_setting": dict(exp.paper_setting), "differs_from_paper": differences(exp, params, setting),
              "model": setting.model, "base_url": setting.base_url, "embedder": setting.embedder,
              "llm": ({"max_tokens": llm.config.max_tokens, "timeout_s": llm.config.timeout,
                       "retries": llm.config.max_retries, "structured_output": llm.config.structured_output}
                      if llm is not None else None),
              "store": lg.store.location, "limit": limit}
    runner = RUNNERS[exp.kind]
    variants = runner(lg, params, chosen, folder, llm, embedder, config, say)
    files = write_experiment_report(folder, config, variants)
    return ExperimentReport(exp.name, config, tuple(variants), tuple(files))


# -- runners ------------------------------------------------------------------------------------------------------
def _retrieval_headline(run: Any, ks: Sequence[int]) -> dict[str, float | None]:
    out: dict[str, float | None] = {}
    for level, report in run.levels.items():
        out.update({f"{level}_recall@{k}": report.recall_at(k) for k in ks})
        out[f"{level}_mrr"] = report.mrr
    out["scored"] = float(len(run.scored))
    return out


def run_citation_graph(lg: Any, params: Params, questions: Sequence[LawqaQuestion], folder: Path, llm: Any,
                       embedder: Any, config: dict[str, Any], say: Progress) -> list[Variant]:
    """Recall@k of the evidence per mode, then the first mode at each M of the sweep."""
    from lexgraph.eval.retrieval import run_retrieval, write_retrieval_report
    from lexgraph.retrieve.options import SearchOptions

    assert isinstance(params, CitationGraphParams)
    missing = missing_material(lg.stats().nodes, direct=params.direct_clauses)
    if missing:
        say(missing)
        config["material_missing"] = missing
    base = _fused_options(params, params.fusion)
    runs: list[tuple[str, Any, SearchOptions]] = []
    plan = [(mode, mode, base) for mode in params.modes]
    if params.compare_fusion and "hybrid" in params.modes:  # the other fusion of the hybrid lists, side by side
        other = "rrf" if params.fusion == "mean" else "mean"
        plan.append((f"hybrid-{other}", "hybrid", _fused_options(params, other)))
    plan += [(f"{params.modes[0]}-m{m}", params.modes[0], replace(base, m=m)) for m in params.m_sweep]
    variants = []
    for name, mode, options in plan:
        say(f"{name}")
        run = run_retrieval(lg, questions, [mode], params.ks, embedder, search=options, llm=llm,
                            depth=max(params.ks), label=name)[0]
        runs.append((name, run, options))
        target = folder / name
        write_retrieval_report(target, {**config, "variant": name, "mode": mode, "m": options.m}, [run], params.ks)
        variants.append(Variant(name, {**_retrieval_headline(run, params.ks), "m": float(options.m)}, target))
    if params.zero_shot:
        variants += _zero_shot(lg, params, questions, folder, llm, config, say)
    return variants


def _zero_shot(lg: Any, params: CitationGraphParams, questions: Sequence[LawqaQuestion], folder: Path, llm: Any,
               config: dict[str, Any], say: Progress) -> list[Variant]:
    """The paper's Zero-Shot baseline (eval.zero_shot): the model lists the laws it thinks apply, no retrieval.
    Without a model it is not run, and the report says so (the other variants need none)."""
    from lexgraph.eval.retrieval import evaluate_lawqa, store_clause_texts, stored_law_ids, write_retrieval_report
    from lexgraph.eval.zero_shot import ZeroShotRanker

    if llm is None:
        config["zero_shot"] = "not run: the zero-shot baseline asks a model (set LEXGRAPH_LLM_MODEL)"
        say(config["zero_shot"])
        return []
    say("zero-shot")
    ranker = ZeroShotRanker(lg, llm)
    run = evaluate_lawqa(questions, ranker, stored_law_ids(questions, lg.catalog, lg.store), mode="zero-shot",
                         ks=params.ks, texts=store_clause_texts(lg.store))
    target = folder / "zero-shot"
    write_retrieval_report(target, {**config, "variant": "zero-shot", "listed": ranker.listed}, [run], params.ks)
    failed = sum(1 for item in ranker.listed.values() if item["error"])
    return [Variant("zero-shot", {**_retrieval_headline(run, params.ks), "failed": float(failed)}, target)]


def _fused_options(params: CitationGraphParams, fusion: str) -> Any:
    """The search options of one citation-graph variant. The appendix's Hybrid is the plain mean: every list
    weighs alike, not the search's default weights, and no law-level evidence (lexgraph's own addition,
    retrieve/law_prior.py)."""
    from lexgraph.retrieve.options import SearchOptions

    plain = {"bm25": 1.0, "dense": 1.0, "cited": 1.0, "law": 0.0} if fusion == "mean" else None
    return SearchOptions(m=params.m, n=params.n, rrf_k=params.rrf_k, fusion=fusion, weights=plain,
                         direct=params.direct_clauses)


def missing_material(nodes: Mapping[str, int], *, direct: bool) -> str:
    """What the store lacks for the paper's evidence selection (clauses and precedents cited by related chunks),
    and how to ingest it; "" when nothing is missing. No chunk at all: the graph can select nothing, and the
    experiment refuses to print zeros (InputError, exit 1) unless a direct clause search is fused in."""
    how = ("ingest judgments (lexgraph ingest precedents DIR) and books or guidelines (lexgraph ingest literature "
           "DIR), then run lexgraph index")
    if not nodes.get("Chunk", 0):
        if direct:
            return (f"no judgment, book or guideline is stored: the evidence comes from the direct clause search "
                    f"alone; to run the paper's selection, {how}")
        raise InputError(
            "the citation-graph experiment selects the clauses and precedents cited by the related chunks (books, "
            f"guidelines, judgments), and this store holds none: {how}; or run on the statutes alone with --set "
            "direct_clauses=true")
    if not nodes.get("Document", 0):
        return ("no book or guideline is stored: the related chunks are the judgments' alone (the paper also "
                "retrieves books and guidelines); ingest them with lexgraph ingest literature DIR, then lexgraph "
                "index")
    return ""


def f_beta(found: int, predicted: int, gold: int, beta: float) -> float:
    """F-β of a result set: ``(1 + β²) P R / (β² P + R)``; 0 when nothing relevant was found. β = 4 (the tree
    paper's adjusted F1) weighs recall 16 times as much as precision."""
    if found == 0 or predicted == 0 or gold == 0:
        return 0.0
    precision, recall = found / predicted, found / gold
    return (1 + beta ** 2) * precision * recall / (beta ** 2 * precision + recall)


def run_tree(lg: Any, params: Params, questions: Sequence[LawqaQuestion], folder: Path, llm: Any, embedder: Any,
             config: dict[str, Any], say: Progress) -> list[Variant]:
    """The tree's whole result (every leaf under the node found) and the baseline's top `baseline_k`, each scored by
    adjusted F1 at article level, with Recall@k and the mean result size."""
    from lexgraph.eval.retrieval import DEFAULT_DEPTH, run_retrieval, write_retrieval_report
    from lexgraph.retrieve.options import SearchOptions

    assert isinstance(params, TreeParams)
    variants = []
    per_question: dict[str, dict[str, float]] = {}
    plan = [("tree", "tree", DEFAULT_DEPTH), (f"{params.baseline}-top{params.baseline_k}", params.baseline,
                                             params.baseline_k)]
    for name, mode, depth in plan:
        say(name)
        options = SearchOptions(query_extraction=params.query_extraction and search_mode(mode).model != "never")
        run = run_retrieval(lg, questions, [mode], params.ks, embedder, search=options, llm=llm,
                            depth=max(depth, *params.ks), label=name)[0]
        target = folder / name
        write_retrieval_report(target, {**config, "variant": name, "mode": mode}, [run], params.ks)
        report = run.levels["article"]
        limit = None if search_mode(mode).whole else params.baseline_k
        scores, sizes = [], []
        rows = []
        for q in report.questions:
            size = q.n_predicted if limit is None else min(q.n_predicted, limit)
            found = sum(1 for _, rank in q.found if limit is None or rank <= limit)
            scores.append(f_beta(found, size, len(q.gold), params.beta))
            sizes.append(size)
            rows.append([q.qid, size, found, len(q.gold), f"{scores[-1]:.4f}"])
        write_csv(target / "adjusted_f1.csv", ["qid", "returned", "gold_found", "gold", f"f{params.beta:g}"], rows)
        headline = _retrieval_headline(run, params.ks)
        headline[f"adjusted_f{params.beta:g}"] = sum(scores) / len(scores) if scores else None
        headline["mean_returned"] = sum(sizes) / len(sizes) if sizes else None
        per_question[name] = dict(zip((q.qid for q in report.questions), scores, strict=True))
        variants.append(Variant(name, headline, target))
    variants[0].headline.update(_against_baseline(per_question, params.beta))
    return variants


def _against_baseline(per_question: Mapping[str, Mapping[str, float]], beta: float) -> dict[str, float]:
    """The tree's adjusted F1 minus the baseline's, question by question, as the paper's Table 2 compares its Tree
    and Origin methods: the mean difference, Cohen's d (mean over standard deviation of the differences) and the
    paired randomization test's two-sided p (`eval.significance`; the paper: a one-tailed t-test)."""
    from lexgraph.eval.significance import paired_difference

    (_, tree), (_, base) = per_question.items()
    qids = [q for q in tree if q in base]
    if len(qids) < 2:
        return {}
    diffs = [tree[q] - base[q] for q in qids]
    mean = sum(diffs) / len(diffs)
    spread = (sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)) ** 0.5
    test = paired_difference(f"f{beta:g}", [tree[q] for q in qids], [base[q] for q in qids], qids)
    return {f"f{beta:g}_difference": mean, f"f{beta:g}_p_value": test.p_value,
            f"f{beta:g}_cohens_d": mean / spread if spread else 0.0}


def run_answers(lg: Any, params: Params, questions: Sequence[LawqaQuestion], folder: Path, llm: Any, embedder: Any,
                config: dict[str, Any], say: Progress) -> list[Variant]:
    """One `eval answers` per generation mode (CitaLaw) or prompt style (+ zero-shot); a question whose model gave
    no valid answer is counted in ``failed`` and listed with its error in the variant's ``failed.csv``."""
    from lexgraph.answer.answerer import AskOptions
    from lexgraph.answer.references import capped_limits
    from lexgraph.eval.answers import write_answers_report
    from lexgraph.retrieve.options import SearchOptions

    plan: list[tuple[str, AskOptions]]
    search = None
    if isinstance(params, CitaLawParams):
        capped = capped_limits(params.references) if params.references is not None else None
        plan = [(mode, AskOptions(mode=mode, prompt_style=params.prompt, attachment=params.attachment,
                                  limits=capped)) for mode in params.modes]
    else:
        assert isinstance(params, AnswerStyleParams)
        limits = ({"book": params.m, "guideline": params.m, "precedent": params.n, "law": params.n}
                  if params.all_references else None)
        if params.all_references:
            search = SearchOptions(k=params.m, m=params.m, n=params.n)
        plan = [(style, AskOptions(mode="cgg", prompt_style=style, limits=limits)) for style in params.styles]
        if params.zero_shot:
            plan.append(("zero-shot", AskOptions(mode="closebook")))
    variants = []
    for name, options in plan:
        say(name)
        failed: list[list[str]] = []
        quality = isinstance(params, CitaLawParams) and params.citation_quality
        scores = lg.eval_answers(questions, options, params.ks, llm=llm, search=search, on_error=_listing(failed),
                                 citation_quality=quality)
        target = folder / name
        write_answers_report(target, {**config, "variant": name, "mode": options.mode,
                                      "prompt": options.prompt_style}, scores)
        # The scores hold the answered questions only: the failed ones are counted and listed, never dropped.
        write_csv(target / "failed.csv", ["qid", "error"], failed)
        payload = scores.to_json()
        headline = {key: payload[key] for key in ("rouge_l", "judge", *[f"evidence_recall@{k}" for k in params.ks])}
        headline |= {key: payload[key] for key in METRICS if key in payload}
        headline["embedding_similarity"] = embedding_similarity(embedder, [(s.answer, s.reference)
                                                                           for s in scores.scores])
        variants.append(Variant(name, headline | {"answered": float(payload["questions"]),
                                                  "failed": float(len(failed))}, target))
    return variants


def _listing(rows: list[list[str]]) -> Callable[[LawqaQuestion, Exception], None]:
    """An `on_error` that lists each failed question's qid and error in `rows`."""
    def add(question: LawqaQuestion, error: Exception) -> None:
        rows.append([question.qid, str(error)[:500]])

    return add


def embedding_similarity(embedder: Any, pairs: Sequence[tuple[str, str]]) -> float | None:
    """Mean cosine of the embedder's passage vectors of each (answer, reference): a BERTScore-style similarity with
    the offline embedder, labelled as such in the report (no token alignment, not BERTScore's model)."""
    import numpy as np

    kept = [(a, r) for a, r in pairs if a.strip() and r.strip()]
    if embedder is None or not kept:
        return None
    vectors = np.asarray(embedder.embed_passages([text for pair in kept for text in pair]), dtype=np.float64)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return float(np.mean(np.einsum("ij,ij->i", vectors[0::2], vectors[1::2])))


def run_guardrails(lg: Any, params: Params, questions: Sequence[LawqaQuestion], folder: Path, llm: Any,
                   embedder: Any, config: dict[str, Any], say: Progress) -> list[Variant]:
    """Every question asked once through the guardrails, its turn logged to ``turns.jsonl``; the log is then read
    back (through the turn log's version adapters) and counted. A turn whose model gave no valid reply, or did not
    answer in time (`LLMTimeout`), is a failed turn, logged with its error: one slow reply does not lose the run.
    An endpoint that cannot be reached, or answers with an error, still stops it (exit 3)."""
    from lexgraph.answer.answerer import AskOptions
    from lexgraph.answer.references import capped_limits
    from lexgraph.answer.turnlog import read_turns
    from lexgraph.errors import LLMTimeout, RetriesExhausted

    assert isinstance(params, GuardrailParams)
    target = report_folder(folder / "guardrails")
    log = target / "turns.jsonl"
    log.unlink(missing_ok=True)
    options = AskOptions(mode=params.mode, prompt_style=params.prompt, max_repairs=params.max_repairs,
                         limits=capped_limits(params.references) if params.references is not None else None)
    retriever = lg.retriever("hybrid", llm=llm)
    say("guardrails")
    for question in questions:
        # A failed turn (no valid reply, or none in time) is logged with its attempts and error: counted below.
        with contextlib.suppress(RetriesExhausted, LLMTimeout):
            lg.ask(question.query, options=options, llm=llm, log=log, retriever=retriever)
    turns = read_turns(log) if log.exists() else []
    rows = []
    for question, turn in zip(questions, turns, strict=False):
        attempts = turn["attempts"]
        invalid = sum(1 for a in attempts if a["errors"])
        errors = [e for a in attempts for e in a["errors"]] + ([turn["error"]] if turn["error"] else [])
        rows.append([question.qid, turn["status"], len(attempts), invalid,
                     int(turn["status"] == "answered" and invalid == 0), " | ".join(errors)[:500]])
    write_csv(target / "details.csv", ["qid", "status", "attempts", "invalid_attempts", "valid_first", "errors"],
              rows)
    total = len(rows)
    headline: dict[str, float | None] = {
        "turns": float(total),
        "valid_first_attempt": sum(r[4] for r in rows) / total if total else None,
        "valid_after_repair": sum(1 for r in rows if r[1] == "answered" and r[3] > 0) / total if total else None,
        "failed": sum(1 for r in rows if r[1] == "failed") / total if total else None,
        "attempts_per_turn": sum(r[2] for r in rows) / total if total else None,
    }
    write_json(target / "metrics.json", headline)
    write_json(target / "config.json", {**config, "variant": "guardrails"})
    return [Variant("guardrails", headline, target)]


def run_multi_agent(lg: Any, params: Params, questions: Sequence[LawqaQuestion], folder: Path, llm: Any,
                    embedder: Any, config: dict[str, Any], say: Progress) -> list[Variant]:
    """`eval mcqa` over the sample with the paper's settings; one variant per method, the debate once per τ
    (``debate-0.8``, ``debate-0.98``: the paper's table lists them as two methods)."""
    from lexgraph.answer.agents import PAPER_EXAMPLE_QIDS
    from lexgraph.eval.mcqa import MCQAConfig, file_sha256, write_report

    assert isinstance(params, MultiAgentParams)
    plain = tuple(m for m in params.methods if m != "debate")
    plan: list[tuple[str, tuple[str, ...], float]] = [("mcqa", plain, params.taus[0])] if plain else []
    if "debate" in params.methods:
        plan += [(f"mcqa-debate-{tau:g}", ("debate",), tau) for tau in params.taus]
    variants = []
    for folder_name, methods, tau in plan:
        settings = MCQAConfig(config["dataset"], file_sha256(config["dataset"]), methods, llm.config.model,
                              llm.config.base_url, params.use_context, params.randomized, None, tau,
                              params.max_repairs, store=str(lg.store.location), temperature=params.temperature,
                              eliminate=params.eliminate, runoff=params.runoff, examples=params.examples,
                              qids=tuple(q.qid for q in questions))
        say(folder_name.removeprefix("mcqa-") if methods == ("debate",) else "multi-agent")
        runs = lg.eval_mcqa(llm, questions, settings)
        target = folder / folder_name
        write_report(target, settings, runs)
        given_away = PAPER_EXAMPLE_QIDS if params.examples == "paper" else ()
        variants += [Variant(f"debate-{tau:g}" if run.method == "debate" else run.method,
                             {"accuracy": run.accuracy, "consistency": run.consistency,
                              "accuracy_without_example_questions": run.accuracy_excluding(given_away),
                              "failed": float(run.failed), "runs": float(len(run.results))}, target)
                     for run in runs]
    return variants


Runner = Callable[[Any, Params, Sequence[LawqaQuestion], Path, Any, Any, dict[str, Any], Progress], list[Variant]]
RUNNERS: dict[str, Runner] = {"retrieval": run_citation_graph, "tree": run_tree, "answers": run_answers,
                              "guardrails": run_guardrails, "mcqa": run_multi_agent}


# -- the report ---------------------------------------------------------------------------------------------------
def write_experiment_report(folder: Path, config: dict[str, Any], variants: Sequence[Variant]) -> list[Path]:
    """config.json, metrics.json, details.csv (every variant's, concatenated) and summary.png in `folder`."""
    write_json(folder / "config.json", config)
    write_json(folder / "metrics.json", {"experiment": config["experiment"],
                                         "variants": {v.name: v.headline for v in variants}})
    header: list[str] | None = None
    rows: list[list[str]] = []
    for folder_of, names in _by_folder(variants):
        details = folder_of / "details.csv"
        if not details.exists():
            continue
        with open(details, newline="", encoding="utf-8") as handle:
            reader = csv.reader(handle)
            own = next(reader, [])
            if header is None:
                header = own
            rows += [["+".join(names), *row] for row in reader]
    write_csv(folder / "details.csv", ["variant", *(header or [])], rows)
    _plot_summary(folder / "summary.png", config["experiment"], variants)
    return [folder / name for name in ("config.json", "metrics.json", "details.csv", "summary.png")]


def _by_folder(variants: Sequence[Variant]) -> list[tuple[Path, list[str]]]:
    grouped: dict[Path, list[str]] = {}
    for v in variants:
        grouped.setdefault(v.folder, []).append(v.name)
    return list(grouped.items())


def _plot_summary(path: Path, title: str, variants: Sequence[Variant]) -> None:
    """Each variant's figures in [0, 1] (recalls, F, accuracy, shares) side by side."""
    plt = pyplot()
    keys = [k for k in dict.fromkeys(k for v in variants for k in v.headline)
            if all(v.headline.get(k) is None or 0 <= float(v.headline[k] or 0) <= 1 for v in variants)
            and not k.endswith("mrr")][:8]
    figure, axis = plt.subplots(figsize=(max(5.0, 0.9 * len(keys) * max(1, len(variants)) / 2 + 2), 3.6))
    width = 0.8 / max(1, len(variants))
    for i, variant in enumerate(variants):
        values = [float(variant.headline.get(k) or 0.0) for k in keys]
        axis.bar([x + i * width for x in range(len(keys))], values, width, label=variant.name)
    axis.set_xticks([x + width * (len(variants) - 1) / 2 for x in range(len(keys))], keys, rotation=25, fontsize=7)
    axis.set_ylim(0, 1)
    axis.set_title(title, fontsize=9)
    if keys and variants:  # a legend of nothing is a matplotlib warning, not a picture
        axis.legend(fontsize=7)
    save_figure(figure, path)
