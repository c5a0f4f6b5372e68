"""Reciprocal Rank Fusion (Cormack, Clarke and Büttcher, SIGIR 2009), as the integrated-citation-graph paper uses it.

Why RRF: BM25 scores, cosine similarities and HyDE similarities live on unrelated scales, so they cannot be added;
ranks can. An item's fused score is ``sum_i w_i / (k + rank_i)`` over the lists that hold it (rank 1-based), so an
item found near the top of several lists beats one found at the top of a single list, and ``k`` (60 by default,
the paper's value) damps the weight of the very first ranks.

Why the hybrid search fuses by normalised scores by default (`DEFAULT_FUSION`): RRF gives the first item of every
list the same credit, however weak the list. On the judgment benchmark dense search is far weaker than BM25, and
its first hits, fused by rank, pushed BM25's right answers down (hybrid trailed BM25 at R@5 and MRR). The weighted
mean of min-max normalised scores (`mean_normalised`) keeps BM25's clear wins and still lets dense lift what BM25
ranks low; measured on both benchmarks in docs/search.md. RRF stays for the evidence selection and HyDE, whose
lists (chunk ranks, hypothetical answers) have no comparable scores.

Conventions, chosen so that the result is a pure function of its input:

- a duplicate inside one list counts once, at its first occurrence, and takes no rank: ``[a, a, b]`` ranks ``b``
  second. A retriever that returns the same chunk twice should not push the rest of its list down;
- the score is summed with `math.fsum`, which rounds the exact sum once, so items whose contributions are the same
  multiset get bit-identical scores whatever the order of the lists;
- ties are broken by the best (smallest) single rank, then by id, so equal scores never depend on hash order;
- every item keeps its rank in each list (`Scored.ranks`, ``None`` where absent), so a caller can say why it is
  there.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lexgraph.errors import ConfigurationError

DEFAULT_K = 60
#: How lists are fused: Reciprocal Rank Fusion, or the weighted mean of min-max normalised scores (`mean_normalised`).
FUSIONS = ("rrf", "mean")
#: How the hybrid search fuses BM25, dense and the clauses the question cites (why: this module's docstring),
#: chosen on the dev splits of both retrieval benchmarks together (docs/search.md).
DEFAULT_FUSION = "mean"
#: The lists' weights in the ``mean`` fusion when none are given: BM25 and dense alike, and the clauses the question
#: itself cites (民法709条) as much as the two searches together, so that a clause the question names comes first
#: unless the searches agree on another. RRF keeps 1.0 for every list unless told otherwise.
DEFAULT_MEAN_WEIGHTS: dict[str, float] = {"bm25": 1.0, "dense": 1.0, "cited": 2.0}
#: The weight of the law-level evidence (`law_prior`) in the ``mean`` fusion of clauses, beside the lists' weights:
#: every candidate clause gains this times its law's affinity with the question (1 for the best law). Named "law"
#: in a search's weights (``{"law": 0}`` turns it off). 0.35 was chosen on the dev splits of both benchmarks over
#: the 19-law store; with the citation prior (`law_prior.GAMMA`), 0.7 on the judgment benchmark's dev split over
#: the whole archive and the 19-law store together (docs/search.md).
DEFAULT_LAW_PRIOR = 0.7
LAW_PRIOR = "law"
#: What a search's weights may name: the fused lists, and the law-level evidence.
WEIGHT_NAMES = (*DEFAULT_MEAN_WEIGHTS, LAW_PRIOR)


def law_prior_weight(weights: Mapping[str, float] | None) -> float:
    """The law-level evidence's weight in a search's weights (the default when they do not name it)."""
    return (weights or {}).get(LAW_PRIOR, DEFAULT_LAW_PRIOR)


@dataclass(frozen=True)
class Scored:
    """One fused item: its id, its RRF score and its 1-based rank in each input list (``None``: not in that list)."""

    id: str
    score: float
    ranks: tuple[int | None, ...]

    @property
    def best_rank(self) -> int | None:
        """The best (smallest) rank over the lists, the first tie-breaker; ``None`` only if it is in no list."""
        present = [rank for rank in self.ranks if rank is not None]
        return min(present) if present else None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "score": self.score, "ranks": list(self.ranks)}


def first_occurrences(items: Iterable[str]) -> list[str]:
    """The items in order with later duplicates removed, so that ``index + 1`` is the rank RRF uses."""
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return out


def check_k(k: float) -> None:
    """RRF's ``k`` must be a positive number: ``k <= 0`` divides by zero or makes early ranks negative."""
    if isinstance(k, bool) or not isinstance(k, numbers.Real) or not k > 0 or math.isinf(k):
        raise ConfigurationError(f"k must be a positive finite number (60 is usual), got {k!r}")


def check_limit(limit: int | None, name: str = "limit") -> None:
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, numbers.Integral) or limit < 0):
        raise ValueError(f"{name} must be None or an integer >= 0, got {limit!r}")


