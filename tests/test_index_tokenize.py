"""BM25 terms from SudachiPy: normalised forms, no particles or punctuation, clause numbers in ASCII digits."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from lexgraph.index.tokenize import (
    SUDACHI_MAX_BYTES,
    TOKENIZER_VERSION,
    get_tokenizer,
    normalize_numerals,
    split_for_sudachi,
    token_string,
    tokenize,
)
from lexgraph.numerals import int_to_kanji

SAMPLE = Path(__file__).resolve().parents[1] / "lexgraph" / "data" / "sample"
MINPO_709 = (
    "故意又は過失によって他人の権利又は法律上保護される利益を侵害した者は、"
    "これによって生じた損害を賠償する責任を負う。"
)

CASES = [
    # 民法709条, as e-Gov gives it: particles, auxiliaries and punctuation go; verbs are in dictionary form.
    (MINPO_709,
     ["故意", "又", "過失", "よる", "他人", "権利", "又", "法律上", "保護", "為る", "利益", "侵害", "為る", "者",
      "此れ", "よる", "生じる", "損害", "賠償", "為る", "責任", "負う"]),
    # A judgment sentence: full-width digits, comma-style 読点, citations in the reasons.
    ("医療観察法による処遇制度に関し，憲法１４条，３１条，３４条違反をいう点は，",
     ["医療", "観察", "法", "よる", "処遇", "制度", "関する", "憲法", "14", "条", "31", "条", "34", "条", "違反",
      "言う", "点"]),
    ("最高裁昭和３７年（オ）第１４７２号同３９年５月２７日大法廷判決・民集１８巻４号６７６頁",
     ["最高裁", "昭和", "37", "年", "1472", "号", "同", "39", "年", "5", "月", "27", "日", "大法廷", "判決", "民集",
      "18", "巻", "4", "号", "676", "ページ"]),
    # Clause references in statute style: 第 dropped, branch numbers and paragraphs in digits.
    ("民法第七百九条及び第七百十五条第一項の規定により",
     ["民法", "709", "条", "及び", "715", "条", "1", "項", "規定", "よる"]),
    ("前項の規定にかかわらず、第三条の二第一項各号に掲げる者は、この限りでない。",
     ["前項", "規定", "関わる", "3", "条", "2", "1", "項", "各号", "掲げる", "者", "此の", "限り", "無い"]),
    ("民法（明治二十九年法律第八十九号）", ["民法", "明治", "29", "年", "法律", "89", "号"]),
    ("第一編第二章第三節", ["1", "編", "2", "章", "3", "節"]),
    ("第七条の二の三", ["7", "条", "2", "3"]),
    # Words that merely contain numerals or 条 stay words.
    ("前条の一部を改正する", ["前条", "一部", "改正", "為る"]),
    ("同一条件で条約及び条例を", ["同一", "条件", "条約", "及び", "条例"]),
    ("第三者に加えた損害", ["第三者", "加える", "損害"]),
    # Split mode B: compounds in their parts, the parts that are words kept whole.
    ("損害賠償請求権", ["損害", "賠償", "請求権"]),
    ("最高裁判所第一小法廷", ["最高", "裁判所", "1", "小法廷"]),
    # Latin and full-width letters lower-cased; whitespace and symbols dropped.
    ("ＷＴＯ協定　ABC株式会社", ["wto", "協定", "abc", "株式", "会社"]),
    ("", []),
    ("　 \n\t", []),
    ("、。「」（）・※", []),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:12] or "empty" for c in CASES])
def test_tokenize_table(text: str, expected: list[str]) -> None:
    assert tokenize(text) == expected


@pytest.mark.parametrize("text", ["第二十七条", "二十七条", "27条", "２７条", "第27条", "第２７条", "第二七条"])
def test_article_27_in_every_style(text: str) -> None:
    assert tokenize(text) == ["27", "条"]


def test_every_article_number_is_one_term() -> None:
    # SudachiDict has 十七条 and the like as words: without reading the numbers first, 第二十七条 gave 2 / 十七条 for
    # 277 of these 1,200 numbers.
    for unit in "条項号":
        wrong = [n for n in range(1, 1201) if tokenize(f"第{int_to_kanji(n)}{unit}") != [str(n), unit]]
        assert wrong == [], unit


def test_branch_articles() -> None:
    for n in range(1, 60):
        assert tokenize(f"第三条の{int_to_kanji(n)}") == ["3", "条", str(n)]
    assert tokenize("第七百九条の二第一項") == tokenize("709条の2第1項") == ["709", "条", "2", "1", "項"]


@pytest.mark.parametrize(("text", "expected"), [
    ("第二十七条", "第27条"),
    ("七〇九条", "709条"),
    ("第三条の二の三第一項", "第3条の2の3第1項"),
    ("前条の一部", "前条の一部"),
    ("同一条件", "同一条件"),
    ("三分の一以上", "三分の一以上"),
    ("十七条憲法", "17条憲法"),
])
def test_normalize_numerals(text: str, expected: str) -> None:
    assert normalize_numerals(text) == expected


def test_token_string_is_whitespace_separated_terms() -> None:
    s = token_string("ＷＴＯ協定　ABC株式会社は、第二十七条の規定により")
    assert s == "wto 協定 abc 株式 会社 27 条 規定 よる"
    assert s.split(" ") == tokenize("ＷＴＯ協定　ABC株式会社は、第二十七条の規定により")


def test_long_text_is_cut_at_sentence_ends() -> None:
    text = MINPO_709 * 2000  # 2000 sentences, ≈ 300,000 bytes: over Sudachi's limit
    assert len(text.encode()) > SUDACHI_MAX_BYTES
    assert tokenize(text) == tokenize(MINPO_709) * 2000


def test_long_sentence_without_punctuation() -> None:
    text = "損害賠償" * 20_000  # one 240,000-byte sentence
    assert tokenize(text) == ["損害", "賠償"] * 20_000


def test_split_for_sudachi_pieces() -> None:
    text = ("あ" * 10_000 + "。") * 7 + "い" * 40_000
    pieces = list(split_for_sudachi(text))
    assert "".join(pieces) == text
    assert all(len(p.encode()) <= SUDACHI_MAX_BYTES for p in pieces)
    # 30,003-byte sentences, one per piece; then 120,000 bytes without a sentence end, cut where it must be.
    assert [len(p) for p in pieces[:7]] == [10_001] * 7
    assert len(pieces) == 10
    assert list(split_for_sudachi("短い。")) == ["短い。"]


def test_one_tokenizer_per_process_and_threads_agree() -> None:
    assert get_tokenizer() is get_tokenizer()
    assert get_tokenizer().version == TOKENIZER_VERSION
    texts = _clauses(200)
    expected = [tokenize(t) for t in texts]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(tokenize, texts * 3)) == expected * 3


def test_sample_statute_and_judgment() -> None:
    from lexgraph.statutes.egov import parse_law_xml

    path = next(SAMPLE.glob("129AC0000000089_2023*.xml"))  # 民法
    law = parse_law_xml(path.read_bytes(), path.name)
    a709 = next(p for p in law.provisions if p.path == "a709")
    assert a709.text.startswith("第七百九条\u3000")
    assert tokenize(a709.text) == ["709", "条", *tokenize(MINPO_709)]
    judgment = (SAMPLE / "precedents" / "90381.txt").read_text(encoding="utf-8")
    terms = tokenize(judgment)
    assert {"抗告", "棄却", "憲法", "14", "条"} <= set(terms)
    assert all(t and not any(c.isspace() for c in t) for t in terms)


def test_speed_200_clauses() -> None:
    texts = _clauses(200)
    tokenize(texts[0])
    start = time.perf_counter()
    n = sum(len(tokenize(t)) for t in texts)
    elapsed = time.perf_counter() - start
    print(f"\n{n} tokens from 200 clauses in {elapsed * 1000:.0f} ms: {n / elapsed:,.0f} tokens/s")
    assert elapsed < 10  # ≈ 0.1 s here; generous so that a busy machine does not fail it


def _clauses(n: int) -> list[str]:
    from lexgraph.statutes.egov import parse_law_xml

    texts: list[str] = []
    for path in sorted(SAMPLE.glob("*.xml")):
        law = parse_law_xml(path.read_bytes(), path.name)
        texts.extend(p.text for p in law.provisions if p.text)
    return texts[:n]
