"""Fuzzing: whatever the text, extraction never raises and every span lies inside it.

Two kinds of input: arbitrary Unicode, and real sentences (Supreme Court judgments and lawqa_jp statute excerpts)
mutated the way PDF extraction and OCR damage text: line breaks and page numbers inserted anywhere (also inside
numbers, where a case number or a date breaks across lines), characters dropped or repeated, pieces of citation
vocabulary spliced in.

The example counts keep CI quick. To look for crashes harder, scale them up and vary the seed:

    LEXGRAPH_FUZZ_SCALE=10 .venv/bin/python -m pytest -q tests/test_citations_fuzz.py --hypothesis-seed=7
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph.citations import Citation, CitationContext, extract, extract_with_state
from lexgraph.citations.precedents import PrecedentMention, find_precedents
from lexgraph.statutes.catalog import Catalog

CATALOG = Catalog.bundled()
SCALE = float(os.environ.get("LEXGRAPH_FUZZ_SCALE", "1"))


def examples(n: int) -> int:
    """`n` examples in CI, `n` × LEXGRAPH_FUZZ_SCALE when hunting for crashes locally."""
    return max(1, round(n * SCALE))


def fuzz_settings(n: int) -> settings:
    return settings(max_examples=examples(n), deadline=None, suppress_health_check=[HealthCheck.too_slow])


REAL = [
    "人権侵害行為として，民法７０９条に基づき本人に対し不法行為による損害賠償を求める",
    "母である上告人らに対し，民法７０９条又は７１４条１項に基づく損害賠償を求める",
    "害者の過失となし民法七二二条二項を適用すべきではない",
    "よって、刑訴法四一四条、三八六条一項三号により、裁判官全員一致の意見で、主文のとおり決定する。",
    "地方税法７２条，７２条の２第１項１号イ，７２条の１２第１号ハ）。なお，",
    "国家公務員法１１０条１項１９号（平成１９年法律第１０８号による改正前のもの），１０２条１項，人事院規則",
    "平成２２年１月，日本年金機構法（平成１９年法律第１０９号。以下「機構法」という。）の施行により，",
    "判示して，刑訴法３９７条１項，３８\n\n- 1 -\n\n０条により第１審判決を破棄し",
    "最高裁平成１３年（受）第１７６０号同１６年４月２７日第三小法廷判決・民集５８巻４号１０３２頁参照",
    "法第二条第一項第四号、第八号、第十三号及び第十五号に掲げる有価証券",
    "金融商品取引法第二条に規定する定義に関する内閣府令（平成五年大蔵省令第十四号。以下「定義府令」という。）第十六条第一項第八号イ",
    "外国又は外国の者の発行する証券又は証書で第一号から第九号まで又は第十二号から前号までに掲げる証券",
    "置法五条一項、六条一、三項）。そして，同条４，５項により減額",
    "平成１５年法律第９号による改正前の地\n- 1 -\n方税法（以下「改正前地方税法」という。）は，",
    "同法施行令（以下令と略称する）五条の四第三項及び児童扶養手当法五条",
]

# Pieces of citation vocabulary to splice in, so that mutations land on the parser's decision points.
PIECES = ["第", "条", "項", "号", "の", "二", "十", "百", "７", "0", "、", "及び", "から", "まで", "ないし", "前", "次",
          "同", "本", "この", "法", "令", "（", "）", "「", "」", "以下", "という。", "による改正前の", "附則", "イ",
          "ロ", "(1)", "ただし書", "各号", "平成", "年", "法律第", "\n", " ", "　", "- 3 -", "\f", "民法", "同法"]


# Real precedent citations as the judgments print them, line breaks and page numbers included: one for each
# branch of the grammar (case number before or after the date, labels before a parenthesis, lists with 同年,
# abbreviations, lower courts, a reporter with no date), so that mutations land near every decision point.
PRECEDENT_REAL = [
    # 56421.txt: the case number after 言渡, split by a line break; crashed without a citing court
    "ないこと既に当裁判所の判例とする処で（昭和二十二年十二月十六日言渡昭和二十\n二年（れ）第十三六号事件判決参照）今なお",
    "い（大審院昭和二年（れ）第一〇〇七号\n昭和二年十一月十五日言渡判決参照）本件に於て",
    "掲記の大審院判決（昭和八年（\nれ）第一二七号同年四月一九日言渡、集一二巻四七一頁）の要旨は",
    "判例とするところである（最判昭和二二年（れ）第三一九号、同二四\n- 1 -\n\n\x0c年五月一八日大法廷判決、刑集三巻六号"
    "七七二頁）。",
    "（最\n高裁平成１３年（オ）第８５１号、同年（受）第８３７号同１４年９月２４日第三\n小法廷判決・裁判集民事２０７号２４３頁"
    "、同２８年１０月１８日第三小法廷決定・民集７０巻７号１７２５頁参照）",
    "（最高裁昭和６３年（オ）第３８５号平成元年９月１４日第一小法廷判決・\n裁判集民事１５７号５５５頁参照）",
    "名古屋高\n- 1 -\n\n\x0c等裁判所金沢支部平成２５年（う）第６５号同２６年３月１８日判決・高等裁判所\n"
    "刑事裁判速報集平成２６年１４０頁（以下「金沢支部判決」という。）",
    "公務員の過失を組織的過失と捉える裁判例（東京高判平成４年１２月１８日・\n高民集４５巻３号２１２頁等）が支配的",
    "札幌高等裁判所平成２８年（行ケ）第２号選挙無効請求事件について同裁判所\nが平成２８年１１月２日に言い渡した判決",
    "所論引用の当裁判所大法廷昭和３５年１０月１９日判決\nその他の当裁判所の判例は，",
    "良な性的道義\n観念に反するものをいう」としている（第一小法廷判決、最高裁判所刑事判例集五\n- 2 -\n\n\x0c"
    "巻六号一〇二六頁以下）。",
    "所論の引用する判例（大審院昭和一三年（オ）\n第二三八五号同一四年一二月二一日判決・民集一八巻一六二一頁）が、",
    "（最高裁平成２４年（ク）第９８４号，第９８５号同２５年９月４日大\n法廷決定・民集６７巻６号１３２０頁）",
    "（昭和三一年七月一八日判決、判例集一〇巻七号一一四七頁、同年九月二六日判決、判例集一〇巻九号一三九三頁）",
    "令和元年７月２２日\n\n命令服従義務不存在確認請求事件\n\n第一小法廷判決\n主\n\n文",
]
PRECEDENT_PIECES = [
    "判例（", "判決（", "大審院判決（", "当裁判所の", "同裁判所", "言渡", "言渡し", "宣告", "事件", "判決", "決定",
    "命令", "審判", "各", "同年", "同月", "同日", "同", "元年", "昭和", "平成", "令和", "二十", "〇", "５", "（れ）",
    "（オ）", "（行ヒ）",
    "第", "号", "の", "、", "，", "及び", "ないし", "最高裁", "最判", "最三小決", "大判", "東京高判", "大法廷",
    "第一小法廷", "刑事第二部", "・民集", "集", "巻", "頁", "（", "）", "。", "「", "」", "\n", "\n- 12 -\n\n\x0c", " ",
]  # fmt: skip
NUMERALS = frozenset("0123456789０１２３４５６７８９〇一二三四五六七八九十百千元")
LINE_BREAKS = ["\n", "\n\n", "\n- 3 -\n\n\x0c", " ", "\u3000"]
CITING_COURTS = st.sampled_from([None, "最高裁判所", "東京高等裁判所"])


@st.composite
def mutated(draw: st.DrawFn, sentences: list[str] = REAL, pieces: list[str] = PIECES) -> str:
    text = draw(st.sampled_from(sentences))
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        position = draw(st.integers(min_value=0, max_value=len(text)))
        action = draw(st.sampled_from(["insert", "delete", "repeat", "unicode", "break"]))
        if action == "insert":
            text = text[:position] + draw(st.sampled_from(pieces)) + text[position:]
        elif action == "delete":
            text = text[:position] + text[position + draw(st.integers(min_value=1, max_value=4)):]
        elif action == "repeat":
            text = text[:position] + text[position:position + 3] * 2 + text[position + 3:]
        elif action == "unicode":
            text = text[:position] + draw(st.text(max_size=3)) + text[position:]
        else:  # a line break or page number inside a number, where PDF extraction splits 「昭和二十\n二年」
            inside = [i for i in range(1, len(text)) if text[i - 1] in NUMERALS and text[i] in NUMERALS]
            at = draw(st.sampled_from(inside)) if inside else position
            text = text[:at] + draw(st.sampled_from(LINE_BREAKS)) + text[at:]
    return text


def check_spans(text: str, citations: list[Citation]) -> None:
    for c in citations:
        assert 0 <= c.start < c.end <= len(text), c
        assert text[c.start:c.end] == c.surface
        assert c.status in ("resolved", "ambiguous", "unresolved")
        assert c.status == "resolved" or c.reason, c
    assert [c.start for c in citations] == sorted(c.start for c in citations)


def check_precedents(text: str, found: list[PrecedentMention]) -> None:
    previous_end = 0
    for m in found:
        assert previous_end <= m.start < m.end <= len(text), m  # in order, no overlaps
        assert text[m.start:m.end] == m.surface
        assert m.date is None or len(m.date) == 10
        assert m.status == "resolved" or m.reason, m
        previous_end = m.end


@fuzz_settings(300)
@given(st.text())
def test_arbitrary_unicode_never_raises(text: str) -> None:
    check_spans(text, extract(text, CitationContext(catalog=CATALOG), precedents=False))


@fuzz_settings(400)
@given(mutated())
def test_mutated_real_sentences_never_raise(text: str) -> None:
    check_spans(text, extract(text, CitationContext(catalog=CATALOG), precedents=False))


@fuzz_settings(200)
@given(st.text(alphabet="".join(sorted(set("".join(PIECES)))), max_size=60))
def test_citation_vocabulary_soup_never_raises(text: str) -> None:
    check_spans(text, extract(text, CitationContext(catalog=CATALOG), precedents=False))


@fuzz_settings(150)
@given(mutated(), mutated(), st.sampled_from(["a1", "a5/p2", "a2/p1/i17", "a2_12/p1/i1", "p1/i2", "suppl/a3"]))
def test_statute_context_and_carried_state_never_raise(first: str, second: str, at: str) -> None:
    """Inside a statute (金融商品取引法施行令, the clause `at`), with the state of one text carried to the next."""
    context = CitationContext(catalog=CATALOG, current_law_id="340CO0000000321", current_path=at)
    citations, state = extract_with_state(first, context, precedents=False)
    check_spans(first, citations)
    check_spans(second, extract(second, CitationContext(catalog=CATALOG, state=state), precedents=False))


@fuzz_settings(150)
@given(st.one_of(st.text(), mutated(), mutated(PRECEDENT_REAL, PRECEDENT_PIECES)), CITING_COURTS)
def test_full_extract_with_precedents_never_raises(text: str, citing_court: str | None) -> None:
    check_spans(text, extract(text, CitationContext(catalog=CATALOG, citing_court=citing_court)))


@fuzz_settings(600)
@given(mutated(PRECEDENT_REAL, PRECEDENT_PIECES), CITING_COURTS)
def test_mutated_precedents_never_raise(text: str, citing_court: str | None) -> None:
    """Real precedent citations, damaged, with and without a citing court: without one, more citations fall
    through to the case-code lookup (the path that crashed on 56421.txt)."""
    check_precedents(text, find_precedents(text, citing_court=citing_court))


@fuzz_settings(300)
@given(st.text(alphabet="".join(sorted(set("".join(PRECEDENT_PIECES)))), max_size=60), CITING_COURTS)
def test_precedent_vocabulary_soup_never_raises(text: str, citing_court: str | None) -> None:
    check_precedents(text, find_precedents(text, citing_court=citing_court))
