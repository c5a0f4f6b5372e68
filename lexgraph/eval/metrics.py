"""Recall@k and MRR of ranked retrieval against gold sets, with a result per question.

Why per question: a mean hides which questions fail, and the reports of the retrieval issue compare settings
question by question. Why questions without gold are kept apart (`RetrievalReport.no_gold`): such a question has
no defined recall, and dropping it silently would make a run over 69 questions look like a run over 60; counting
it as 0 or 1 would bias the mean. They are listed, never scored.

Ids are opaque strings at any granularity (``"民法|709"`` for an article, ``"民法|709|1"`` for a paragraph).
``key`` maps both the gold and the predicted ids before scoring, e.g. ``key=truncate_id(2)`` scores paragraphs
as their articles. After mapping, a prediction counts at its first occurrence only (the clauses 709-1 and 709-2
are one hit for article 709, at the rank of the first), so a retriever cannot score twice for one gold item.

Definitions (macro averages over the questions that have gold):

- Recall@k = |gold ∩ first k distinct predictions| / |gold|;
- reciprocal rank = 1 / rank of the first gold item among the distinct predictions, 0 if none (no cut-off);
- MRR = mean reciprocal rank.
"""

from __future__ import annotations

import numbers
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lexgraph.errors import ConfigurationError
from lexgraph.retrieve.fusion import first_occurrences

DEFAULT_KS = (5, 10, 20)  # the integrated-citation-graph paper's Recall@5/10/20


def truncate_id(levels: int, sep: str = "|") -> Callable[[str], str]:
    """A ``key`` that keeps the first ``levels`` parts of an id: ``truncate_id(2)("民法|709|1") == "民法|709"``."""
    if isinstance(levels, bool) or not isinstance(levels, numbers.Integral) or levels < 1:
        raise ConfigurationError(f"levels must be an integer >= 1, got {levels!r}")

    def key(item: str) -> str:
        return sep.join(item.split(sep)[:levels])

    return key


@dataclass(frozen=True)
class QuestionResult:
    """One question's score: its gold ids, where each was found, and the reciprocal rank.

    ``found`` holds ``(gold id, rank)`` for each gold id among the distinct predictions, by rank; ``missed`` the gold
    ids never predicted; ``n_predicted`` the number of distinct predictions after ``key``.
    """

    qid: str
    gold: tuple[str, ...]
    found: tuple[tuple[str, int], ...]
    missed: tuple[str, ...]
    n_predicted: int

    @property
    def first_hit(self) -> int | None:
        """Rank of the first gold id among the predictions (``None``: none found)."""
        return self.found[0][1] if self.found else None

    @property
    def reciprocal_rank(self) -> float:
        first = self.first_hit
        return 0.0 if first is None else 1.0 / first

    def recall_at(self, k: int) -> float:
        _check_k(k)
        return sum(1 for _, rank in self.found if rank <= k) / len(self.gold)

    def to_json(self, ks: Sequence[int] = DEFAULT_KS) -> dict[str, Any]:
        return {
            "qid": self.qid,
            "gold": list(self.gold),
            "found": [{"id": item, "rank": rank} for item, rank in self.found],
            "missed": list(self.missed),
            "n_predicted": self.n_predicted,
            **{f"recall@{k}": self.recall_at(k) for k in ks},
            "reciprocal_rank": self.reciprocal_rank,
        }


