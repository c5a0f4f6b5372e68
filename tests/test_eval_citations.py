"""Citation P/R/F1 on a tiny hand-made gold set, with every expected figure worked out by hand below."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lexgraph.eval.citations import PRF, evaluate, load_gold, same_target

S1 = "民法７０９条及び７１５条による。"
S2 = "最高裁平成１２年３月１４日第三小法廷判決参照"
S3 = "第三者に対抗することができない。"


def statute(start: int, end: int, article: str, law_title: str = "民法", **extra: object) -> dict:
    return {"kind": "statute", "start": start, "end": end, "law_title": law_title, "article": article,
            "paragraph": None, "item": None, **extra}  # fmt: skip


def precedent(start: int, end: int, date: str) -> dict:
    return {"kind": "precedent", "start": start, "end": end, "court": "最高裁判所第三小法廷", "date": date,
            "decision_type": "判決"}  # fmt: skip


GOLD = [
    {"doc": "a.txt", "sentence_start": 0, "sentence": S1, "citations": [statute(0, 6, "709"), statute(8, 12, "715")]},
    {"doc": "a.txt", "sentence_start": 20, "sentence": S2, "citations": [precedent(0, 20, "2000-03-14")]},
    {"doc": "b.txt", "sentence_start": 0, "sentence": S3, "citations": []},
]
PREDICTIONS = {
    S1: [statute(0, 6, "709"), statute(9, 12, "715")],  # exact; overlapping but one character short
    S2: [precedent(0, 20, "2000-03-15")],  # right span, wrong date
    S3: [statute(0, 3, "3")],  # 第三者 read as a clause: spurious
}


def test_scores_worked_out_by_hand() -> None:
    scores = evaluate(GOLD, lambda s: PREDICTIONS[s])
    assert scores.sentences == 3
    # statutes: gold 2, predicted 3.
    # span: only 0-6 is exact → tp 1, fp 2, fn 1 → P 1/3, R 1/2, F1 = 2·(1/6)/(5/6) = 0.4
    st = scores.statute
    assert (st.span.tp, st.span.fp, st.span.fn) == (1, 2, 1)
    assert st.span.precision == pytest.approx(1 / 3)
    assert st.span.recall == pytest.approx(1 / 2)
    assert st.span.f1 == pytest.approx(0.4)
    # overlap: 0-6 and 9-12 both overlap gold, 第三者 does not → tp 2, fp 1, fn 0 → P 2/3, R 1, F1 0.8
    assert (st.overlap.tp, st.overlap.fp, st.overlap.fn) == (2, 1, 0)
    assert st.overlap.f1 == pytest.approx(0.8)
    # target: both overlapping ones name the right article of 民法 → same as overlap
    assert (st.target.tp, st.target.fp, st.target.fn) == (2, 1, 0)
    assert st.target.precision == pytest.approx(2 / 3) and st.target.recall == 1.0
    # precedents: the span is exact but the date is wrong → span and overlap 1.0, target tp 0, fp 1, fn 1 → 0
    pr = scores.precedent
    assert pr.span.f1 == 1.0 and pr.overlap.f1 == 1.0
    assert (pr.target.tp, pr.target.fp, pr.target.fn) == (0, 1, 1)
    assert pr.target.f1 == 0.0
    # overall = sums: span tp 2, fp 2, fn 1 → P 1/2, R 2/3, F1 = 2·(1/3)/(7/6) = 4/7
    assert (scores.overall.span.tp, scores.overall.span.fp, scores.overall.span.fn) == (2, 2, 1)
    assert scores.overall.span.f1 == pytest.approx(4 / 7)
    assert scores.overall.target.f1 == pytest.approx(4 / 7)


def test_misses_name_the_sentence_and_the_citation() -> None:
    misses = evaluate(GOLD, lambda s: PREDICTIONS[s]).misses
    got = {
        (m.doc, m.sentence_start, m.kind, m.side, m.citation.get("date") or m.citation.get("article")) for m in misses
    }
    assert got == {
        ("a.txt", 20, "precedent", "missed", "2000-03-14"),
        ("a.txt", 20, "precedent", "spurious", "2000-03-15"),
        ("b.txt", 0, "statute", "spurious", "3"),
    }


def test_to_json_rounds_and_nests() -> None:
    out = evaluate(GOLD, lambda s: PREDICTIONS[s]).to_json(with_misses=True)
    assert out["statute"]["span"] == {"tp": 1, "fp": 2, "fn": 1, "precision": 0.3333, "recall": 0.5, "f1": 0.4}
    assert set(out) == {"sentences", "statute", "precedent", "overall", "misses"}
    json.dumps(out, ensure_ascii=False)


def test_a_prediction_of_the_other_kind_never_matches() -> None:
    scores = evaluate(GOLD[:1], lambda s: [precedent(0, 6, "2000-01-01")])
    assert (scores.statute.overlap.tp, scores.statute.overlap.fn) == (0, 2)
    assert (scores.precedent.overlap.fp, scores.precedent.overlap.tp) == (1, 0)


def test_one_prediction_matches_one_gold() -> None:
    """Two gold citations of the same article, one prediction covering both: one match, one miss."""
    gold = [{"sentence": "x" * 20, "citations": [statute(0, 5, "1"), statute(6, 10, "1")]}]
    scores = evaluate(gold, lambda s: [statute(0, 10, "1")])
    assert (scores.statute.target.tp, scores.statute.target.fp, scores.statute.target.fn) == (1, 0, 1)


def test_same_target() -> None:
    a = statute(0, 5, "709")
    assert same_target(a, statute(1, 4, "709", law_title="民 法"))
    assert not same_target(a, statute(0, 5, "709", paragraph="1"))
    # law_id decides when both sides have one, whatever the titles say
    renamed = "医薬品、医療機器等の品質、有効性及び安全性の確保等に関する法律"
    assert same_target(
        statute(0, 5, "1", law_title="薬事法", law_id="335AC0000000145"),
        statute(0, 5, "1", law_title=renamed, law_id="335AC0000000145"),
    )
    # width and comma style do not make two titles different
    comma, ideographic = "児童買春，児童ポルノ", "児童買春、児童ポルノ"
    assert same_target(statute(0, 5, "7", law_title=ideographic), statute(0, 5, "7", law_title=comma))
    assert not same_target(statute(0, 5, "7", law_title=None), statute(0, 5, "7", law_title=None))


def test_prf_edge_cases() -> None:
    assert PRF().f1 == 1.0  # nothing expected, nothing predicted
    assert PRF(fp=2).precision == 0.0 and PRF(fp=2).recall == 0.0
    assert PRF(fn=1).recall == 0.0 and PRF(fn=1).precision == 0.0
    assert PRF(1, 1, 0) + PRF(0, 0, 1) == PRF(1, 1, 1)


def test_load_gold(tmp_path: Path) -> None:
    path = tmp_path / "gold.jsonl"
    path.write_text(json.dumps(GOLD[0], ensure_ascii=False) + "\n\n" + json.dumps(GOLD[2]) + "\n", encoding="utf-8")
    assert [g["sentence"] for g in load_gold(path)] == [S1, S3]
    path.write_text('{"sentence": "x", "citations": []}\nnot json\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"gold.jsonl:2"):
        load_gold(path)


def test_raw_json_lines_are_accepted() -> None:
    scores = evaluate([json.dumps(g, ensure_ascii=False) for g in GOLD], lambda s: PREDICTIONS[s])
    assert scores.statute.span.tp == 1


def test_the_shipped_gold_is_well_formed() -> None:
    """Every gold citation's span lies in its sentence and spells its surface; statutes name law and article."""
    lines = load_gold(Path(__file__).parent / "data" / "citations" / "dev_gold.jsonl")
    assert len(lines) >= 150
    for line in lines:
        assert line["sentence_end"] - line["sentence_start"] == len(line["sentence"])
        for c in line["citations"]:
            assert line["sentence"][c["start"] : c["end"]] == c["surface"]
            if c["kind"] == "statute":
                assert c["law_title"] and c["article"]
            else:
                assert c["court"] and c["decision_type"]


