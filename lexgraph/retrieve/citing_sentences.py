"""The judgments' citing sentences one by one: which articles other judgments cite with the sentence nearest the
question.

Why beside the anchor field, which holds the same sentences: the field joins an article's anchors into one
document, so an article cited by hundreds of sentences on every subject (日本国憲法 第三十一条, 刑事訴訟法 第四百十一条)
has a long document in which the one sentence that matches the question word for word is diluted, and an article
cited in a single telling sentence is outscored by the long documents of its neighbours. Scored sentence by
sentence, an article counts by its best sentence: the nearest-neighbour reading of the same anchors (which
articles did other judgments cite with these words). A judgment's reasoning repeats set phrases (「上告趣意は、…違反を
いう点を含め、実質は単なる法令違反…の主張であって、…上告理由に当たらない」), and the article a phrase goes with is
what the question's own words cannot say once its citation is cut out.

Only the judgments' anchors (thousands, built in memory with the field's own exclusions: an evaluation's scored
judgments, a training query's own fold); the statutes' 1.5 M anchors stay in the joined field alone. Measured in
docs/search.md ("Citing sentences").
"""

from __future__ import annotations

from array import array
from collections.abc import Collection, Iterable, Sequence

import numpy as np

from lexgraph.documents.judgment import judgment_key
from lexgraph.index.anchors import JUDGMENT_KIND, Anchor
from lexgraph.retrieve.anchor_bm25 import AnchorHit, add_term, best_rows, length_norms


class CitingSentences:
    """Per-sentence BM25 over the judgments' anchors: each distinct (article, sentence) one document."""

    def __init__(self, anchors: Iterable[Anchor], *, exclude: Collection[str] = ()) -> None:
        """`anchors` without those of the judgments in `exclude` (in every copy of their files) and without the
        statutes' (another kind)."""
        left_out = {judgment_key(source) for source in exclude}
        seen: set[tuple[str, str, tuple[str, ...]]] = set()
        articles: list[tuple[str, str]] = []
        article_id: dict[tuple[str, str], int] = {}
        owner: list[int] = []
        term_id: dict[str, int] = {}
        terms, sentences = array("i"), array("i")  # one (term, sentence) pair per token: 8 bytes, not a tuple
        for anchor in anchors:
            if anchor.kind != JUDGMENT_KIND or judgment_key(anchor.source) in left_out:
                continue
            key = (anchor.law_id, anchor.article, anchor.tokens)
            if key in seen:
                continue
            seen.add(key)
            article = (anchor.law_id, anchor.article)
            if article not in article_id:
                article_id[article] = len(articles)
                articles.append(article)
            sentence = len(owner)
            owner.append(article_id[article])
            terms.extend(term_id.setdefault(token, len(term_id)) for token in anchor.tokens)
            sentences.extend([sentence] * len(anchor.tokens))
        self.articles = articles
        self._article_law = np.asarray([law for law, _ in articles], dtype=object)
        self.size = len(owner)
        self._owner = np.asarray(owner, dtype=np.int64)
        self._terms = term_id
        term = np.frombuffer(terms, dtype=np.int32).astype(np.int64)
        row = np.frombuffer(sentences, dtype=np.int32).astype(np.int64)
        # Each (term, sentence) once, with its count: the postings of a term are one slice of `_rows`.
        n = max(self.size, 1)
        unique, tf = np.unique(term * n + row, return_counts=True)
        self._rows = unique % n
        self._tf = tf.astype(np.float64)
        self._indptr = np.zeros(len(term_id) + 1, dtype=np.int64)
        np.cumsum(np.bincount(unique // n, minlength=len(term_id)), out=self._indptr[1:])
        self._norm = length_norms(np.bincount(row, minlength=self.size).astype(np.float64))

    def scores(self, tokens: Sequence[str]) -> np.ndarray:
        """BM25 of every sentence for the question's tokens (each distinct term once)."""
        out = np.zeros(self.size)
        for token in dict.fromkeys(tokens):
            term = self._terms.get(token)
            if term is None:
                continue
            start, stop = int(self._indptr[term]), int(self._indptr[term + 1])
            add_term(out, self._rows[start:stop], self._tf[start:stop], self._norm)
        return out

    def nearest(self, tokens: Sequence[str], k: int, laws: Collection[str] = ()) -> list[AnchorHit]:
        """The `k` articles whose best sentence scores highest (score > 0), best first; within `laws` when given
        (the search's law filter, applied before the `k` are taken, as every ranked list applies it)."""
        scores = self.scores(tokens)
        best = np.zeros(len(self.articles))
        np.maximum.at(best, self._owner, scores)
        if laws:
            best[~np.isin(self._article_law, list(laws))] = 0.0
        return [AnchorHit(*self.articles[int(i)], float(best[i]), rank)
                for rank, i in enumerate(best_rows(best, k), start=1)]