def rrf(
    ranked_lists: Sequence[Sequence[str]],
    *,
    k: float = DEFAULT_K,
    weights: Sequence[float] | None = None,
    limit: int | None = None,
) -> list[Scored]:
    """Fuse ranked lists of ids (best first) into one ranking by Reciprocal Rank Fusion.

    ``weights`` (one non-negative number per list, default all 1.0) scale each list's contribution; a weight of 0
    keeps the list's items in the result (and their ranks in `Scored.ranks`) without letting it move them, which is
    how an ablation switches a retriever off without changing the candidate set. ``limit`` keeps the best
    ``limit`` items (``None``: all of them).

    Returns every id of every list exactly once, ordered by score (highest first), then best single rank, then id.
    """
    check_k(k)
    check_limit(limit)
    if isinstance(ranked_lists, str):
        raise ValueError("ranked_lists must be a sequence of lists of ids, not a string")
    lists = [first_occurrences(_ids(ranked, i)) for i, ranked in enumerate(ranked_lists)]
    factors = _weights(weights, len(lists))

    ranks: dict[str, list[int | None]] = {}
    for i, ranked in enumerate(lists):
        for position, item in enumerate(ranked, start=1):
            ranks.setdefault(item, [None] * len(lists))[i] = position

    fused = [
        Scored(item, _score(item_ranks, factors, k), tuple(item_ranks))
        for item, item_ranks in ranks.items()
    ]
    fused.sort(key=_order)
    return fused if limit is None else fused[:limit]


def _weights(weights: Sequence[float] | None, n_lists: int) -> list[float]:
    """One finite, non-negative factor per list (all 1.0 when ``weights`` is None)."""
    if weights is None:
        return [1.0] * n_lists
    factors = [float(w) for w in weights]
    if len(factors) != n_lists:
        raise ValueError(f"weights has {len(factors)} values for {n_lists} ranked lists: give one per list")
    for i, w in enumerate(factors):
        if not (math.isfinite(w) and w >= 0):
            raise ValueError(f"weights[{i}] is {weights[i]!r}: weights must be finite and >= 0")
    return factors


def _ids(ranked: Sequence[str], index: int) -> Sequence[str]:
    if isinstance(ranked, str):
        raise ValueError(f"ranked_lists[{index}] is a string: give a list of ids (wrap a single id in a list)")
    for item in ranked:
        if not isinstance(item, str):
            raise ValueError(f"ranked_lists[{index}] holds {item!r} ({type(item).__name__}): ids must be strings")
    return ranked


def _score(ranks: Sequence[int | None], weights: Sequence[float], k: float) -> float:
    return math.fsum(w / (k + rank) for rank, w in zip(ranks, weights, strict=True) if rank is not None)


def _order(item: Scored) -> tuple[float, float, str]:
    best = item.best_rank
    return (-item.score, math.inf if best is None else best, item.id)


def mean_normalised(
    scored_lists: Sequence[Sequence[tuple[str, float]]],
    *,
    weights: Sequence[float] | None = None,
    limit: int | None = None,
    prior: Mapping[str, float] | None = None,
    prior_weight: float = 0.0,
) -> list[Scored]:
    """The integrated-citation-graph paper's appendix Hybrid: each list's scores min-max normalised to [0, 1], and an
    item's score the mean over all lists (0 where a list does not hold it), weighted by ``weights`` (one
    non-negative number per list, default all 1.0: the plain mean).

    Why beside RRF: the appendix reports this as the alternative to RRF; unlike RRF it lets a clear score gap
    count (a BM25 hit far above the rest), at the price of depending on each list's score scale. A list whose
    scores are all equal normalises to 1 for every item. Ranks, ties, duplicates and weights follow `rrf`'s
    conventions (a weight of 0 keeps a list's items without letting it move them).

    ``prior`` gives some items a value in [0, 1] that counts like one more list's normalised score, with
    ``prior_weight``, but is taken as it is (not min-max normalised) and adds no item: it re-weighs what the lists
    found (the hybrid search's law-level evidence, `law_prior`).
    """
    check_limit(limit)
    factors = _weights(weights, len(scored_lists))
    if not (math.isfinite(prior_weight) and prior_weight >= 0):
        raise ValueError(f"prior_weight is {prior_weight!r}: it must be finite and >= 0")
    prior = prior if prior is not None and prior_weight > 0 else {}
    lists = []
    for i, scored in enumerate(scored_lists):
        seen: dict[str, float] = {}
        for item, score in scored:
            if not isinstance(item, str):
                raise ValueError(f"scored_lists[{i}] holds {item!r}: ids must be strings")
            seen.setdefault(item, float(score))
        lists.append(list(seen.items()))
    ranks: dict[str, list[int | None]] = {}
    sums: dict[str, list[float]] = {}
    for i, scored in enumerate(lists):
        if not scored:
            continue
        values = [score for _, score in scored]
        low, high = min(values), max(values)
        span = high - low
        for position, (item, score) in enumerate(scored, start=1):
            item_ranks = ranks.get(item)
            if item_ranks is None:
                item_ranks = ranks[item] = [None] * len(lists)
                sums[item] = []
            item_ranks[i] = position
            sums[item].append(factors[i] * (1.0 if high == low else (score - low) / span))
    for item, values in sums.items():
        if item in prior:
            values.append(prior_weight * prior[item])
    total = math.fsum(factors) + (prior_weight if prior else 0.0) or 1.0
    return _best_scored({item: math.fsum(values) / total for item, values in sums.items()}, ranks, limit)


def _best_scored(scores: Mapping[str, float], ranks: Mapping[str, Sequence[int | None]],
                 limit: int | None) -> list[Scored]:
    """The items in `_order` (every one holds a rank), as `Scored` only for the `limit` kept: a hybrid search
    fuses two hundred candidates a list and keeps twenty, and a `Scored` built and sorted by its properties costs
    ten times a key computed once."""
    best = {item: min(rank for rank in item_ranks if rank is not None) for item, item_ranks in ranks.items()}
    order = sorted(scores, key=lambda item: (-scores[item], best[item], item))
    return [Scored(item, scores[item], tuple(ranks[item])) for item in (order if limit is None else order[:limit])]
