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
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from lexgraph.index.law_terms import LawVocabulary

#: Dirichlet smoothing, in tokens: a law of 2,000 tokens is half its own counts, half the collection's.
MU = 2000.0
#: How sharply the affinity falls with the per-term log-likelihood behind the best candidate law (per nat).
BETA = 3.0


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


def law_affinity(terms: Sequence[str], vocabulary: LawVocabulary, laws: Iterable[str], *,
                 beta: float = BETA, mu: float = MU) -> dict[str, float]:
    """``exp(beta * (score - best))`` for each of ``laws`` the vocabulary knows: 1 for the best, less for the rest."""
    scores = law_scores(terms, vocabulary, laws, mu=mu)
    if not scores:
        return {}
    best = max(scores.values())
    return {law: math.exp(beta * (score - best)) for law, score in scores.items()}
