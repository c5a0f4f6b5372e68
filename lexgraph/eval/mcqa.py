"""Accuracy of the multi-agent methods on 4-choice questions, per question and per method, and the report files.

A run is described by its `MCQAConfig` (dataset and its hash, methods, model and endpoint, flags); the report
writes it as ``config.json`` beside ``metrics.json``, ``details.csv`` and ``accuracy.png``, and
``lexgraph eval mcqa --config DIR/config.json`` runs the same thing again.

``randomized`` runs every question in its 4 cyclic choice orders (abcd, bcda, cdab, dabc): accuracy is then over
all runs, and consistency is the share of questions given the same answer (in the dataset's labels) in all four.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from lexgraph.answer.agents import CYCLIC_ORDERS, DEFAULT_TAU, LABELS, MCQAItem, MCQAResult, parse_choices, solve
from lexgraph.eval.lawqa import LawqaQuestion
from lexgraph.eval.report import pyplot, report_folder, save_figure, write_csv, write_json
from lexgraph.llm.client import LLMClient
from lexgraph.llm.guardrails import DEFAULT_MAX_REPAIRS
from lexgraph.retrieve.options import SearchOptions

ORDERS = CYCLIC_ORDERS


@dataclass(frozen=True)
class MCQAConfig:
    dataset: str
    dataset_sha256: str
    methods: tuple[str, ...]
    model: str
    base_url: str | None
    use_context: bool = False
    randomized: bool = False
    limit: int | None = None
    tau: float = DEFAULT_TAU
    max_repairs: int = DEFAULT_MAX_REPAIRS
    references: int = 8  # clauses retrieved per question when not using the dataset's context
    store: str = ""
    temperature: float | None = None  # every agent's (None: each its own)
    eliminate: int | None = None  # choices the elimination methods remove (None: as they see fit)
    runoff: str = "vote"  # a vote's tie: one run-off agent, or a new vote between the top two ("vote")
    examples: str = "paper"  # the single agents' worked examples: the paper's figures, or lexgraph's own
    qids: tuple[str, ...] | None = None  # the questions run (a sample), None: the first `limit`

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "methods": list(self.methods),
                "qids": None if self.qids is None else list(self.qids)}

    @classmethod
    def for_dataset(cls, dataset: Path, methods: Sequence[str], llm: LLMClient, *, use_context: bool,
                    randomized: bool, limit: int | None, tau: float, max_repairs: int, store: str) -> MCQAConfig:
        """The configuration of a run on `dataset` with `llm`, recording the dataset's SHA-256. Raises OSError
        when the dataset cannot be read."""
        return cls(str(dataset), file_sha256(dataset), tuple(methods), llm.config.model, llm.config.base_url,
                   use_context, randomized, limit, tau, max_repairs, store=store)

    @property
    def runs_per_question(self) -> int:
        """How many times each method answers a question: once, or in every cyclic choice order (randomized)."""
        return len(ORDERS) if self.randomized else 1

    def dataset_changed(self) -> bool:
        """Whether the dataset's SHA-256 differs from the one recorded (a report run again on other data)."""
        return file_sha256(self.dataset) != self.dataset_sha256

    @classmethod
    def read(cls, path: str | Path) -> MCQAConfig:
        """A report's config.json, to run the same evaluation again. Raises OSError, ValueError, TypeError or
        KeyError when it is not one."""
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
        qids = raw.get("qids")
        # A report written before the run-off followed the paper recorded no runoff: it was the judge then.
        return cls(**{"runoff": "judge", "examples": "lexgraph", **raw, "methods": tuple(raw["methods"]),
                      "qids": None if qids is None else tuple(qids)})


