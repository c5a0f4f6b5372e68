"""Which clause answers the question best, and how sure that is: the lead of an extractive answer.

Why not simply the first evidence item: evidence is ranked by RRF over two lists, the clauses found directly and the
clauses cited by the retrieved chunks of judgments and books. Ranks are relative. A search always ranks some chunk
first, and when no chunk is about the question (a small or off-topic collection of judgments), the clauses that
chunk cites still get its full rank: 「建物の賃貸人が更新を拒絶するには…」 put 民法 第千五十条第五項 (特別寄与料,
cited by the one judgment about 特別の寄与) ahead of 借地借家法 第二十八条, found first by both BM25 and the dense
index. Nothing in the evidence score looks at the clause's own words.

So the lead is chosen by three signals, each a ranking of the law references, fused by RRF (k = `LEAD_RRF_K`):

1. **The clause's own words**: the share of the question's terms (Sudachi, as BM25 reads them) found in the
   clause's heading and text, each term weighted by how rare it is among the candidate clauses (a term in every
   candidate tells none apart); question words (何, どのような, 為る …) do not count. Clauses sharing no term are
   not in this ranking.
2. **The direct search**: the clause's rank when the question searched the clauses themselves (BM25 and dense,
   fused); clauses found only through the graph are not in this ranking.
3. **The evidence order**: the search's own ranking, graph support included.

A clause cited by an unrelated judgment leads only in (3); a clause whose words answer the question leads in (1) and
usually in (2).

**Confidence** (`Confidence.level`) says how far the signals agree on the lead:

- 高 (high): the lead is first both by its own words (1) and in the direct search (2), and holds at least half of
  the question's weighted terms;
- 低 (low): the lead holds under a quarter of the question's weighted terms, or is first in none of the three;
- 中 (medium): anything between (the signals disagree, or the lead is first in one of them only).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from lexgraph.answer.references import Reference
from lexgraph.index.tokenize import tokenize

LEAD_RRF_K = 10  # small: first place in a signal should count clearly more than third
HIGH_COVERAGE = 0.5
LOW_COVERAGE = 0.25

#: Words a question is asked with, not about: they say nothing about which clause answers it.
QUESTION_WORDS = frozenset({
    "為る", "有る", "居る", "成る", "出来る", "言う", "どのような", "どの", "どう", "どんな", "何", "いつ", "誰",
    "どこ", "いくら", "幾ら", "こと", "もの", "よう", "場合", "可能", "ため",
})


@dataclass(frozen=True)
class Confidence:
    """How sure the lead is, with the figures it was derived from (see the module docstring)."""

    level: str  # 高 | 中 | 低
    coverage: float  # share of the question's weighted terms in the lead's heading and text, 0..1
    first_in: tuple[str, ...]  # the signals that rank the lead first: words, direct, evidence

    def explain(self) -> str:
        """The reason in a sentence a reader can check against the quoted clause."""
        signals = {"words": "条文の語", "direct": "条文の直接検索", "evidence": "根拠の順位"}
        firsts = "・".join(signals[s] for s in self.first_in) or "どの指標"
        verdict = "で 1 位" if self.first_in else "でも 1 位ではありません"
        share = round(self.coverage * 100)
        return f"確からしさ：{self.level}（質問の語の {share}% がこの条文にあり、{firsts}{verdict}）"

    def to_json(self) -> dict[str, object]:
        return {"level": self.level, "coverage": round(self.coverage, 3), "first_in": list(self.first_in)}


@dataclass(frozen=True)
class Lead:
    """The law references in the order an extractive answer quotes them, best answer first, and the confidence."""

    laws: tuple[Reference, ...]
    confidence: Confidence | None  # None when there is no law reference


def question_terms(question: str) -> list[str]:
    """The terms a clause must share to answer `question`: its BM25 terms less the words questions are asked with."""
    return list(dict.fromkeys(t for t in tokenize(question) if t not in QUESTION_WORDS))


def order_laws(question: str, laws: Sequence[Reference]) -> Lead:
    """The law references (in evidence order) reordered so that the one that best answers `question` leads."""
    if not laws:
        return Lead((), None)
    terms = question_terms(question)
    bags = [set(tokenize(f"{ref.title} {ref.text}")) for ref in laws]
    weights = {t: math.log(1 + len(laws) / (1 + sum(t in bag for bag in bags))) for t in terms}
    total = sum(weights.values())
    coverage = [sum(w for t, w in weights.items() if t in bag) / total if total else 0.0 for bag in bags]
    by_words = _ranking([(-c, i) for i, c in enumerate(coverage) if c > 0])
    by_direct = _ranking([(ref.direct_rank, i) for i, ref in enumerate(laws) if ref.direct_rank is not None])
    by_evidence = {i: i + 1 for i in range(len(laws))}
    signals = {"words": by_words, "direct": by_direct, "evidence": by_evidence}
    fused = [sum(1 / (LEAD_RRF_K + ranks[i]) for ranks in signals.values() if i in ranks) for i in range(len(laws))]
    order = sorted(range(len(laws)), key=lambda i: (-fused[i], i))
    lead = order[0]
    first_in = tuple(name for name, ranks in signals.items() if ranks.get(lead) == 1)
    if by_words.get(lead) == 1 and by_direct.get(lead) == 1 and coverage[lead] >= HIGH_COVERAGE:
        level = "高"
    elif coverage[lead] < LOW_COVERAGE or not first_in:
        level = "低"
    else:
        level = "中"
    return Lead(tuple(laws[i] for i in order), Confidence(level, coverage[lead], first_in))


def _ranking(keyed: list[tuple[float, int]]) -> dict[int, int]:
    """Index → 1-based rank by key (ties share the better rank, so that equals are equally first)."""
    ranks: dict[int, int] = {}
    previous: tuple[float, int] | None = None  # (key, rank) of the last one placed
    for position, (key, index) in enumerate(sorted(keyed), start=1):
        rank = previous[1] if previous is not None and previous[0] == key else position
        ranks[index] = rank
        previous = (key, rank)
    return ranks
