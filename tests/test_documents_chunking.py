"""Sentences and chunks of real judgment text, and their offsets into the original.

The contract the chunks are held to (see lexgraph.documents.chunking): for every chunk c of a text t,
``visible_text(t, c.start, c.end) == re.sub(r"\\s", "", c.text)``, i.e. the chunk is exactly the original
stretch minus whitespace (line breaks, spaces, form feeds) and page-number lines such as 「- 1 -」.
"""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph.documents.chunking import (
    Chunk,
    Span,
    chunk_text,
    split_sentences,
    typical_line_width,
    visible_text,
)
from lexgraph.documents.judgment import ParsedJudgment, read_judgment
from tests.helpers import ROOT

FIXTURES = ROOT / "tests" / "data" / "precedents"
JUDGMENTS = ["91244.txt", "92453.txt", "92361.txt", "51174.txt", "55076.txt", "85407.txt", "50078.txt"]


def _squash(text: str) -> str:
    return re.sub(r"\s", "", text)


def _judgment(name: str) -> ParsedJudgment:
    return read_judgment(FIXTURES / name)


def _check_contract(text: str, chunks: list[Chunk], size: int) -> None:
    for c in chunks:
        assert visible_text(text, c.start, c.end) == _squash(c.text), c
        assert len(c.text) <= size, c
        assert c.text == c.text.strip() and c.text
        assert c.start < c.end


# ----------------------------------------------------------------------------------------------------
# Sentences


def test_sentences_join_pdf_line_breaks() -> None:
    j = _judgment("91244.txt")
    sentences = [s.text for s in split_sentences(j.text, j.sections)]
    # 主文 is set narrower (24 characters) than the 理由 (37): its lines are joined all the same
    assert ("原判決中、被上告人らの上告人に対する損害賠償請求に関する部分を破棄し、同部分につき第１審判決を取り消す。"
            in sentences)
    # A heading (a short line) ends a sentence; a line that runs to the margin does not
    assert "事案の概要" in sentences
    after = sentences[sentences.index("事案の概要") + 1]
    assert after.startswith("本件は、被上告人らが、上告人に対し、平成２３年３月１１日")
    assert "上告代理人岩渕正紀ほかの上告理由について" in sentences
    # 「（以下「本件事故」という。）」 does not end the sentence at its 。
    assert any("（以下「本件事故」という。）により放出された" in s for s in sentences)
    assert sentences[-1] == "よって、裁判官全員一致の意見で、主文のとおり判決する。"


def test_sentences_cross_page_breaks() -> None:
    # 81956 (../shared), lines around the end of page 1: the page number and the form feed are dropped
    text = ("ない旨主張する。しかしながら，上記事実関係によれば，被告人は，病院で勤務中\n"
            "ないし研究中であった被害者に対し，睡眠薬等を摂取させたことによって，約６時\n- 1 -\n\n"
            "\x0c間又は約２時間にわたり意識障害及び筋弛緩作用を伴う急性薬物中毒の症状を生じ\n"
            "させ，もって，被害者の健康状態を不良に変更し，その生活機能の障害を惹起した\n"
            "ものであるから，いずれの事件についても傷害罪が成立すると解するのが相当であ\n"
            "る。所論指摘の昏酔強盗罪等と強盗致傷罪等との関係についての解釈が傷害罪の成\n")
    sentences = split_sentences(text)
    assert [s.text[:8] for s in sentences] == ["ない旨主張する。", "しかしながら，上", "所論指摘の昏酔強"]
    second = sentences[1]
    assert "約６時間又は約２時間" in second.text and "- 1 -" not in second.text and "\f" not in second.text
    assert second.text.endswith("解するのが相当である。")
    assert text[second.start:second.end].startswith("しかしながら") and text[second.start:second.end].endswith("る。")
    assert "\n- 1 -\n" in text[second.start:second.end]


