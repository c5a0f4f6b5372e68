"""Is one retrieval run better than another on the same questions, or is the gap noise?

Why: "hybrid beats every single mode" was read off means that differ by 0.002, one first place in 441 queries.
A mean cannot say whether such a gap would survive other questions from the same source; a paired test can.
Both runs score the same questions, so each question gives one difference (run A's Recall@k or reciprocal rank
minus run B's), and the tests below ask whether their mean differs from 0.

Two standard tools of IR evaluation (Smucker, Allan & Carterette, CIKM 2007), both on the paired differences:

- the **paired randomization test** (two-sided): under "A and B are the same system", each question's two scores
  could have come out either way round, so the sign of its difference is a coin toss. The p-value is the share of
  `resamples` random sign flips whose mean difference is at least as far from 0 as the observed one (the observed
  arrangement counted in, so p is never 0);
- the **bootstrap confidence interval** of the mean difference: questions drawn with replacement, the percentile
  interval of `resamples` means.

Clusters: queries that share a source are not independent. The judgment benchmark draws up to two sentences from
one judgment (same case, same statutes). Both tools therefore work on **clusters** (`clusters` maps a qid to its
cluster; lawqa_jp's questions are each their own): a sign is flipped, or a draw made, per cluster, with all of its
questions together. Treating correlated queries as independent would make the interval too narrow.

The verdict is "better" or "worse" when p < `alpha`, "no difference" otherwise. With the same seed and resamples
the figures are the same from run to run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from lexgraph.eval.metrics import QuestionResult, RetrievalReport

DEFAULT_RESAMPLES = 10_000
DEFAULT_ALPHA = 0.05
DEFAULT_SEED = 0


@dataclass(frozen=True)
class PairedDifference:
    """Run A minus run B on one metric: the means, the mean difference, its bootstrap interval and the
    randomization test's two-sided p-value, over ``n`` questions in ``clusters`` clusters."""

    metric: str
    mean_a: float
    mean_b: float
    difference: float
    low: float
    high: float
    p_value: float
    n: int
    clusters: int
    resamples: int
    alpha: float = DEFAULT_ALPHA

    @property
    def verdict(self) -> str:
        if self.p_value >= self.alpha:
            return "no difference"
        return "better" if self.difference > 0 else "worse"

    def to_json(self) -> dict[str, Any]:
        return {"metric": self.metric, "mean_a": round(self.mean_a, 4), "mean_b": round(self.mean_b, 4),
                "difference": round(self.difference, 4), "ci_low": round(self.low, 4),
                "ci_high": round(self.high, 4), "p_value": round(self.p_value, 4), "n": self.n,
                "clusters": self.clusters, "resamples": self.resamples, "verdict": self.verdict}


def paired_difference(metric: str, a: Sequence[float], b: Sequence[float], clusters: Sequence[str], *,
                      resamples: int = DEFAULT_RESAMPLES, confidence: float = 0.95, alpha: float = DEFAULT_ALPHA,
                      seed: int = DEFAULT_SEED) -> PairedDifference:
    """Compare per-question scores `a` and `b` (same questions, same order); `clusters[i]` names question i's
    cluster. Raises ValueError for unequal lengths, no questions, or fewer than 1 resample."""
    if not len(a) == len(b) == len(clusters):
        raise ValueError(f"{len(a)} scores against {len(b)}, with {len(clusters)} clusters: give one of each per "
                         "question")
    if not a:
        raise ValueError("no questions to compare")
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, got {resamples}")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie between 0 and 1, got {confidence}")
    diffs = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    names, index = np.unique(np.asarray(clusters, dtype=object).astype(str), return_inverse=True)
    sums = np.bincount(index, weights=diffs, minlength=len(names))  # each cluster's summed difference
    sizes = np.bincount(index, minlength=len(names)).astype(float)
    observed = float(diffs.mean())
    rng = np.random.default_rng(seed)
    signs = rng.choice((-1.0, 1.0), size=(resamples, len(names)))
    flipped = np.abs(signs @ sums) / len(diffs)
    # a tolerance, so that a resample equal to the observed mean in exact arithmetic counts as "at least as far"
    extreme = int(np.count_nonzero(flipped >= abs(observed) - 1e-12))
    p_value = (extreme + 1) / (resamples + 1)
    draws = rng.integers(0, len(names), size=(resamples, len(names)))
    means = sums[draws].sum(axis=1) / sizes[draws].sum(axis=1)
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(means, [tail, 100 - tail])
    return PairedDifference(metric, float(np.mean(a)), float(np.mean(b)), observed, float(low), float(high),
                            float(p_value), len(diffs), len(names), resamples, alpha)


def compare_reports(a: RetrievalReport, b: RetrievalReport, clusters: Mapping[str, str] | None = None, *,
                    resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED) -> list[PairedDifference]:
    """Report `a` against `b`, metric by metric (Recall@k for `a`'s cut-offs, then MRR). Both must score the same
    questions (by qid, in any order); `clusters` maps a qid to its cluster (a qid it does not name is its own)."""
    by_qid = {q.qid: q for q in b.questions}
    if set(by_qid) != {q.qid for q in a.questions}:
        only_a = sorted({q.qid for q in a.questions} - set(by_qid))
        only_b = sorted(set(by_qid) - {q.qid for q in a.questions})
        raise ValueError(f"the runs score different questions (only in A: {only_a[:3]}, only in B: {only_b[:3]}): "
                         "compare runs over the same questions")
    pairs = [(q, by_qid[q.qid]) for q in a.questions]
    cluster_names = [(clusters or {}).get(q.qid, q.qid) for q, _ in pairs]
    metrics: list[tuple[str, Callable[[QuestionResult], float]]] = [
        *[(f"R@{k}", lambda q, k=k: q.recall_at(k)) for k in a.ks], ("MRR", lambda q: q.reciprocal_rank)]
    return [paired_difference(name, [score(x) for x, _ in pairs], [score(y) for _, y in pairs], cluster_names,
                              resamples=resamples, seed=seed)
            for name, score in metrics]


@dataclass(frozen=True)
class RunComparison:
    """One mode against another at one level (article, paragraph, …): a `PairedDifference` per metric."""

    mode: str
    against: str
    level: str
    differences: tuple[PairedDifference, ...]

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "against": self.against, "level": self.level,
                "differences": [d.to_json() for d in self.differences]}


def compare_runs(levels_by_mode: Mapping[str, Mapping[str, RetrievalReport]], reference: str,
                 clusters: Mapping[str, str] | None = None, *, resamples: int = DEFAULT_RESAMPLES,
                 seed: int = DEFAULT_SEED) -> list[RunComparison]:
    """`reference`'s reports against every other mode's, level by level (levels both hold). Empty when
    `reference` is not among the modes or is the only one."""
    if reference not in levels_by_mode:
        return []
    ours = levels_by_mode[reference]
    out = []
    for mode, theirs in levels_by_mode.items():
        if mode == reference:
            continue
        for level, report in ours.items():
            if level in theirs and report.questions:
                out.append(RunComparison(reference, mode, level, tuple(
                    compare_reports(report, theirs[level], clusters, resamples=resamples, seed=seed))))
    return out
