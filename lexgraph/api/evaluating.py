"""`Evaluating`: measurements of this store's search, answers and multi-agent methods, and the papers'
experiments. It exists so that each evaluation is one call over a handle: the loops (`lexgraph.eval`) drive the
handle's own search, retriever and answers, as a user would, so that what is measured is what a user runs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexgraph.api.session import Session
from lexgraph.errors import ModelUnavailable
from lexgraph.eval.lawqa import LawqaQuestion
from lexgraph.llm.client import NOT_CONFIGURED, LLMClient
from lexgraph.retrieve.options import SearchOptions

if TYPE_CHECKING:
    from lexgraph.answer.answerer import AskOptions
    from lexgraph.eval.answers import AnswersReport
    from lexgraph.eval.citations import CitationScores
    from lexgraph.eval.experiment_run import ExperimentReport
    from lexgraph.eval.experiments import Experiment, Params
    from lexgraph.eval.lawqa_gold import Evaluation
    from lexgraph.eval.mcqa import MCQAConfig, MethodRun
    from lexgraph.eval.retrieval import GoldQuestion, LawqaRun, RetrievalProgress
    from lexgraph.index.embed import Embedder

__all__ = ["Evaluating"]


class Evaluating:
    """Recall@k and MRR per mode, MCQA accuracy, answer quality, and the papers' experiments."""

    def __init__(self, session: Session, handle: Any) -> None:
        self._session = session
        self._handle = handle  # the `LexGraph` the evaluation loops search and ask through

    def eval_retrieval(self, questions: Sequence[GoldQuestion], modes: Sequence[str], ks: Sequence[int], *,
                       embedder: Embedder | None = None, progress: RetrievalProgress | None = None,
                       depth: int | None = None) -> list[LawqaRun]:
        """Recall@k and MRR of the clauses each mode finds for the questions (lawqa_jp's, or a benchmark file's:
        `load_questions`), one run per mode, each search `depth` clauses deep (default
        `eval.retrieval.DEFAULT_DEPTH`). Raises what a search raises (`IndexUnavailable`, `EmbedderMismatch`,
        `ModelUnavailable`)."""
        from lexgraph.eval.retrieval import DEFAULT_DEPTH, run_retrieval

        return run_retrieval(self._handle, questions, modes, ks, embedder or self._session.default_embedder(),
                             progress=progress, depth=depth or DEFAULT_DEPTH)

    def eval_mcqa(self, llm: LLMClient, questions: Sequence[LawqaQuestion], settings: MCQAConfig, *,
                  on_result: Callable[[Any], None] | None = None) -> list[MethodRun]:
        """Accuracy of the multi-agent methods of `settings` on 4-choice questions, over the dataset's context or
        the clauses this store retrieves; one run per method. Raises `ModelUnavailable`, and `IndexUnavailable` when
        retrieving without an index."""
        from lexgraph.eval.mcqa import evaluate_mcqa, items_from_lawqa

        return evaluate_mcqa(self._handle, llm, items_from_lawqa(questions), settings, on_result=on_result)

    def eval_answers(self, questions: Sequence[LawqaQuestion], options: AskOptions, ks: Sequence[int], *,
                     llm: LLMClient | None = None, on_question: Callable[[LawqaQuestion], None] | None = None,
                     on_error: Callable[[LawqaQuestion, Exception], None] | None = None,
                     search: SearchOptions | None = None, citation_quality: bool = False) -> AnswersReport:
        """ROUGE-L, evidence Recall@k and (with `llm`) a judge's score of this store's answers to lawqa_jp's
        questions; extractive answers without `llm`. With `citation_quality` (and `llm`), CitaLaw's citation-quality
        and syllogism-level correctness metrics too (`eval.citation_quality`). A question whose model fails goes to
        `on_error` and is left out. Raises `IndexUnavailable` without an index."""
        from lexgraph.eval.answers import evaluate_answers

        quality = self._session.default_embedder().embed_passages if citation_quality else None
        return evaluate_answers(self._handle, questions, options, ks, llm, on_question=on_question,
                                on_error=on_error, search=search, quality=quality)

    def run_experiment(self, experiment: Experiment, params: Params, *, dataset: str | Path,
                       questions: Sequence[LawqaQuestion], report: Path, limit: int | None = None,
                       llm: LLMClient | None = None, embedder: Embedder | None = None,
                       progress: Callable[[str], None] | None = None) -> ExperimentReport:
        """Run a paper's experiment with `params` on `questions` (read from `dataset`) over this store, with `llm`
        where it needs a model, and write its report (config.json with what differs from the paper, metrics.json,
        details.csv, summary.png, and each variant's own report) into `report`. Raises `ModelUnavailable` when the
        experiment needs a model and `llm` is None, and what the evaluations raise (`IndexUnavailable`, ...)."""
        from lexgraph.eval.experiment_run import run_experiment

        if params.model_needed() and llm is None:
            raise ModelUnavailable(f"experiment {experiment.name} needs a model with these parameters; "
                                 f"{NOT_CONFIGURED}")
        return run_experiment(self._handle, experiment, params, dataset=str(dataset), questions=questions,
                              folder=report, limit=limit, llm=llm,
                              embedder=embedder or self._session.default_embedder(), progress=progress)

    # -- the gold files and reports the evaluations read and write ----------------------------------------------
    @staticmethod
    def load_citation_gold(path: str | Path) -> list[dict[str, Any]]:
        """A citation gold file's lines (`eval.citations.load_gold`); raises `InputError` naming FILE:LINE."""
        from lexgraph.eval.citations import load_gold

        return load_gold(path)

    @staticmethod
    def score_citations(lines: Sequence[Any], extractor: str, **settings: Any) -> CitationScores:
        """Precision, recall and F1 of `extractor` on a citation gold's lines (`eval.citations.score_extractor`)."""
        from lexgraph.eval.citations import score_extractor

        return score_extractor(lines, extractor, **settings)

    @staticmethod
    def score_relative_references(lines: Sequence[Any], extractor: str) -> Evaluation:
        """How many of the lawqa_jp gold's bracketed relative references `extractor` resolves
        (`eval.lawqa_gold.score_extractor`)."""
        from lexgraph.eval.lawqa_gold import score_extractor

        return score_extractor(lines, extractor)

    @staticmethod
    def write_mcqa_report(directory: str | Path, config: MCQAConfig, runs: Sequence[MethodRun]) -> list[Path]:
        """The MCQA evaluation's report files (`eval.mcqa.write_report`)."""
        from lexgraph.eval.mcqa import write_report

        return write_report(directory, config, runs)
