"""Fuzzing: whatever the text, extraction never raises and every span lies inside it.

Two kinds of input: arbitrary Unicode, and real sentences (Supreme Court judgments and lawqa_jp statute excerpts)
mutated the way PDF extraction and OCR damage text: line breaks and page numbers inserted anywhere, characters
dropped or repeated, pieces of citation vocabulary spliced in.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph.citations import Citation, CitationContext, extract, extract_with_state
from lexgraph.statutes.catalog import Catalog

CATALOG = Catalog.bundled()

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


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(REAL))
    for _ in range(draw(st.integers(min_value=1, max_value=6))):
        position = draw(st.integers(min_value=0, max_value=len(text)))
        action = draw(st.sampled_from(["insert", "delete", "repeat", "unicode"]))
        if action == "insert":
            text = text[:position] + draw(st.sampled_from(PIECES)) + text[position:]
        elif action == "delete":
            text = text[:position] + text[position + draw(st.integers(min_value=1, max_value=4)):]
        elif action == "repeat":
            text = text[:position] + text[position:position + 3] * 2 + text[position + 3:]
        else:
            text = text[:position] + draw(st.text(max_size=3)) + text[position:]
    return text


def check_spans(text: str, citations: list[Citation]) -> None:
    for c in citations:
        assert 0 <= c.start < c.end <= len(text), c
        assert text[c.start:c.end] == c.surface
        assert c.status in ("resolved", "ambiguous", "unresolved")
        assert c.status == "resolved" or c.reason, c
    assert [c.start for c in citations] == sorted(c.start for c in citations)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.text())
def test_arbitrary_unicode_never_raises(text: str) -> None:
    check_spans(text, extract(text, CitationContext(catalog=CATALOG), precedents=False))


@settings(max_examples=400, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_real_sentences_never_raise(text: str) -> None:
    check_spans(text, extract(text, CitationContext(catalog=CATALOG), precedents=False))


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="".join(sorted(set("".join(PIECES)))), max_size=60))
def test_citation_vocabulary_soup_never_raises(text: str) -> None:
    check_spans(text, extract(text, CitationContext(catalog=CATALOG), precedents=False))


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(), mutated(), st.sampled_from(["a1", "a5/p2", "a2/p1/i17", "a2_12/p1/i1", "p1/i2", "suppl/a3"]))
def test_statute_context_and_carried_state_never_raise(first: str, second: str, at: str) -> None:
    """Inside a statute (金融商品取引法施行令, the clause `at`), with the state of one text carried to the next."""
    context = CitationContext(catalog=CATALOG, current_law_id="340CO0000000321", current_path=at)
    citations, state = extract_with_state(first, context, precedents=False)
    check_spans(first, citations)
    check_spans(second, extract(second, CitationContext(catalog=CATALOG, state=state), precedents=False))


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.text(), mutated()))
def test_full_extract_with_precedents_never_raises(text: str) -> None:
    check_spans(text, extract(text, CitationContext(catalog=CATALOG, citing_court="最高裁判所")))
