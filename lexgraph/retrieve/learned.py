"""A fusion learned, not hand-set: the hybrid's candidates, and the paragraphs of the articles the
anchor field ranks first and of those whose citing sentence of a judgment is nearest the question
(`retrieve.citing_sentences`), scored by a linear model over features of the question and the clause.

Why a linear model: it does as well here as the rankers tried beside it (docs/search.md), its weights are a
small JSON file in the package (`lexgraph/data/learned_fusion.json`), it is evaluated by a dot product (no
runtime dependency), and its weights can be read. `scripts/train_learned_fusion.py` trains it on queries built
from material kept apart from every benchmark split reported (judgments outside the judgment benchmark; each
training query's own judgment left out of the anchor field it is scored with).

The features of a clause (one row of `Candidates.features`), all computed here so that training and search
compute them alike: see `FEATURES`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from lexgraph.errors import ConfigurationError
from lexgraph.index.query import IndexHit, SearchFilter, SearchIndex, UnitBatch
from lexgraph.index.tokenize import question_terms
from lexgraph.index.units import IndexUnit, UnitKind, article_path
from lexgraph.retrieve.anchor_bm25 import AnchorHit
from lexgraph.retrieve.anchor_field import AnchorField, anchor_field
from lexgraph.retrieve.builders import hybrid_of
from lexgraph.retrieve.fusion import law_prior_weight
from lexgraph.retrieve.law_prior import law_affinity
from lexgraph.retrieve.modes import RetrieverSetup
from lexgraph.retrieve.retrievers import (
    FUSION_DEPTH,
    FusionRetriever,
    QueryVectors,
    RankedBy,
    Retrieved,
    Retriever,
    retrieve_lists,
    retrieve_lists_of_kinds,
)
from lexgraph.statutes.timeline import provision_law_id

MODEL_FILE = Path(__file__).parents[1] / "data" / "learned_fusion.json"
#: Articles of the anchor field's ranking whose paragraphs join the candidates.
ANCHOR_DEPTH = 30
#: Articles ranked by their best citing sentence (`retrieve.citing_sentences`) whose paragraphs join the candidates,
#: and how deep that ranking is read for the features.
SENTENCE_DEPTH, SENTENCE_FEATURE_DEPTH = 10, 100
#: A law is *anchored* when the kept anchors number at least this many per article of it. Where the hybrid's first
#: clause belongs to a law that is not, the anchor features hold nothing about the question's law, the model
#: (trained where every law is anchored) has nothing to add, and the hybrid's own order is returned. With the
#: statutes' anchors nearly every law passes (the 19-law store's hold 0.25-21.6 per article, docs/search.md); the
#: gate stays for the laws nothing cites.
ANCHORED = 0.1

FEATURES: tuple[str, ...] = (
    "hybrid",  # the hybrid's own fused score (weighted mean of normalised lists, law-level evidence, citation prior)
    "bm25",  # BM25 of the clause text, min-max normalised in the question's list (0: not in it)
    "bm25_rr",  # 1 / its rank in the BM25 list
    "dense",  # cosine of the question's and the clause's e5 vectors
    "dense_rr",  # 1 / its rank in the dense list
    "cited",  # the question itself cites the clause
    "law",  # the law's affinity with the question (law-level evidence)
    "anchor",  # BM25 of its article's anchor field, divided by the question's best
    "anchor_rr",  # 1 / its article's rank in the anchor field
    "article_bm25",  # the best BM25 (normalised) of any paragraph of its article
    "article_hits",  # how many paragraphs of its article the BM25 and dense lists hold (log)
    "in_degree",  # log(1 + the anchors of its article): how often judgments cite it
    "first",  # the article's first paragraph (or an article without paragraphs)
    "law_anchor",  # the best `anchor` of any candidate article of its law: how strongly the anchors point at the law
    "sentence",  # BM25 of its article's best citing sentence of a judgment, divided by the question's best
    "sentence_rr",  # 1 / its article's rank by that best sentence
)


@dataclass(frozen=True)
class LearnedModel:
    """A linear model: score = bias + Σ w·(x − mean) / scale over `FEATURES` (trained listwise: only the order of
    one question's scores means anything, `on_hybrid_scale`)."""

    features: tuple[str, ...]
    weights: tuple[float, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    bias: float
    trained_on: Mapping[str, object]

    def score(self, x: np.ndarray) -> np.ndarray:
        z = (x - np.asarray(self.mean)) / np.asarray(self.scale)
        return z @ np.asarray(self.weights) + self.bias

    def to_json(self) -> dict[str, object]:
        return {"format": "lexgraph-learned-fusion/1", "kind": "linear", "features": list(self.features),
                "weights": [round(w, 6) for w in self.weights], "mean": [round(m, 6) for m in self.mean],
                "scale": [round(s, 6) for s in self.scale], "bias": round(self.bias, 6),
                "trained_on": dict(self.trained_on)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], where: str) -> LearnedModel:
        try:
            features = tuple(str(f) for f in data["features"])
            model = cls(features, tuple(float(w) for w in data["weights"]), tuple(float(m) for m in data["mean"]),
                        tuple(float(s) for s in data["scale"]), float(data["bias"]), dict(data.get("trained_on") or {}))
        except (KeyError, TypeError, ValueError) as error:
            raise ConfigurationError(f"{where}: not a learned fusion model ({error}); retrain it with "
                                     f"`python scripts/train_learned_fusion.py`") from error
        if features != FEATURES:
            raise ConfigurationError(f"{where}: trained on features {', '.join(features)}, the search computes "
                                     f"{', '.join(FEATURES)}; retrain it with `python scripts/train_learned_fusion.py`")
        return model


def load_model(path: Path | None = None) -> LearnedModel:
    """The model shipped in the package (`MODEL_FILE`), or the one at `path`."""
    path = path or MODEL_FILE
    return LearnedModel.from_json(json.loads(path.read_text(encoding="utf-8")), str(path))


@dataclass(frozen=True)
class Candidates:
    """The clauses considered for one question, their hits, articles and feature rows."""

    hits: tuple[IndexHit, ...]
    articles: tuple[tuple[str, str], ...]  # (law id, article path) of each hit
    features: np.ndarray  # len(hits) × len(FEATURES)
    sources: tuple[Mapping[str, int], ...]


class LearnedRetriever:
    """Clauses ranked by the learned model over the hybrid's lists and the anchor field, where the question's law
    is anchored (`ANCHORED`), else as the hybrid ranks them; chunks as the hybrid ranks them (a chunk has no
    article, no anchors)."""

    name = "learned"

    def __init__(self, index: SearchIndex, hybrid: FusionRetriever, query_vector: QueryVectors,
                 field: AnchorField | None, model: LearnedModel) -> None:
        self.index = index
        self.hybrid = hybrid
        self.query_vector = query_vector
        self.field = field
        self.model = model
        #: Without an anchor field every clause list is the hybrid's (`anchored` is never true): said, not hidden.
        self.ranked_by = None if field is not None else RankedBy("hybrid", (
            f"the learned fusion reads the anchor field: {index.lacks('anchors') or 'the index has none'}"))
        self._under: dict[tuple[str, str, SearchFilter], list[IndexUnit]] = {}

    def retrieve(self, question: str, k: int, where: SearchFilter) -> list[Retrieved]:
        if where.kind != "provision":
            return self.hybrid.retrieve(question, k, where)
        lists = retrieve_lists(self.hybrid.retrievers, question, self._depth(k), where)
        return self._clauses(question, lists, k, where)

    def retrieve_kinds(self, question: str, ks: Mapping[UnitKind, int],
                       where: SearchFilter) -> dict[UnitKind, list[Retrieved]]:
        """Clauses and chunks from one read of the hybrid's lists (`retrieve_lists_of_kinds`), each as `retrieve`
        ranks its kind."""
        depths = {kind: self._depth(k) if kind == "provision" else max(k, self.hybrid.depth) for kind, k in ks.items()}
        lists = retrieve_lists_of_kinds(self.hybrid.retrievers, question, depths, where)
        return {kind: self._clauses(question, lists[kind], k, replace(where, kind=kind)) if kind == "provision"
                else self.hybrid.fused(question, lists[kind], k, replace(where, kind=kind)) for kind, k in ks.items()}

    def _depth(self, k: int) -> int:
        return max(k, FUSION_DEPTH, self.hybrid.depth)

    def _clauses(self, question: str, lists: Mapping[str, Sequence[Retrieved]], k: int,
                 where: SearchFilter) -> list[Retrieved]:
        """The best k clauses: the learned model's order over the candidates where the hybrid's first clause's
        law is anchored, else the hybrid's."""
        # Every list item fused once: the first k are the hybrid's ranking (the gate's fallback, and the scale of the
        # learned clauses' scores), and every item's score is the model's `hybrid` feature.
        fused = self.hybrid.fused(question, lists, len({item.uid for ranked in lists.values() for item in ranked}),
                                  where)
        hybrid = fused[:k]
        if not hybrid or not self.anchored(provision_law_id(hybrid[0].uid)):
            return hybrid
        candidates = self.candidates(question, where, lists, fused)
        if not candidates.hits:
            return []
        scores = self.model.score(candidates.features)
        # The clauses the question itself cites come first, in the order it cites them: every training query has
        # its clause numbers taken out (a query naming its answer teaches nothing), so the model cannot know what
        # an explicit citation means, and a question naming 民法第二百十三条の二 asks about that clause.
        cited = sorted((i for i, found in enumerate(candidates.sources) if "cited" in found),
                       key=lambda i: candidates.sources[i]["cited"])
        first = set(cited)
        order = [*cited, *(int(i) for i in np.argsort(-scores, kind="stable") if int(i) not in first)][:k]
        order = paragraphs_by_hybrid(order, candidates.articles, candidates.features[:, FEATURES.index("hybrid")],
                                     len(cited))
        scale = on_hybrid_scale(hybrid, len(order))
        return [Retrieved(candidates.hits[i], scale[rank - 1], rank, candidates.sources[i])
                for rank, i in enumerate(order, start=1)]

    def anchored(self, law_id: str) -> bool:
        """Whether the anchor field holds at least `ANCHORED` anchors per article of the law (an index that cannot
        count a law's articles from its columns, Neo4j's, has no anchor field either)."""
        columns = self.index.columns()
        if self.field is None or columns is None:
            return False
        count = len(columns.articles_of(law_id))
        return count > 0 and self.field.law_anchors(law_id) >= ANCHORED * count

    def _article_hits(self, law_id: str, article: str, where: SearchFilter, batch: UnitBatch) -> list[IndexHit]:
        """An article's clauses under the filter as hits whose units are read only if shown: from the index's
        columns when it has them (the embedded index), else read and remembered (the same articles come back
        question after question)."""
        columns = self.index.columns()
        if columns is not None:
            return batch.hits((uid, 0.0) for uid in columns.uids_under(law_id, article, where))
        key = (law_id, article, where)
        units = self._under.get(key)
        if units is None:
            units = self._under[key] = self.index.units_under(law_id, article, where)
        return [IndexHit.of(unit, 0.0) for unit in units]

    def _ranked_articles(self, found: Sequence[AnchorHit], joining: int, where: SearchFilter, batch: UnitBatch,
                         hits: dict[str, IndexHit]) -> tuple[dict[tuple[str, str], int], dict[tuple[str, str], float]]:
        """One anchor list's features: each article's rank and its score over the list's best; the clauses of its
        first `joining` articles are added to `hits` (the candidates), after those already there."""
        rank: dict[tuple[str, str], int] = {}
        score: dict[tuple[str, str], float] = {}
        best = found[0].score if found else 1.0
        for hit in found:
            rank[(hit.law_id, hit.article)] = hit.rank
            score[(hit.law_id, hit.article)] = hit.score / best
            if hit.rank <= joining:
                for clause in self._article_hits(hit.law_id, hit.article, where, batch):
                    hits.setdefault(clause.uid, clause)
        return rank, score

    def _paths(self, hits: Mapping[str, IndexHit]) -> dict[str, str]:
        """Every candidate's path: from the index's path column when it has one, else from the units."""
        columns = self.index.columns()
        known = columns.unit_paths(list(hits)) if columns is not None else {}
        return {uid: known.get(uid) or hit.unit.path for uid, hit in hits.items()}

    def candidates(self, question: str, where: SearchFilter, lists: Mapping[str, Sequence[Retrieved]] | None = None,
                   fused: Sequence[Retrieved] | None = None) -> Candidates:
        """Every candidate clause of the question and its features (`lists`: the hybrid's lists, when read;
        `fused`: those lists fused by the hybrid, every item of them, when done). The `hybrid` feature is the
        hybrid's own fusion (`FusionRetriever.fused`, its law-level evidence with the citation prior), not a copy
        of it: a copy once missed the prior the search had gained."""
        if lists is None:
            lists = retrieve_lists(self.hybrid.retrievers, question, max(FUSION_DEPTH, self.hybrid.depth), where)
        if fused is None:
            fused = self.hybrid.fused(question, lists, len({item.uid for ranked in lists.values() for item in ranked}),
                                      where)
        terms = question_terms(question)
        hits: dict[str, IndexHit] = {}
        for ranked in lists.values():
            for item in ranked:
                hits.setdefault(item.uid, item.hit)
        batch = UnitBatch(self.index.units_by_uid)  # the clauses of the articles both anchor lists bring in
        field, sentences = self.field, self.field.sentences if self.field is not None else None
        anchor_rank, anchor_score = self._ranked_articles(
            field.search(terms, ANCHOR_DEPTH, where.laws) if field is not None else [], ANCHOR_DEPTH, where, batch,
            hits)
        sentence_rank, sentence_score = self._ranked_articles(
            sentences.nearest(terms, SENTENCE_FEATURE_DEPTH, where.laws) if sentences is not None else [],
            SENTENCE_DEPTH, where, batch, hits)
        uids = list(hits)
        laws = {provision_law_id(uid) for uid in uids}
        affinity: Mapping[str, float] = {}
        if law_prior_weight(self.hybrid.weights) > 0 and laws:
            vocabulary = self.index.law_vocabulary(terms, laws)
            if laws <= set(vocabulary.laws):
                affinity = law_affinity(terms, vocabulary, laws)
        hybrid = {item.uid: item.score for item in fused}
        vectors = self.index.vectors_of(uids)
        query = self.query_vector(question)
        normal = {name: _normalised(lists.get(name, ())) for name in ("bm25", "dense")}
        ranks = {name: {item.uid: item.rank for item in ranked} for name, ranked in lists.items()}
        paths = self._paths(hits)
        articles = {uid: (provision_law_id(uid), article_path(paths[uid])) for uid in uids}
        article_best: dict[tuple[str, str], float] = {}
        article_count: dict[tuple[str, str], int] = {}
        for uid in uids:
            a = articles[uid]
            article_best[a] = max(article_best.get(a, 0.0), normal["bm25"].get(uid, 0.0))
            if uid in ranks.get("bm25", {}) or uid in ranks.get("dense", {}):
                article_count[a] = article_count.get(a, 0) + 1
        law_anchor = law_best({a: anchor_score.get(a, 0.0) for a in set(articles.values())})
        rows = []
        for uid in uids:
            a, path = articles[uid], paths[uid]
            vector = vectors.get(uid)
            rows.append([
                hybrid.get(uid, 0.0),
                normal["bm25"].get(uid, 0.0),
                _reciprocal(ranks.get("bm25", {}).get(uid)),
                float(vector @ query) if vector is not None else 0.0,
                _reciprocal(ranks.get("dense", {}).get(uid)),
                1.0 if uid in ranks.get("cited", {}) else 0.0,
                affinity.get(a[0], 0.0),
                anchor_score.get(a, 0.0),
                _reciprocal(anchor_rank.get(a)),
                article_best.get(a, 0.0),
                math.log1p(article_count.get(a, 0)),
                math.log1p(self.field.in_degree(*a)) if self.field is not None else 0.0,
                1.0 if "/" not in path or path.endswith("/p1") else 0.0,
                law_anchor[a[0]],
                sentence_score.get(a, 0.0),
                _reciprocal(sentence_rank.get(a)),
            ])
        sources = tuple({name: r[uid] for name, r in ranks.items() if uid in r} for uid in uids)
        return Candidates(tuple(hits[uid] for uid in uids), tuple(articles[uid] for uid in uids),
                          np.asarray(rows, dtype=float).reshape(len(uids), len(FEATURES)), sources)


def build(setup: RetrieverSetup) -> Retriever:
    """The ``learned`` mode's retriever (`lexgraph.retrieve.modes`)."""
    query_vector = QueryVectors(setup.embedder)
    return LearnedRetriever(setup.index, hybrid_of(setup, query_vector), query_vector,
                            anchor_field(setup.index, setup.held_apart), load_model())


def paragraphs_by_hybrid(order: Sequence[int], articles: Sequence[tuple[str, str]], hybrid: np.ndarray,
                         keep: int = 0) -> list[int]:
    """`order` (candidate indices, best first) with each article's paragraphs in the hybrid's order, in the places
    the model gave that article: the first `keep` places (the clauses the question cites) stay as they are.

    Why: the model is trained on articles (a candidate is positive when its article is gold, so every paragraph of
    a gold article is), so nothing taught it which paragraph of an article answers; the hybrid's score is a
    paragraph's own match. Each article keeps the places the model gave it, so the articles' order, and every
    article-level figure, is the model's exactly; only which of its paragraphs comes first is the hybrid's (ties
    keep the model's order)."""
    out = list(order)
    places: dict[tuple[str, str], list[int]] = {}
    for place in range(keep, len(order)):
        places.setdefault(articles[order[place]], []).append(place)
    for held in places.values():
        if len(held) > 1:
            members = sorted((order[place] for place in held), key=lambda i: -float(hybrid[i]))
            for place, i in zip(held, members, strict=True):
                out[place] = i
    return out


def on_hybrid_scale(hybrid: Sequence[Retrieved], n: int) -> list[float]:
    """The scores of the learned mode's first `n` clauses: the k-th gets the hybrid's k-th best score over the
    same lists (0 past the hybrid's last: a clause only the anchor field brought in holds no hybrid score).

    Why not the model's own scores: a search compares its clauses' scores with its chunks', which the hybrid ranks
    (the relevance floor is half the best of the top clause and the top chunk; the precedents an answer is given
    are the chunks above it), and a logit is on no scale a chunk's score shares: a top logit of 3 sets a floor no
    chunk reaches, a negative one lets every chunk through. Why not a fixed map of the logits onto [0, 1] (the
    sigmoid, or one fitted on the training queries): the hybrid's scores are relative to the question (each list
    min-max normalised, the best law's affinity 1), so no map of one question's logits can know where another
    question's chunks stand; `bench/learned_scale.py` measures how far each lands from the hybrid's. Assigned by
    rank, the scores keep the model's order (they never increase down the list) and the top clause scores exactly
    what the hybrid's top clause scores, so the floor and every comparison with a chunk read the scale they were
    set on."""
    best = [item.score for item in hybrid[:n]]
    return best + [0.0] * (n - len(best))


def law_best(scores: Mapping[tuple[str, str], float]) -> dict[str, float]:
    """Each law's best score over its articles (``(law id, article) → score``): the `law_anchor` feature.

    Why: on the whole archive most of the judgment queries the model ranks wrongly put a counterpart article of
    another major law first (日本国憲法 against 刑事訴訟法, 民法 against 民事訴訟法, docs/search.md), and an
    article's own anchor score says nothing of how strongly the anchors point at its law as a whole: an article of
    the law whose other article the anchors rank first is the likelier answer than an equal match in a law they
    never reach."""
    out: dict[str, float] = {}
    for (law_id, _), score in scores.items():
        out[law_id] = max(out.get(law_id, 0.0), score)
    return out


def _normalised(ranked: Sequence[Retrieved]) -> dict[str, float]:
    if not ranked:
        return {}
    scores = [item.score for item in ranked]
    low, high = min(scores), max(scores)
    span = high - low
    return {item.uid: (item.score - low) / span if span > 0 else 1.0 for item in ranked}


def _reciprocal(rank: int | None) -> float:
    return 0.0 if rank is None else 1.0 / rank