HELDOUT = Path(__file__).parent / "data" / "citations" / "heldout_gold.jsonl"
DEV = Path(__file__).parent / "data" / "citations" / "dev_gold.jsonl"
_STATUTE_KEYS = {"start", "end", "surface", "kind", "law_title", "article", "article_to", "paragraph", "item"}
_PRECEDENT_KEYS = {"start", "end", "surface", "kind", "court", "date", "decision_type", "case_number", "reporter"}
_OPTIONAL_STATUTE_KEYS = {"paragraph_to", "item_to", "law_id", "suppl", "law_num"}


def test_the_heldout_gold_is_well_formed_and_held_out() -> None:
    """The second gold must stay a fair test: enough sentences and judgments, none shared with the
    development gold, and every entry in the dev layout, so that `lexgraph eval citations` reads both alike."""
    lines = load_gold(HELDOUT)
    docs = {line["doc"] for line in lines}
    annotated = [line for line in lines if line["citations"]]
    assert len(annotated) >= 200
    assert len(docs) >= 40
    assert len(lines) - len(annotated) >= 30  # the hard negatives are there too
    assert not docs & {line["doc"] for line in load_gold(DEV)}
    assert any(d[0] in "567" for d in docs) and any(d[0] in "89" for d in docs)  # old and recent judgments
    seen: set[tuple[str, int]] = set()
    for line in lines:
        where = (line["doc"], line["sentence_start"])
        assert where not in seen, where
        seen.add(where)
        assert line["sentence_end"] - line["sentence_start"] == len(line["sentence"]), where
        assert line["sentence"] == line["sentence"].strip(), where
        previous_end = 0
        for c in sorted(line["citations"], key=lambda c: c["start"]):
            assert line["sentence"][c["start"] : c["end"]] == c["surface"], (where, c)
            assert c["start"] >= previous_end, (where, c)  # no two citations share characters
            previous_end = c["end"]
            if c["kind"] == "statute":
                assert _STATUTE_KEYS <= set(c) <= _STATUTE_KEYS | _OPTIONAL_STATUTE_KEYS, (where, c)
                assert c["law_title"] and c["article"], (where, c)
                for low, high in (("article", "article_to"), ("paragraph", "paragraph_to"), ("item", "item_to")):
                    if c.get(high) is not None:  # a range runs upward from a number that is given
                        assert c[low] is not None and int(c[high]) > int(c[low].split("_")[0]), (where, c)
                if c["item"] is not None:  # an item is always placed in a paragraph (dev_gold's convention)
                    assert c["paragraph"] is not None, (where, c)
            else:
                assert set(c) == _PRECEDENT_KEYS and c["kind"] == "precedent", (where, c)
                assert c["court"] and c["decision_type"] in ("判決", "決定"), (where, c)