def test_unwrapped_text_keeps_its_line_breaks() -> None:
    # A text with one paragraph per line (the tax answers) has no typical width: every line break counts
    text = ("源泉所得税\n源泉徴収義務者が源泉所得税および復興特別所得税を納め過ぎたときには、\n"
            "「源泉所得税及び復興特別所得税の誤納額還付請求書」\n（以下「還付請求書」といいます。）を作成し、"
            "誤りが生じた事実を記載した帳簿書類の写し等を添付して、源泉所得税の納税地の所轄税務署長に提出することで、"
            "納め過ぎた源泉徴収税額（以下「過誤納金」といいます。）の還付を請求することができます。\n\n"
            "### 還付請求できる過誤納金\n還付請求できる過誤納金とは、次に掲げる額をいいます。\n")
    assert typical_line_width(text) is None
    sentences = [s.text for s in split_sentences(text)]
    assert sentences[0] == "源泉所得税"
    assert sentences[1].startswith("源泉徴収義務者が") and sentences[1].endswith("還付を請求することができます。")
    assert "「源泉所得税及び復興特別所得税の誤納額還付請求書」（以下「還付請求書」といいます。）を作成し" in (
        sentences[1])
    assert sentences[2:] == ["### 還付請求できる過誤納金", "還付請求できる過誤納金とは、次に掲げる額をいいます。"]


def test_typical_width_of_judgments() -> None:
    for name in JUDGMENTS:
        assert typical_line_width(_judgment(name).text) in (72, 74), name


# ----------------------------------------------------------------------------------------------------
# Chunks


@pytest.mark.parametrize("name", JUDGMENTS)
@pytest.mark.parametrize(("size", "overlap"), [(400, 80), (120, 40), (60, 0), (30, 10)])
def test_chunks_of_real_judgments_keep_the_contract(name: str, size: int, overlap: int) -> None:
    j = _judgment(name)
    chunks = chunk_text(j.text, j.sections, size=size, overlap=overlap)
    _check_contract(j.text, chunks, size)
    assert [c.seq for c in chunks] == list(range(len(chunks)))
    names = {s.name for s in j.sections}
    assert {c.section for c in chunks} == names
    for c in chunks:  # a chunk stays inside its section
        section = next(s for s in j.sections if s.name == c.section)
        assert section.start <= c.start and c.end <= section.end


@pytest.mark.parametrize(("name", "size", "overlap"), [("92453.txt", 200, 60), ("91244.txt", 300, 100)])
def test_chunks_respect_sentences_and_overlap(name: str, size: int, overlap: int) -> None:
    j = _judgment(name)
    chunks = chunk_text(j.text, j.sections, size=size, overlap=overlap)
    sentences = split_sentences(j.text, j.sections)
    starts = {s.start for s in sentences}
    ends = {s.end for s in sentences}
    longest = max(len(s.text) for s in sentences)
    assert longest <= size  # so no sentence of this judgment is cut
    for c in chunks:
        assert c.start in starts and c.end in ends, c
    overlapping = 0
    for a, b in itertools.pairwise(chunks):
        assert a.start < b.start and a.end < b.end
        if a.section != b.section:
            assert a.end <= b.start
            continue
        if b.start < a.end:  # the next chunk repeats the last sentences of the one before
            overlapping += 1
            shared = [s for s in sentences if b.start <= s.start and s.end <= a.end]
            assert shared and sum(len(s.text) for s in shared) <= overlap
            assert a.text.endswith(shared[-1].text) and b.text.startswith(shared[0].text)
        else:  # only when the sentence ending the chunk is longer than the overlap
            last = next(s for s in sentences if s.end == a.end)
            assert len(last.text) > overlap
    assert overlapping >= 2


def test_default_sizes_on_a_judgment() -> None:
    j = _judgment("91244.txt")
    chunks = chunk_text(j.text, j.sections)
    _check_contract(j.text, chunks, 400)
    assert [c.section for c in chunks][:2] == ["主文", "理由"] and len(chunks) >= 3
    assert all(a.end > b.start for a, b in itertools.pairwise(chunks[1:]))  # overlap
    assert max(len(c.text) for c in chunks) > 300  # chunks are filled up to about `size`


def test_over_long_sentence_is_cut_at_commas() -> None:
    # 88202 (../shared): one sentence of about 500 characters listing electoral districts
    districts = "東京都第１区から同第２５区まで，茨城県第１区から同第７区まで，栃木県第１区から同第５区まで，"
    sentence = districts * 6 + "であった。"
    chunks = chunk_text(sentence, size=100, overlap=20)
    _check_contract(sentence, chunks, 100)
    assert all(c.text.endswith("，") for c in chunks[:-1])
    assert chunks[-1].text.endswith("であった。")
    hard = chunk_text("あ" * 250, size=100, overlap=0)  # no 、 anywhere: cut hard
    assert [len(c.text) for c in hard] == [100, 100, 50]