@dataclass(frozen=True)
class RetrievalReport:
    """The scored questions, the questions without gold (``no_gold``, their qids) and the means over the former.

    The means are ``None`` when no question has gold, so that "nothing to score" cannot pass for a score of 0.
    """

    ks: tuple[int, ...]
    questions: tuple[QuestionResult, ...]
    no_gold: tuple[str, ...]

    @property
    def n_scored(self) -> int:
        return len(self.questions)

    def recall_at(self, k: int) -> float | None:
        _check_k(k)
        if not self.questions:
            return None
        return sum(q.recall_at(k) for q in self.questions) / len(self.questions)

    @property
    def mrr(self) -> float | None:
        if not self.questions:
            return None
        return sum(q.reciprocal_rank for q in self.questions) / len(self.questions)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RetrievalReport:
        """The report `to_json` wrote (a ``--report`` folder's metrics.json), to compare runs after the fact."""
        ks = tuple(sorted(int(key.split("@", 1)[1]) for key in data if key.startswith("recall@")))
        questions = tuple(
            QuestionResult(q["qid"], tuple(q["gold"]), tuple((f["id"], int(f["rank"])) for f in q["found"]),
                           tuple(q["missed"]), int(q["n_predicted"]))
            for q in data["questions"])
        return cls(ks, questions, tuple(data.get("no_gold", ())))

    def to_json(self) -> dict[str, Any]:
        return {
            "n_scored": self.n_scored,
            "n_no_gold": len(self.no_gold),
            **{f"recall@{k}": self.recall_at(k) for k in self.ks},
            "mrr": self.mrr,
            "no_gold": list(self.no_gold),
            "questions": [q.to_json(self.ks) for q in self.questions],
        }


def score_question(
    gold: Iterable[str], predicted: Sequence[str], *, qid: str = "", key: Callable[[str], str] | None = None
) -> QuestionResult | None:
    """Score one question; ``None`` if it has no gold (after ``key``), which the caller must report apart."""
    gold_ids = sorted({_apply(key, item) for item in _strings(gold, "gold")})
    if not gold_ids:
        return None
    distinct = first_occurrences(_apply(key, item) for item in _strings(predicted, "predicted"))
    wanted = set(gold_ids)
    found = tuple((item, rank) for rank, item in enumerate(distinct, start=1) if item in wanted)
    hit = {item for item, _ in found}
    return QuestionResult(qid, tuple(gold_ids), found, tuple(g for g in gold_ids if g not in hit), len(distinct))


def evaluate_retrieval(
    gold: Sequence[Iterable[str]],
    predicted: Sequence[Sequence[str]],
    *,
    ks: Sequence[int] = DEFAULT_KS,
    qids: Sequence[str] | None = None,
    key: Callable[[str], str] | None = None,
) -> RetrievalReport:
    """Recall@k and MRR of ``predicted[i]`` (ranked ids, best first) against ``gold[i]`` (a set of ids).

    ``qids`` name the questions in the report (default ``"0"``, ``"1"``, …); ``ks`` are the cut-offs reported in
    `RetrievalReport.to_json` (any k can be asked of `RetrievalReport.recall_at`).
    """
    if len(gold) != len(predicted):
        raise ValueError(f"{len(gold)} gold sets but {len(predicted)} predictions: give one prediction per question")
    names = [str(i) for i in range(len(gold))] if qids is None else list(qids)
    if len(names) != len(gold):
        raise ValueError(f"{len(names)} qids for {len(gold)} questions: give one qid per question")
    duplicated = sorted(name for name, count in Counter(names).items() if count > 1)
    if duplicated:
        raise ValueError(f"qids must be unique, repeated: {', '.join(duplicated[:5])}")
    cutoffs = tuple(sorted(set(ks)))
    for k in cutoffs:
        _check_k(k)

    scored: list[QuestionResult] = []
    no_gold: list[str] = []
    for name, gold_set, ranked in zip(names, gold, predicted, strict=True):
        result = score_question(gold_set, ranked, qid=name, key=key)
        if result is None:
            no_gold.append(name)
        else:
            scored.append(result)
    return RetrievalReport(cutoffs, tuple(scored), tuple(no_gold))


def _check_k(k: int) -> None:
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
        raise ConfigurationError(f"k must be an integer >= 1, got {k!r}")


def _strings(items: Iterable[str], what: str) -> Iterable[str]:
    if isinstance(items, str):
        raise ValueError(f"{what} must be a collection of ids, not the string {items!r}")
    for item in items:
        if not isinstance(item, str):
            raise ValueError(f"{what} holds {item!r} ({type(item).__name__}): ids must be strings")
        yield item


def _apply(key: Callable[[str], str] | None, item: str) -> str:
    return item if key is None else key(item)
