"""BM25 over the anchor field: each article's document is the deduplicated text of the sentences citing it
(`lexgraph.index.anchors`), each anchor's terms weighted by its source's kind.

Why a field of its own and not more text in the clause's BM25 document: the two speak differently (the statute's
「他人の権利又は法律上保護される利益を侵害した者」 against a judgment's 「不法行為に基づく損害賠償請求」), and a learned
fusion (`retrieve.learned`) weighs them apart. Why in numpy and memory: the field has one document per cited
article (a few thousand), so scoring a question is a handful of array operations, and an evaluation can build it
again without the judgments it scores (`exclude`) in a second.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from lexgraph.index.anchors import Anchor

#: Each anchor's terms count this much by its source's kind (a judgment's sentence is the kind at hand).
KIND_WEIGHTS: Mapping[str, float] = {"judgment": 1.0}
K1, B = 1.2, 0.75


@dataclass(frozen=True)
class AnchorHit:
    law_id: str
    article: str
    score: float
    rank: int


class AnchorField:
    """The articles' anchor documents and their BM25 postings. `anchors_of` counts an article's distinct anchors
    (its in-degree from the sources kept)."""

    def __init__(self, articles: Sequence[tuple[str, str]], postings: Mapping[str, tuple[np.ndarray, np.ndarray]],
                 lengths: np.ndarray, counts: np.ndarray, sources: frozenset[str]) -> None:
        self.articles = list(articles)
        self.position = {a: i for i, a in enumerate(self.articles)}
        self.postings = postings
        self.lengths = lengths
        self.counts = counts
        self.sources = sources  # the sources whose anchors are in the field (for the leakage test)
        self.mean_length = float(lengths.mean()) if len(lengths) else 1.0
        self._law_anchors: dict[str, float] | None = None

    @classmethod
    def build(cls, anchors: Iterable[Anchor], *, exclude: Collection[str] = (),
              weights: Mapping[str, float] = KIND_WEIGHTS) -> AnchorField:
        """The field from `anchors`, leaving out every anchor whose source is in `exclude` (the judgments an
        evaluation scores). The same words for the same article count once (a judgment quoting another, or one
        sentence citing an article twice)."""
        left_out = set(exclude)
        seen: set[tuple[str, str, tuple[str, ...]]] = set()
        terms: dict[tuple[str, str], dict[str, float]] = {}
        counts: Counter[tuple[str, str]] = Counter()
        sources: set[str] = set()
        for anchor in anchors:
            if anchor.source in left_out:
                continue
            key = (anchor.law_id, anchor.article, anchor.tokens)
            if key in seen:
                continue
            seen.add(key)
            weight = weights.get(anchor.kind, 0.0)
            if weight <= 0:
                continue
            article = (anchor.law_id, anchor.article)
            bag = terms.setdefault(article, {})
            for token in anchor.tokens:
                bag[token] = bag.get(token, 0.0) + weight
            counts[article] += 1
            sources.add(anchor.source)
        articles = sorted(terms)
        by_term: dict[str, tuple[list[int], list[float]]] = {}
        lengths = np.zeros(len(articles))
        for i, article in enumerate(articles):
            for token, tf in terms[article].items():
                rows, tfs = by_term.setdefault(token, ([], []))
                rows.append(i)
                tfs.append(tf)
                lengths[i] += tf
        postings = {t: (np.asarray(rows, dtype=np.int64), np.asarray(tfs)) for t, (rows, tfs) in by_term.items()}
        return cls(articles, postings, lengths, np.asarray([counts[a] for a in articles], dtype=float),
                   frozenset(sources))

    def scores(self, tokens: Sequence[str]) -> np.ndarray:
        """BM25 of every article's anchor document for the query's tokens (each distinct term once)."""
        out = np.zeros(len(self.articles))
        n = len(self.articles)
        norm = K1 * (1 - B + B * self.lengths / self.mean_length)
        for token in dict.fromkeys(tokens):
            posting = self.postings.get(token)
            if posting is None:
                continue
            rows, tfs = posting
            idf = math.log(1 + (n - len(rows) + 0.5) / (len(rows) + 0.5))
            out[rows] += idf * tfs * (K1 + 1) / (tfs + norm[rows])
        return out

    def search(self, tokens: Sequence[str], k: int, laws: Collection[str] = ()) -> list[AnchorHit]:
        """The `k` best articles by anchor BM25 (score > 0), within `laws` when given."""
        scores = self.scores(tokens)
        if laws:
            allowed = np.asarray([law in laws for law, _ in self.articles], dtype=bool)
            scores = np.where(allowed, scores, 0.0)
        order = np.argsort(-scores, kind="stable")[:k]
        return [AnchorHit(self.articles[i][0], self.articles[i][1], float(scores[i]), rank)
                for rank, i in enumerate((i for i in order if scores[i] > 0), start=1)]

    def law_anchors(self, law_id: str) -> float:
        """The anchors kept for every article of a law (summed once per field)."""
        if self._law_anchors is None:
            totals: dict[str, float] = {}
            for (law, _), count in zip(self.articles, self.counts, strict=True):
                totals[law] = totals.get(law, 0.0) + float(count)
            self._law_anchors = totals
        return self._law_anchors.get(law_id, 0.0)

    def in_degree(self, law_id: str, article: str) -> float:
        i = self.position.get((law_id, article))
        return 0.0 if i is None else float(self.counts[i])
