"""The law-level evidence of the hybrid search (`lexgraph.retrieve.law_prior`): each law's query likelihood under
its Dirichlet-smoothed unigram model, the citation prior (how many other laws cite a law), and the affinity
relative to the best candidate law. Hand-computed tables first, then properties over any counts."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexgraph.index.law_terms import LawVocabulary, TermCounts, collection_of, count_terms, vocabulary_of
from lexgraph.retrieve.law_prior import BETA, GAMMA, citation_prior, law_affinity, law_scores

# 弁護人 is the criminal code's word, 上告 both codes', 請負 neither's (the collection holds it through 民法).
LAWS = {
    "刑訴": TermCounts({"弁護人": 30, "上告": 10, "被告人": 40}, 1000),
    "民訴": TermCounts({"弁護人": 1, "上告": 12, "当事者": 50}, 1000),
    "民法": TermCounts({"請負": 20, "当事者": 20}, 2000),
}
COLLECTION = collection_of(LAWS)


def test_the_collection_is_every_law_summed() -> None:
    assert TermCounts({"弁護人": 31, "上告": 22, "被告人": 40, "当事者": 70, "請負": 20}, 4000) == COLLECTION


def test_count_terms_reads_the_index_token_strings() -> None:
    expected = TermCounts({"上告": 2, "の": 1, "理由": 1, "弁護人": 1}, 5)
    assert count_terms(["上告 の 理由", "上告 弁護人", ""]) == expected


def test_a_vocabulary_holds_only_the_asked_terms_and_known_laws() -> None:
    vocabulary = vocabulary_of(LAWS, COLLECTION, ["弁護人", "弁護人", "未知"], ["刑訴", "民法", "商法"])
    assert vocabulary == LawVocabulary({"刑訴": TermCounts({"弁護人": 30}, 1000), "民法": TermCounts({}, 2000)},
                                       TermCounts({"弁護人": 31}, 4000))


def test_scores_hand_computed() -> None:
    mu = 2000.0
    vocabulary = vocabulary_of(LAWS, COLLECTION, ["弁護人", "上告"], LAWS)

    def log_p(law: str, term: str) -> float:
        return math.log((LAWS[law].counts.get(term, 0) + mu * COLLECTION.counts[term] / 4000) / (LAWS[law].total + mu))

    scores = law_scores(["弁護人", "上告", "未知"], vocabulary, ["刑訴", "民訴"], mu=mu)  # 未知: no law holds it
    assert scores == pytest.approx({law: (log_p(law, "弁護人") + log_p(law, "上告")) / 2 for law in ("刑訴", "民訴")})
    affinity = law_affinity(["弁護人", "上告"], vocabulary, ["刑訴", "民訴"], beta=3.0, mu=mu)
    assert affinity["刑訴"] == 1.0
    assert affinity["民訴"] == pytest.approx(math.exp(3.0 * (scores["民訴"] - scores["刑訴"])))
    assert affinity["民訴"] < 0.5  # 弁護人 is 30 times as frequent in the criminal code


def test_no_known_term_leaves_every_law_alike_and_unknown_laws_out() -> None:
    vocabulary = vocabulary_of(LAWS, COLLECTION, ["未知"], LAWS)
    assert law_affinity(["未知"], vocabulary, ["刑訴", "民訴", "商法"]) == {"刑訴": 1.0, "民訴": 1.0}
    assert law_affinity([], vocabulary, []) == {}


counts = st.dictionaries(st.sampled_from("abcdefgh"), st.integers(1, 50), max_size=6)


@given(st.dictionaries(st.sampled_from(["L1", "L2", "L3", "L4"]), counts, min_size=1),
       st.lists(st.sampled_from("abcdefghxyz"), max_size=12))
def test_affinity_is_one_for_the_best_law_and_in_zero_one_for_the_rest(by_law: dict[str, dict[str, int]],
                                                                       terms: list[str]) -> None:
    laws = {law: TermCounts(c, sum(c.values()) + 5) for law, c in by_law.items()}
    vocabulary = vocabulary_of(laws, collection_of(laws), terms, laws)
    affinity = law_affinity(terms, vocabulary, laws)
    assert set(affinity) == set(laws)
    assert max(affinity.values()) == 1.0 and all(0.0 < v <= 1.0 for v in affinity.values())
    # a law whose counts of every query term are at least another's, out of no more tokens, is at least as near
    for a, b in [(a, b) for a in laws for b in laws if a != b]:
        if laws[a].total <= laws[b].total and all(laws[a].counts.get(t, 0) >= laws[b].counts.get(t, 0)
                                                  for t in terms):
            assert affinity[a] >= affinity[b] - 1e-12


def test_the_citation_prior_hand_computed() -> None:
    """Each law's score gains ``GAMMA * log(1 + c)`` for the ``c`` other laws that cite it: the affinity of a law
    is its vocabulary's, times ``(1 + c) ** (BETA * GAMMA)``, relative to the best law after the prior."""
    vocabulary = vocabulary_of(LAWS, COLLECTION, ["上告"], LAWS)
    scores = law_scores(["上告"], vocabulary, ["刑訴", "民訴"])
    citing = {"刑訴": 73, "民訴": 93, "民法": 384}
    assert citation_prior(citing, "民訴") == pytest.approx(GAMMA * math.log(94))
    assert citation_prior(citing, "商法") == 0.0 and citation_prior({"x": -3}, "x") == 0.0
    with_prior = law_affinity(["上告"], vocabulary, ["刑訴", "民訴"], citing=citing)
    prior = {law: scores[law] + GAMMA * math.log1p(citing[law]) for law in scores}
    best = max(prior.values())
    assert with_prior == pytest.approx({law: math.exp(BETA * (value - best)) for law, value in prior.items()})
    assert law_affinity(["上告"], vocabulary, ["刑訴", "民訴"], citing=citing, gamma=0.0) == law_affinity(
        ["上告"], vocabulary, ["刑訴", "民訴"])


