"""How well each law's vocabulary explains a question: the law-level evidence the hybrid search adds to its clauses.

A clause-level match cannot tell two laws' counterpart articles apart when the question's telling words belong to
the law, not the clause: 「弁護人…の上告趣意は…上告理由に当たらない」 is 刑事訴訟法 第四百五条, yet BM25 and e5 both
like 民事訴訟法 第三百十二条 (captioned 上告の理由), because 弁護人 and 被告人 are in hundreds of the criminal code's
clauses and in none or one of the civil code's. So each law is scored as cluster-based retrieval scores a cluster
(Liu and Croft, SIGIR 2004): the question's likelihood under the law's unigram language model, Dirichlet-smoothed
with the collection of indexed laws (`MU`), averaged per query term so that long and short questions weigh alike.
Terms no indexed law holds say nothing and are left out.

The hybrid search turns that into an affinity in (0, 1]: ``exp(BETA * (score - best score))`` over the laws of its
candidates, so the best law gets 1 and a law whose per-term log-likelihood is ``1 / BETA`` nats lower gets 1/e.
Relative to the best candidate rather than min-max over all laws, so that it does not depend on how many unrelated
laws the store holds. The two constants were chosen on the dev splits of both retrieval benchmarks
(docs/search.md); sibling laws (an Act and its 施行令) score alike, so the affinity separates domains more than
siblings.

On a store of every law, the question's words alone cannot rule out the thousands of small laws that share them
(a 施行規則 that repeats its Act's wording, a special law that copies 民法's): one of them is often the best
candidate law, and the Act the question is about comes second. So each law's score also gains a prior from the
statute citation graph, ``GAMMA * log(1 + c)``, where ``c`` is how many other laws' clauses cite the law (the
store's CITES edges between laws, never a judgment's): a law the legal system leans on (民法 is cited by 384 laws,
刑事訴訟法 by 73) is the likelier subject of a question than one nobody cites (most 施行規則, and a third of the
archive's laws). In link-prior terms the affinity of a law is multiplied by ``(1 + c) ** (BETA * GAMMA)``. On a
store of a few major laws the prior barely moves anything (they are all cited); measured in docs/search.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from lexgraph.index.law_terms import LawVocabulary
from lexgraph.store.rows import LAWS_CITING_COUNTS

if TYPE_CHECKING:
    from lexgraph.store.base import GraphStore

#: Dirichlet smoothing, in tokens: a law of 2,000 tokens is half its own counts, half the collection's.
MU = 2000.0
#: How sharply the affinity falls with the per-term log-likelihood behind the best candidate law (per nat).
BETA = 3.0
#: The weight of the citation prior, in nats per term of the question: ``GAMMA * log(1 + laws citing the law)`` is
#: added to a law's score. Chosen on the judgment benchmark's dev split, on the whole archive and on the 19-law
#: store (docs/search.md).
GAMMA = 0.2


def law_scores(terms: Sequence[str], vocabulary: LawVocabulary, laws: Iterable[str], *,
               mu: float = MU) -> dict[str, float]:
    """Each law's mean log-likelihood per query term (natural log). Laws the vocabulary does not know are left
    out; with no term the collection knows, every known law scores 0."""
    collection = vocabulary.collection
    known = [t for t in terms if collection.counts.get(t, 0) > 0]
    out: dict[str, float] = {}
    for law in dict.fromkeys(laws):
        counted = vocabulary.laws.get(law)
        if counted is None:
            continue
        if not known:
            out[law] = 0.0
            continue
        log_likelihood = math.fsum(
            math.log((counted.counts.get(t, 0) + mu * collection.counts[t] / collection.total)
                     / (counted.total + mu))
            for t in known)
        out[law] = log_likelihood / len(known)
    return out


def citation_prior(citing: Mapping[str, int], law: str, *, gamma: float = GAMMA) -> float:
    """``gamma * log(1 + c)``: the law-level citation prior of a law that ``c`` other laws cite (0 when none does,
    or when ``citing`` does not know the law)."""
    return gamma * math.log1p(max(citing.get(law, 0), 0))


def law_affinity(terms: Sequence[str], vocabulary: LawVocabulary, laws: Iterable[str], *,
                 beta: float = BETA, mu: float = MU, citing: Mapping[str, int] | None = None,
                 gamma: float = GAMMA) -> dict[str, float]:
    """``exp(beta * (score - best))`` for each of ``laws`` the vocabulary knows: 1 for the best, less for the rest.
    With ``citing`` (law id → how many other laws cite it), each score first gains the citation prior
    (`citation_prior`); without it the affinity is the vocabulary's alone."""
    scores = law_scores(terms, vocabulary, laws, mu=mu)
    if not scores:
        return {}
    if citing is not None and gamma:
        scores = {law: score + citation_prior(citing, law, gamma=gamma) for law, score in scores.items()}
    best = max(scores.values())
    return {law: math.exp(beta * (score - best)) for law, score in scores.items()}


class LawCitations:
    """How many other laws cite each law, read from a store's graph once, when a search first weighs laws (one
    aggregate over every law's cited laws: 70-130 ms on the 8,502-law archive, then nothing). A store linked again
    while this is held keeps the counts it first read: the prior is a coarse preference, not an answer."""

    def __init__(self, store: GraphStore) -> None:
        self._store = store
        self._counts: dict[str, int] | None = None

    def counts(self) -> Mapping[str, int]:
        if self._counts is None:
            self._counts = {str(row.law_id): int(row.citing) for row in self._store.rows(LAWS_CITING_COUNTS)}
        return self._counts