@pytest.mark.requires("shared")
def test_the_heldout_gold_sentences_are_the_judgments_text() -> None:
    """Offsets point into the judgment files of ../shared, and the sentence is the text there, verbatim."""
    from tests.helpers import SHARED

    corpus = SHARED / "precedents" / "supreme_court"
    texts: dict[str, str] = {}
    for line in load_gold(HELDOUT):
        if line["doc"] not in texts:
            texts[line["doc"]] = (corpus / line["doc"]).read_text(encoding="utf-8")
        text = texts[line["doc"]]
        assert text[line["sentence_start"] : line["sentence_end"]] == line["sentence"], line["doc"]


@pytest.mark.requires("shared")
def test_judgments_are_replayed_whole_so_context_resolves() -> None:
    """`evaluate_in_documents` reads each judgment whole: 同条項 in 50667 resolves from 憲法三七条二項 written in an
    earlier sentence, which reading the sentence alone cannot do. A missing judgment falls back to the sentence."""
    from lexgraph.citations import extract
    from lexgraph.eval.citations import evaluate_in_documents
    from tests.helpers import SHARED

    lines = [line for line in load_gold(HELDOUT) if line["doc"] == "50667.txt"]
    predict = lambda text: [c.to_json() for c in extract(text)]  # noqa: E731
    whole, replay = evaluate_in_documents(lines, predict, SHARED / "precedents" / "supreme_court")
    alone = evaluate(lines, predict)
    assert replay.replayed == ("50667.txt",) and replay.fallback == ()
    assert whole.statute.target.tp > alone.statute.target.tp
    missing, fallback = evaluate_in_documents(lines, predict, None)
    assert fallback.fallback == ("50667.txt",) and missing.statute == alone.statute


def test_a_missing_judgments_folder_is_an_error_naming_it_and_the_fix(tmp_path: Path) -> None:
    """Without ../shared beside the checkout the golds were read sentence by sentence with no word of it, and the
    figures fell: a folder that is not there is an `Unavailable` naming it and the ways out; a judgment
    an existing folder lacks is still read alone (the literature gold's caption lines)."""
    from lexgraph.citations import extract
    from lexgraph.errors import Unavailable
    from lexgraph.eval.citations import evaluate_in_documents

    lines = load_gold(HELDOUT)[:3]
    predict = lambda text: [c.to_json() for c in extract(text)]  # noqa: E731
    absent = tmp_path / "no such directory"
    with pytest.raises(Unavailable) as raised:
        evaluate_in_documents(lines, predict, absent)
    assert str(absent) in str(raised.value) and "--judgments" in str(raised.value)
    _, replay = evaluate_in_documents(lines, predict, tmp_path)
    assert replay.replayed == () and set(replay.fallback) == {line["doc"] for line in lines}