def test_a_law_nobody_cites_loses_to_a_cited_law_with_the_same_words() -> None:
    """A 施行規則 that repeats its Act's words explains the question as well as the Act (better: it is shorter);
    the citation prior puts the Act, which other laws cite, first."""
    laws = {"法": TermCounts({"届出": 40, "許可": 30}, 20000), "規則": TermCounts({"届出": 10, "許可": 8}, 3000)}
    vocabulary = vocabulary_of(laws, collection_of(laws), ["届出", "許可"], laws)
    plain = law_affinity(["届出", "許可"], vocabulary, laws)
    assert plain["規則"] == 1.0 and plain["法"] < 1.0
    cited = law_affinity(["届出", "許可"], vocabulary, laws, citing={"法": 40, "規則": 0})
    assert cited["法"] == 1.0 and cited["規則"] < plain["規則"]


@given(st.dictionaries(st.sampled_from(["L1", "L2", "L3", "L4"]), counts, min_size=1),
       st.lists(st.sampled_from("abcdefghxyz"), max_size=12),
       st.dictionaries(st.sampled_from(["L1", "L2", "L3", "L4", "L5"]), st.integers(0, 5000)))
def test_more_citations_never_lower_a_laws_affinity_against_the_others(by_law: dict[str, dict[str, int]],
                                                                       terms: list[str],
                                                                       citing: dict[str, int]) -> None:
    laws = {law: TermCounts(c, sum(c.values()) + 5) for law, c in by_law.items()}
    vocabulary = vocabulary_of(laws, collection_of(laws), terms, laws)
    affinity = law_affinity(terms, vocabulary, laws, citing=citing)
    assert set(affinity) == set(laws)
    assert max(affinity.values()) == 1.0 and all(0.0 <= v <= 1.0 for v in affinity.values())
    law = sorted(laws)[0]
    more = law_affinity(terms, vocabulary, laws, citing={**citing, law: citing.get(law, 0) + 100})
    assert more[law] >= affinity[law] - 1e-12
    assert all(more[other] <= affinity[other] + 1e-12 for other in laws if other != law)