def test_chunk_offsets_map_citations_back() -> None:
    j = _judgment("91244.txt")
    for c in chunk_text(j.text, j.sections, size=120, overlap=30):
        for i, ch in enumerate(c.text):
            if not ch.isspace():
                assert j.text[c.original_offset(i)] == ch
        at = c.text.find("民法７０９条")
        if at >= 0:  # a citation found in the chunk maps to the same characters of the original
            start, end = c.original_offset(at), c.original_offset(at + len("民法７０９条") - 1) + 1
            assert j.text[start:end] == "民法７０９条"
        assert c.original_offset(len(c.text)) == c.end
    with pytest.raises(ValueError, match="outside the chunk"):
        c.original_offset(len(c.text) + 1)


def test_chunk_offsets_across_a_line_break() -> None:
    text = "本件は、被上告人らが、上告人に対し、平成２３年３月１１日に発生した東北地\n方太平洋沖地震に伴う事故である。"
    (c,) = chunk_text(text, line_width=74)
    assert c.text == text.replace("\n", "")
    i = c.text.index("方太平洋")
    assert c.original_offset(i) == text.index("方太平洋")
    assert c.original_offset(i - 1) == text.index("地\n")


def test_sections_can_be_any_span() -> None:
    text = "主文のとおり判決する。\n- 2 -\n理由は次のとおりである。"
    chunks = chunk_text(text, [Span("前", 0, 11), Span("後", 11, len(text))], size=50, overlap=10)
    assert [(c.section, c.text) for c in chunks] == [
        ("前", "主文のとおり判決する。"), ("後", "理由は次のとおりである。")]


@pytest.mark.parametrize(("size", "overlap", "message"), [
    (0, 0, "chunk size must be a positive number"),
    (-5, 0, "chunk size must be a positive number"),
    (True, 0, "chunk size must be a positive number"),
    (100, 100, r"overlap must be smaller than the chunk size \(got overlap=100, size=100\)"),
    (100, 150, "overlap must be smaller"),
    (100, -1, "overlap must be zero or a positive number"),
    (100.0, 10, "chunk size must be a positive number"),
])
def test_size_validation(size: int, overlap: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        chunk_text("本件上告を棄却する。", size=size, overlap=overlap)


def test_empty_text() -> None:
    assert chunk_text("") == []
    assert chunk_text("\n\n- 1 -\n\f") == []
    assert split_sentences("  \n") == []


# ----------------------------------------------------------------------------------------------------
# Fuzzing


_PIECES = [*"。、，本件上告を棄却する理由はあいうabc12 \u3000\t」）（「", "\n", "\n", "\n\n", "\n- 3 -\n", "\f",
           "裁判官全員一致の意見で、主文のとおり判決する。", "ｘ" * 37 + "\n", "(1)"]


def _texts() -> st.SearchStrategy[str]:
    return st.one_of(st.text(max_size=300), st.lists(st.sampled_from(_PIECES), max_size=150).map("".join))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_texts(), size=st.integers(1, 120), data=st.data(), width=st.sampled_from([None, 0, 20, 74]))
def test_chunker_fuzz(text: str, size: int, data: st.DataObject, width: int | None) -> None:
    overlap = data.draw(st.integers(0, size - 1))
    chunks = chunk_text(text, size=size, overlap=overlap, line_width=width)
    _check_contract(text, chunks, size)
    # In order, and together they cover every visible character of the text
    assert [c.seq for c in chunks] == list(range(len(chunks)))
    for a, b in itertools.pairwise(chunks):
        assert a.start < b.start and a.end < b.end
        if b.start > a.end:  # nothing visible falls between two chunks
            assert visible_text(text, a.end, b.start) == ""
    if chunks:
        assert visible_text(text, 0, chunks[0].start) == ""
        assert visible_text(text, chunks[-1].end) == ""
    else:
        assert visible_text(text) == ""
    # Sentences cover the text the same way
    sentences = split_sentences(text, line_width=width)
    assert "".join(_squash(s.text) for s in sentences) == visible_text(text)
    for c in chunks:
        for i in range(len(c.text)):
            if not c.text[i].isspace():
                assert text[c.original_offset(i)] == c.text[i]
