"""BM25 over anchor documents, as both readers of the anchors score them: the anchor field (an article's anchors
joined, `retrieve.anchor_field`) and the citing sentences (each judgment sentence on its own,
`retrieve.citing_sentences`). One formula, one set of constants and one way of taking the best articles, so that
the two lists the learned fusion reads side by side differ only in what a document is."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

#: BM25's term-frequency saturation and length normalisation (the usual values; the tantivy index uses the same).
K1, B = 1.2, 0.75


@dataclass(frozen=True)
class AnchorHit:
    """An article and its score for the question; `rank` among the articles, best first."""

    law_id: str
    article: str
    score: float
    rank: int


def length_norms(lengths: np.ndarray) -> np.ndarray:
    """Each document's ``K1 * (1 - B + B * length / mean length)``, the denominator's length part."""
    mean = float(lengths.mean()) if len(lengths) and lengths.mean() > 0 else 1.0
    return K1 * (1 - B + B * lengths / mean)


def add_term(out: np.ndarray, rows: np.ndarray, tf: np.ndarray, norms: np.ndarray) -> None:
    """Add one query term's BM25 to `out` (one score per document): `rows` the documents holding it, `tf` its
    (weighted) frequency in each, `norms` every document's `length_norms`. The idf counts the documents of `out`."""
    idf = math.log(1 + (len(out) - len(rows) + 0.5) / (len(rows) + 0.5))
    out[rows] += idf * tf * (K1 + 1) / (tf + norms[rows])


def best_rows(scores: np.ndarray, k: int) -> np.ndarray:
    """The rows of the `k` best scores above 0, best first, ties by row: exactly the first `k` of a full sort.
    Only the rows scoring at least the k-th best score are sorted (a partition finds that score), so that a common
    term's hundred thousand articles are not."""
    positive = np.flatnonzero(scores > 0)
    if len(positive) > k:
        kth = np.partition(scores[positive], len(positive) - k)[len(positive) - k]
        positive = positive[scores[positive] >= kth]
    return positive[np.lexsort((positive, -scores[positive]))][:k]