def file_sha256(path: str | Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def items_from_lawqa(questions: Sequence[LawqaQuestion]) -> list[MCQAItem]:
    return [MCQAItem(q.qid, q.question, parse_choices(q.choices), q.answer.strip().lower(), q.context)
            for q in questions]


@dataclass
class MethodRun:
    method: str
    results: list[MCQAResult] = field(default_factory=list)
    gold: dict[str, str] = field(default_factory=dict)

    @property
    def accuracy(self) -> float | None:
        return self.accuracy_excluding(())

    def accuracy_excluding(self, qids: Collection[str]) -> float | None:
        """Accuracy over the questions not in `qids` (e.g. those a worked example gives away)."""
        scored = [r for r in self.results if self.gold.get(r.qid) and r.qid not in qids]
        return sum(r.label == self.gold[r.qid] for r in scored) / len(scored) if scored else None

    @property
    def failed(self) -> int:
        return sum(r.label is None for r in self.results)

    @property
    def consistency(self) -> float | None:
        """Share of questions answered alike in every order they were run in (None: one order only)."""
        by_question: dict[str, list[str | None]] = {}
        for r in self.results:
            by_question.setdefault(r.qid, []).append(r.label)
        if not by_question or all(len(v) < 2 for v in by_question.values()):
            return None
        return sum(len(set(v)) == 1 and v[0] is not None for v in by_question.values()) / len(by_question)

    def summary(self) -> dict[str, Any]:
        return {"accuracy": self.accuracy, "consistency": self.consistency, "runs": len(self.results),
                "failed": self.failed}

    def to_json(self) -> dict[str, Any]:
        return {"method": self.method, **self.summary(),
                "results": [{**r.to_json(), "gold": self.gold.get(r.qid), "correct": r.label == self.gold.get(r.qid)}
                            for r in self.results]}


def run_mcqa(llm: LLMClient, items: Sequence[MCQAItem], config: MCQAConfig, context_for: Callable[[MCQAItem], str],
             *, on_result: Callable[[MCQAResult], None] | None = None) -> list[MethodRun]:
    orders = ORDERS if config.randomized else (LABELS,)
    contexts = {item.qid: context_for(item) for item in items}
    runs = []
    for method in config.methods:
        run = MethodRun(method, gold={item.qid: item.answer for item in items})
        for item in items:
            for order in orders:
                result = solve(llm, item, method, contexts[item.qid], order=order, tau=config.tau,
                               max_repairs=config.max_repairs, temperature=config.temperature,
                               eliminate=config.eliminate, runoff=config.runoff, examples=config.examples)
                run.results.append(result)
                if on_result is not None:
                    on_result(result)
        runs.append(run)
    return runs


def metrics(runs: Sequence[MethodRun], config: MCQAConfig) -> dict[str, Any]:
    return {"dataset": config.dataset, "model": config.model, "questions": len({r.qid for run in runs
                                                                                for r in run.results}),
            "methods": {run.method: run.summary() for run in runs}}


def write_report(directory: str | Path, config: MCQAConfig, runs: Sequence[MethodRun]) -> list[Path]:
    """metrics.json, details.csv (one row per question, method and order, with the agents' trace), config.json and
    accuracy.png (accuracy by method)."""
    folder = report_folder(directory)
    write_json(folder / "config.json", config.to_json())
    write_json(folder / "metrics.json", metrics(runs, config))
    write_csv(folder / "details.csv", ["qid", "method", "order", "answer", "gold", "correct", "error", "trace"],
              ([r.qid, run.method, "".join(r.order), r.label or "", run.gold.get(r.qid, ""),
                int(r.label == run.gold.get(r.qid, "")), r.error or "",
                json.dumps([s.to_json() for s in r.trace], ensure_ascii=False)]
               for run in runs for r in run.results))
    plot_accuracy(folder / "accuracy.png", runs, title=f"lawqa_jp accuracy ({config.model})")
    return [folder / name for name in ("config.json", "metrics.json", "details.csv", "accuracy.png")]


def plot_accuracy(path: Path, runs: Sequence[MethodRun], *, title: str) -> None:
    plt = pyplot()
    names = [run.method for run in runs]
    values = [run.accuracy or 0.0 for run in runs]
    figure, axis = plt.subplots(figsize=(max(4.0, 1.2 * len(names) + 1), 3.5))
    bars = axis.bar(names, values, color="#4c72b0")
    axis.axhline(0.25, color="grey", linestyle="--", linewidth=1, label="chance (0.25)")
    for bar, value in zip(bars, values, strict=True):
        axis.text(bar.get_x() + bar.get_width() / 2, value + 0.01, f"{value:.2f}", ha="center", fontsize=8)
    axis.set_ylim(0, 1)
    axis.set_ylabel("accuracy")
    axis.set_title(title, fontsize=9)
    axis.legend(fontsize=8)
    plt.xticks(rotation=20, fontsize=8)
    save_figure(figure, path)


def retrieved_context(lg: Any, settings: MCQAConfig) -> Callable[[MCQAItem], str]:
    """The clauses `lg` (a `LexGraph`) retrieves for a question and its choices, as the agents' statute text:
    `settings.references` of them, from one hybrid retriever for all questions (the index and model stay
    loaded)."""
    retriever = lg.retriever("hybrid")
    options = SearchOptions(k=settings.references, n=settings.references)

    def context(item: MCQAItem) -> str:
        query = f"{item.question}\n" + "\n".join(item.choices.values())
        result = lg.search(query, kind="provision", options=options, retriever=retriever)
        return "\n".join(f"{e.title}：{e.text}" for e in result.evidence if e.label == "Provision")

    return context


def evaluate_mcqa(lg: Any, llm: LLMClient, items: Sequence[MCQAItem], settings: MCQAConfig, *,
                  on_result: Callable[[MCQAResult], None] | None = None) -> list[MethodRun]:
    """Every method of `settings` on every item, over the dataset's own context (``use_context``) or the clauses
    `lg` retrieves. Raises `ModelUnavailable` when the model cannot be reached."""
    context_for = (lambda item: item.context) if settings.use_context else retrieved_context(lg, settings)
    return run_mcqa(llm, items, settings, context_for, on_result=on_result)
