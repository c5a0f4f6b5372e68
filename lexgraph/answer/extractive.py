"""The answer when no model is configured: the most relevant clauses and passages, quoted, each with its citation
and the wording's period in force, under a label that says no model was used.

Nothing is paraphrased: a quotation cannot misstate the law, and the reader sees exactly which wording of which
clause it is. The clause quoted first, and named in the conclusion, is the one that best answers the question
(`lead.order_laws`), with how sure that is (高 / 中 / 低) and why. A precedent known only from citations has no
text to quote: it is named with the label saying so, never quoted as 「」.
"""

from __future__ import annotations

from datetime import date

from lexgraph.answer.lead import order_laws
from lexgraph.answer.model import Answer, AnswerSentence
from lexgraph.answer.references import Reference, References

MAX_QUOTES = 5
_QUOTE_CHARS = 300


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _QUOTE_CHARS else flat[:_QUOTE_CHARS] + "…"


def _period(ref: Reference) -> str:
    if ref.kind != "law":
        return ""
    start = ref.valid_from.isoformat() if ref.valid_from else "施行日不明（スナップショット）"
    # An open end is never 「現在」: the store knows a wording in force only up to the day its source was seen
    # (docs/statutes.md), not that it still is.
    end = f"〜{ref.valid_until.isoformat()}" if ref.valid_until else "〜（終期不明：その後の改正は未確認）"
    revision = f"、{ref.revision_id}" if ref.revision_id else ""
    return f"［{start}{end} の文言{revision}］"


def _sentence(ref: Reference) -> AnswerSentence:
    if ref.stub or not ref.text.strip():
        return AnswerSentence(f"{ref.title}：［{ref.shown_text or '本文なし'}］", (ref.id,))
    return AnswerSentence(f"{ref.title}{_period(ref)}：「{_quote(ref.text)}」", (ref.id,))


def extractive_answer(question: str, references: References, as_of: date, *, mode: str = "cgg",
                      prompt_style: str = "text") -> Answer:
    lead = order_laws(question, references.of_kind("law"))
    ranked = [*lead.laws, *references.of_kind("precedent"), *references.of_kind("book"),
              *references.of_kind("guideline")][:MAX_QUOTES]
    sentences = tuple(_sentence(ref) for ref in ranked)
    if ranked:
        sure = f"{lead.confidence.explain()}。" if lead.confidence and ranked[0] is lead.laws[0] else ""
        conclusion = AnswerSentence(f"最も関連すると判断した資料は {ranked[0].title} です。{sure}"
                                    "（抽出回答：言語モデルは使っていません）", (ranked[0].id,), by="lexgraph")
        caveat = "この回答は検索結果の引用です。質問への当てはめは行っていません。"
    else:
        conclusion = AnswerSentence("この質問に関連する条文・資料は見つかりませんでした（抽出回答：言語モデルは使って"
                                    "いません）。", (), by="lexgraph")
        caveat = "索引が作られているか（lexgraph index）、法令が取り込まれているかを確認してください。"
    caveats = (AnswerSentence(caveat, (), by="lexgraph"),)
    return Answer(question=question, sentences=sentences, conclusion=conclusion, caveats=caveats,
                  references=references, mode=mode, prompt_style=prompt_style, as_of=as_of, model=None,
                  confidence=lead.confidence)
