"""lawqa_jp gold: the statute headings of a question's context, read as (law, article) and (law, article,
paragraph). Contexts below are excerpts of real dev.json samples (tests/data/lawqa/SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexgraph.eval.lawqa import DatasetError, load_lawqa, parse_sample
from lexgraph.eval.retrieval import article_id, evaluate_lawqa, paragraph_id

SAMPLE = Path(__file__).parent / "data" / "lawqa" / "dev_sample.json"


@pytest.mark.parametrize(("context", "articles", "paragraphs"), [
    ("## 借地借家法\n### 第3条\n借地権の存続期間は、三十年とする。\n### 第4条\n…",
     [("借地借家法", "a3"), ("借地借家法", "a4")], []),
    ("## 借地借家法\n### 第13条\n#### 第1項\n借地権の存続期間が満了した場合\n#### 第3項\n…",
     [("借地借家法", "a13")], [("借地借家法", "a13/p1"), ("借地借家法", "a13/p3")]),
    ("## 金融商品取引法施行令\n### 第1条の4\n#### 第1号\n…\n##### 第2号\n…",
     [("金融商品取引法施行令", "a1_4")], [("金融商品取引法施行令", "a1_4/p1")]),
    ("## 金融商品取引法\n### 第27条の2の3\n#### 第2項\n##### 第1号\n…",
     [("金融商品取引法", "a27_2_3")], [("金融商品取引法", "a27_2_3/p2")]),
    ("## 原状回復をめぐるトラブルとガイドライン（再改訂版）\n### Q&A\n#### Q4\n…", [], []),
    ("## 金融商品取引法〔第7版〕\n### 第1章　金融商品取引法\n#### 1-1\n…", [], []),
])
def test_gold_from_headings(context: str, articles: list[tuple[str, str]],
                            paragraphs: list[tuple[str, str]]) -> None:
    question = parse_sample({"問題文": "q", "コンテキスト": context})
    assert list(question.articles) == articles
    assert list(question.paragraphs) == paragraphs
    assert set(question.gold_laws) == {law for law, _ in articles}


@pytest.mark.parametrize(("path", "article", "paragraph"), [
    ("a3/p1", "L|a3", "L|a3/p1"),
    ("a3", "L|a3", None),
    ("a13/p1/i2", "L|a13", "L|a13/p1"),
    ("suppl/a2/p1", "L|suppl/a2", "L|suppl/a2/p1"),
    ("suppl[平成19年法律第132号]/p1", "L|suppl[平成19年法律第132号]/p1", None),
])
def test_clause_ids_at_each_level(path: str, article: str, paragraph: str | None) -> None:
    assert article_id("L", path) == article
    assert paragraph_id("L", path) == paragraph


def test_questions_are_sorted_into_scored_absent_and_no_gold() -> None:
    questions = load_lawqa(SAMPLE)
    law_ids = {"借地借家法": "403AC0000000090", "金融商品取引法": None}
    seen: list[str] = []

    def rank(question):  # type: ignore[no-untyped-def]
        seen.append(question.qid)
        return [("403AC0000000090", path) for _, path in (*question.paragraphs, *question.articles)]

    run = evaluate_lawqa(questions, rank, law_ids, mode="oracle")
    assert len(run.scored) == 7 and len(run.absent) == 2 and len(run.no_gold) == 1
    assert sorted(seen) == sorted(run.scored)  # absent and no-gold questions are never searched
    # An oracle ranking the gold clauses scores 1 at both levels; a question quoting no paragraph has no
    # paragraph gold and is listed apart at that level.
    assert run.levels["paragraph"].recall_at(20) == 1.0 and run.levels["article"].recall_at(20) == 1.0
    assert run.levels["article"].n_scored == 7 and run.levels["paragraph"].n_scored == 6


def test_a_file_that_is_not_lawqa_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text('[{"question": "?"}]', encoding="utf-8")
    with pytest.raises(DatasetError, match=r"x\.json: sample 0 has no 問題文"):
        load_lawqa(bad)
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"x\.json: cannot read"):
        load_lawqa(bad)
