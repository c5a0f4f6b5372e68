"""lawqa_jp gold: the statute headings of a question's context, read as (law, article) and (law, article,
paragraph). Contexts below are excerpts of real dev.json samples (tests/data/lawqa/SOURCE.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lexgraph.errors import DatasetError
from lexgraph.eval.lawqa import load_lawqa, parse_sample
from lexgraph.eval.retrieval import MATCH_THRESHOLD, article_id, bigram_overlap, evaluate_lawqa, paragraph_id

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


LAW = "403AC0000000090"
QUESTION = parse_sample({"問題文": "q", "コンテキスト": "## 借地借家法\n### 第3条\n#### 第1項\n…\n### 第10条\n…"})


def paragraphs_of(*articles: tuple[int, int]) -> list[tuple[str, str]]:
    """A ranking of paragraphs: (article, how many of its paragraphs), in rank order."""
    return [(LAW, f"a{article}/p{n}") for article, count in articles for n in range(1, count + 1)]


@pytest.mark.parametrize(("ranking", "recall", "rr"), [
    # Gold a3 and a10. Paragraphs of one article are one article hit, at the rank of the first.
    (paragraphs_of((1, 3), (2, 2), (3, 1), (10, 1)), {2: 0.0, 3: 0.5, 4: 1.0}, 1 / 3),
    # Five articles fill 25 paragraphs before a3: article rank 6, paragraph rank 26. Scored on the first k
    # distinct articles of the deep ranking, R@10 sees it; a ranking cut at 20 paragraphs would not.
    (paragraphs_of((1, 5), (2, 5), (4, 5), (5, 5), (6, 5), (3, 2)), {5: 0.0, 10: 0.5, 20: 0.5}, 1 / 6),
    (paragraphs_of((1, 5), (2, 5), (4, 5), (5, 5), (6, 5), (3, 2))[:20], {5: 0.0, 10: 0.0, 20: 0.0}, 0.0),
    # Items collapse to their paragraph (a3/p1/i2 → a3/p1), and a supplementary provision is its own article.
    ([(LAW, "suppl/a3/p1"), (LAW, "a3/p1/i2"), (LAW, "a3/p1/i1"), (LAW, "a10/p1")], {1: 0.0, 2: 0.5, 3: 1.0}, 0.5),
])
def test_article_recall_reads_distinct_articles_of_a_deep_ranking(ranking: list[tuple[str, str]],
                                                                   recall: dict[int, float], rr: float) -> None:
    run = evaluate_lawqa([QUESTION], lambda q: ranking, {"借地借家法": LAW}, mode="table", ks=(5, 10, 20))
    article = run.levels["article"].questions[0]
    assert {k: article.recall_at(k) for k in recall} == recall
    assert article.reciprocal_rank == pytest.approx(rr)


def test_paragraph_recall_counts_items_as_their_paragraph() -> None:
    ranking = [(LAW, "a10/p1"), (LAW, "a3/p2"), (LAW, "a3/p1/i1"), (LAW, "a3/p1/i2")]
    run = evaluate_lawqa([QUESTION], lambda q: ranking, {"借地借家法": LAW}, mode="table")
    paragraph = run.levels["paragraph"].questions[0]
    assert paragraph.gold == (f"{LAW}|a3/p1",) and paragraph.found == ((f"{LAW}|a3/p1", 3),)


QUOTED = json.loads((Path(__file__).parent / "data" / "lawqa" / "quoted_vs_stored.json").read_text("utf-8"))


@pytest.mark.parametrize("pair", QUOTED, ids=[f"{p['path']}-{p['same_provision']}" for p in QUOTED])
def test_a_renumbered_clause_is_told_from_an_amended_one(pair: dict[str, object]) -> None:
    overlap = bigram_overlap(str(pair["quoted"]), str(pair["stored_2020"]))
    assert (overlap >= MATCH_THRESHOLD) is pair["same_provision"], overlap


def test_version_mismatched_gold_is_listed_apart_and_never_reachable() -> None:
    """Real strings: 薬機法 第十七条 as lawqa_jp quotes it (2021 wording) and as the 2020 archive stores it; its
    second paragraph was rewritten, its first was not. A third gold path is in no stored version."""
    by_path = {p["path"]: p for p in QUOTED if p["law"].startswith("医薬品")}
    p1, p2 = by_path["a17/p1"], by_path["a17/p2"]
    context = (f"## {p1['law']}\n### 第17条\n#### 第1項\n{p1['quoted']}\n#### 第2項\n{p2['quoted']}\n"
               f"### 第6条の2\n#### 第1項\n…")
    question = parse_sample({"問題文": "q", "コンテキスト": context, "ファイル名": "q17"})
    stored = {"a17/p1": [str(p1["stored_2020"])], "a17/p2": [str(p2["stored_2020"])],
              "a17": [str(p1["stored_2020"]) + str(p2["stored_2020"])]}
    ranking = [("L", "a17/p2"), ("L", "a17/p1")]
    run = evaluate_lawqa([question], lambda q: ranking, {str(p1["law"]): "L"}, mode="table",
                         texts=lambda law, path: stored.get(path, []))
    assert run.not_in_store == {"article": (("q17", "L|a6_2"),), "paragraph": (("q17", "L|a6_2/p1"),)}
    assert [(q, g) for q, g, _ in run.mismatched["paragraph"]] == [("q17", "L|a17/p2")]
    assert run.mismatched["article"] == ()  # the article as a whole is still the same provision, amended
    assert run.ceiling == {"article": 0.5, "paragraph": pytest.approx(1 / 3)}
    # Recall over all gold counts the misses a retriever cannot avoid; the reachable rows do not.
    assert run.levels["paragraph"].recall_at(5) == pytest.approx(2 / 3)
    assert run.levels["paragraph (reachable)"].questions[0].gold == ("L|a17/p1",)
    assert run.levels["paragraph (reachable)"].recall_at(5) == 1.0
    assert run.to_json()["version_mismatched"]["paragraph"][0]["gold"] == "L|a17/p2"
