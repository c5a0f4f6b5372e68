"""The GiNZA extractor (`lexgraph.citations.ginza`) on sentences of Supreme Court judgments where its parse and
the rules decide differently, and where they must agree.

Every text below is copied from a judgment of ../shared/data/precedents/supreme_court (file and offset given),
whitespace as in the file, with the definition sentence the citation depends on put before it where one is
needed. GiNZA (ja_ginza) is a test dependency, as for tests/test_spacy_component.py: without it these tests error.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph.citations import Citation, CitationContext, extract
from lexgraph.citations.extractors import EXTRACTORS, RuleExtractor, extractor_named
from lexgraph.citations.ginza import SUDACHI_MAX_BYTES, GinzaExtractor, load_ginza
from lexgraph.statutes.catalog import Catalog
from tests.helpers import lexgraph

SUPREME_COURT = CitationContext(citing_court="最高裁判所")

# 83087.txt (= 083087_hanrei.txt), 平成２５年３月２１日 第一小法廷判決 (神奈川県臨時特例企業税), offsets 390 and 857.
KANAGAWA_DEFINITION = ("本件は，神奈川県臨時特例企業税条例（平成１３年神奈川県条例第３７号。\n\n以下「本件条例」"
                       "という。）に基づき道府県法定外普通税（以下「法定外普通税」\nという。")
KANAGAWA_TAX_ACT = (
    "\nまた，改正前地方税法は，本件条例が施行された平成１３年８月当時の法人事業\n税の標準税率について，一般の法人の場合"
    "には，各事業年度の所得のうち年４００\n万円以下の金額につき１００分の５，年４００万円を超え年８００万円以下の金額\nにつき"
    "１００分の７．３，年８００万円を超える金額につき１００分の９．６とす\nる旨を定めていた（７２条の２２第１項３号，附則４０条"
    "１０項）。")
# The same judgment, offset 2094.
KANAGAWA_ORDINANCE = (
    "\n(4)\n\n本件条例は，当分の間の措置として，神奈川県内に事務所又は事業所を設\n\nけて行う資本金等の金額が５億円以上の"
    "法人の事業活動に対し，当該法人に，地方\n税法４条３項に基づく法定外普通税である特例企業税を課する旨を定めている（２\n条，"
    "３条１号，５条）。")
ORDINANCE_TEXT = KANAGAWA_DEFINITION + KANAGAWA_ORDINANCE
# 85148.txt, 平成２７年６月８日 第二小法廷判決 (専修大学事件), offsets 690 and 760.
RULES_DEFINITION = "Ｙ勤務員災害補償規程（以下「本件規程」とい\nう。）を定めている。"
RULES_ARTICLE = (
    "\n本件規程には，上告人において，①専任の勤務員が業務災害等により欠勤し，３\n年を経過しても就業できない場合は，"
    "勤続年数に応じた所定の期間を休職とする旨\n\nの規定（１３条），②専任の勤務員が休職期間を満了してもなお休職事由が消滅し\n"
    "ないときは，解職とする旨の規定（１４条３号），③労災保険法に基づく休業補償\n等を受けている者のうち上告人から法定外補償金の"
    "支払を受けている者が上記②の\n規定等に該当して解職となるときは，労働基準法８１条の規定を適用し，平均賃金\nの１２００日分相当額"
    "を打切補償金として支払う旨の規定（９条）がある。")
# 86753.txt, offset 601.
NATIONALITY = (
    "\n(2)\n\nそして，戸籍法は，国籍法１２条に規定する国籍留保の意思表示は，出生\n\nの届出をすることができる者が，"
    "出生の日から３箇月以内に，出生の届出と共に，\n国籍留保の届出をすることによってしなければならず（１０４条１項，２項），"
    "天\n災その他上記の者の責めに帰することができない事由によって上記の期間内に届出\nをすることができないときは，"
    "その届出期間は，届出をすることができるに至った\n\n\x0c時から１４日とする（同条３項）と規定している。")
# 90462.txt (辺野古 さんご類特別採捕許可, 令和３年７月６日 第三小法廷判決), offsets 292 and 4459.
FISHERY = (
    "沖縄県漁\n業調整規則（昭和４７年沖縄県規則第１４３号。令和２年沖縄県規則第５３号によ\nる改正前のもの。以下「本件規則」"
    "という。）４１条に基づき"
    "\n本件規則は，漁業法等その他漁業に関する法令とあいまって，沖縄県におけ\nる水産資源の保護培養，漁業調整等を図ることを"
    "目的とし（１条），造礁さんご類\nの採捕を全面的に禁止しつつ（３３条２項），知事から個別の特別採捕許可を受け\nた者が行う"
    "試験研究等に限り，その禁止を例外的に解除することとしている（４１\n条１項）。")
# 89968.txt, offset 955: 同法 in a clause whose subject is 社債, not 利息制限法.
BONDS = (
    "\n５\n\n利息制限法１条は，「金銭を目的とする消費貸借」における利息の制限につ\n\nいて規定しているところ，社債は，"
    "会社法の規定により会社が行う割当てにより発\n生する当該会社を債務者とする金銭債権であり（同法２条２３号），社債権者が社\n"
    "債の発行会社に一定の額の金銭を払い込むと償還日に当該会社から一定の額の金銭\nの償還を受けることができ，利息について"
    "定めることもできるなどの点において\nは，一般の金銭消費貸借における貸金債権と類似する。")
# 84578.txt, 平成２６年１０月２３日 第一小法廷判決 (生活保護 指示), offsets 1700 and 1830.
WELFARE = ("生活保護法６２条１項は，保護の実施機関が同法２７条の規定により被保\n\n護者に対し必要な指導又は指示を"
           "したときは，被保護者はこれに従わなければなら\nない旨を定め，同法６２条３項は，被保護者がこの義務に違反したときは，保護の\n"
           "実施機関において保護の廃止等をすることができる旨を定めている。"
           "そして，生活\n保護法施行規則１９条は，同法６２条３項に規定する保護の実施機関の権限につ\nき，同法２７条１項の"
           "規定により保護の実施機関が書面によって行った指導又は指示に被保護者が従わなかった場合でなければ"
           "行使してはならない旨を定めている。")
# 55816.txt (砂川事件, 昭和３４年１２月１６日 大法廷判決), offset 231: 前項 inside a quote of 同条二項.
SUNAGAWA = (  # the sentence of tests/data/citations/dev_gold.jsonl
    "そもそも憲法九条は、わ\nが国が敗戦の結果、ポツダム宣言を受諾したことに伴い、日本国民が過去における\n"
    "わが国の誤つて犯すに至つた軍国主義的行動を反省し、政府の行為によつて再び戦\n争の惨禍が起ることのない"
    "ようにすることを決意し、深く恒久の平和を念願して制\n定したものであつて、前文および九八条二項の国際協"
    "調の精神と相まつて、わが憲\n法の特色である平和主義を具体化した規定である。すなわち、九条一項において"
    "は\n「日本国民は、正義と秩序を基調とする国際平和を誠実に希求」することを宣言し、\nまた「国権の発動た"
    "る戦争と、武力による威嚇又は武力の行使は、国際紛争を解決\nする手段としては、永久にこれを放棄する」と"
    "規定し、さらに同条二項においては、\n「前項の目的を達するため、陸海空軍その他の戦力はこれを保持しない"
    "。国の交戦\n権は、これを認めない」と規定した。"
)
# 83192.txt (水俣病認定, 平成２５年４月１６日 第三小法廷判決), offsets 153 and 1465: 前項 of the clause that is the
# subject of 「…旨規定していた」.
MINAMATA_LAW = ("４９年８月１日，上告人熊本県知事（以下「上告人知事」という。）に対し，公害\nに係る健康被害の救済に"
                "関する特別措置法（昭和４４年法律第９０号。昭和４８年\n法律第１１１号により廃止。以下「救済法」という。）")
MINAMATA = (
    "昭和４４年に制定された救済法は，事業活動その他の人の活動に伴う相当範\n\n囲にわたる著しい大気の汚染又は水質の汚濁の"
    "影響による疾病にかかった者の健康\n被害の救済を図ることを目的とするものである（１条）ところ，同法２条１項は，\n同法に"
    "おいて「指定地域」とは，事業活動その他の人の活動に伴って相当範囲にわ\nたる著しい大気の汚染又は水質の汚濁が生じたため，"
    "その影響による疾病が多発し\nている地域で政令で定めるものをいう旨規定し，同条２項は，前項の政令において\nは，併せて同項に"
    "規定する疾病を定めなければならない旨規定していた。")


@dataclass(frozen=True)
class Case:
    """A citation whose law the rules take from the law named last and the parse from the clause's subject."""

    source: str
    text: str
    surface: str
    rules_law: str
    ginza_law: str
    decided_here: bool = True  # False: 同条 that follows the citation the parse decided


DISAGREE = [
    # The article is of the subject 改正前地方税法, not of 本件条例 named in 「本件条例が施行された…当時」.
    Case("83087.txt@857", KANAGAWA_DEFINITION + KANAGAWA_TAX_ACT, "７２条の２２第１項３号",
         "神奈川県臨時特例企業税条例", "地方税法"),
    Case("83087.txt@857", KANAGAWA_DEFINITION + KANAGAWA_TAX_ACT, "附則４０条１０項", "神奈川県臨時特例企業税条例",
         "地方税法"),
    # The articles are of the subject 本件条例, not of 地方税法 named in 「地方税法４条３項に基づく…特例企業税」.
    Case("83087.txt@2094", ORDINANCE_TEXT, "２\n条", "地方税法", "神奈川県臨時特例企業税条例"),
    Case("83087.txt@2094", ORDINANCE_TEXT, "３条１号", "地方税法", "神奈川県臨時特例企業税条例"),
    Case("83087.txt@2094", ORDINANCE_TEXT, "５条", "地方税法", "神奈川県臨時特例企業税条例"),
    # 「本件規程には，…労働基準法８１条の規定を適用し，…支払う旨の規定（９条）がある」: 本件規程 の 9条.
    # 「戸籍法は，国籍法１２条に規定する…意思表示は，…しなければならず（１０４条１項）」: the subject is 戸籍法.
    Case("86753.txt@601", NATIONALITY, "１０４条１項", "国籍法", "戸籍法"),
    Case("86753.txt@601", NATIONALITY, "同条３項", "国籍法", "戸籍法", decided_here=False),
    # 「本件規則は，漁業法等その他漁業に関する法令とあいまって，…目的とし（１条）」: the rule's own article 1.
    Case("90462.txt@4459", FISHERY, "１条", "漁業法", "沖縄県漁業調整規則"),
    Case("90462.txt@4459", FISHERY, "３３条２項", "漁業法", "沖縄県漁業調整規則"),
    Case("85148.txt@760", RULES_DEFINITION + RULES_ARTICLE, "９条", "労働基準法", "勤務員災害補償規程"),
]


@pytest.fixture(scope="module")
def ginza() -> GinzaExtractor:
    return GinzaExtractor(load_ginza())


def one(citations: list[Citation], text: str, surface: str) -> Citation:
    found = [c for c in citations if c.surface == surface]
    assert len(found) == 1, (surface, [c.surface for c in citations])
    assert text[found[0].start:found[0].end] == surface
    return found[0]


@pytest.mark.parametrize("case", DISAGREE, ids=lambda c: f"{c.source}:{c.surface}")
def test_the_parse_gives_a_bare_article_the_law_of_its_clause_subject(ginza: GinzaExtractor, case: Case) -> None:
    by_rules = one(extract(case.text, SUPREME_COURT), case.text, case.surface)
    by_parse = one(ginza.extract(case.text, SUPREME_COURT), case.text, case.surface)
    assert by_rules.law_title == case.rules_law  # what the rules read: the law named last
    assert by_parse.law_title == case.ginza_law
    # decided by the parse, or carried on from the list member before it that the parse decided (（２条，３条１号）)
    reason = by_parse.reason or ""
    assert not case.decided_here or ("by the sentence's parse" in reason
                                     or f"law taken from the law named before ({case.ginza_law})" in reason)
    # only the law changes: the clause is the one written
    assert (by_parse.article, by_parse.paragraph, by_parse.item) == (by_rules.article, by_rules.paragraph,
                                                                      by_rules.item)


def test_the_subject_law_keeps_its_version_pin(ginza: GinzaExtractor) -> None:
    text = KANAGAWA_DEFINITION + KANAGAWA_TAX_ACT
    cited = one(ginza.extract(text, SUPREME_COURT), text, "７２条の２２第１項３号")
    assert (cited.law_title, cited.version_note) == ("地方税法", "改正前")


@pytest.mark.parametrize(("source", "text", "surface", "law", "path"), [
    # 同法 after a 施行規則 that is the subject is still the Act: 同法 never names a 施行規則.
    ("84578.txt@1830", WELFARE, "同法２７条１項", "生活保護法", "a27/p1"),
    # 同法 in a clause whose subject (社債は) is no law: the law named last, 会社法, as the rules read it.
    ("89968.txt@955", BONDS, "同法２条２３号", "会社法", "a2/p1/i23"),
    # 前項 inside a quote opened right after 同条二項 is read from 同条二項.
    ("55816.txt@231", SUNAGAWA, "前項", "日本国憲法", "a9/p1"),
    # 前項 governed by 「同条２項は，…旨規定し」: the statute's paragraph 1, not the judgment's own.
    # (the rules keep only 特別措置法 of the name broken over a line: a rules matter, the same for both)
    ("83192.txt@1465", MINAMATA_LAW + MINAMATA, "前項", "特別措置法", "a2/p1"),
])
def test_where_rules_and_parse_agree(ginza: GinzaExtractor, source: str, text: str, surface: str, law: str,
                                     path: str) -> None:
    for extractor in (RuleExtractor(), ginza):
        cited = one(extractor.extract(text, SUPREME_COURT), text, surface)
        assert (cited.law_title, cited.path) == (law, path), (source, extractor.name)


def test_both_extractors_give_the_same_everywhere_else(ginza: GinzaExtractor) -> None:
    text = KANAGAWA_DEFINITION + KANAGAWA_TAX_ACT + KANAGAWA_ORDINANCE
    by_rules, by_parse = extract(text, SUPREME_COURT), ginza.extract(text, SUPREME_COURT)
    assert [(c.start, c.end) for c in by_rules] == [(c.start, c.end) for c in by_parse]
    changed = {c.surface for c, d in zip(by_rules, by_parse, strict=True) if c.law_title != d.law_title}
    assert changed == {"７２条の２２第１項３号", "附則４０条１０項", "２\n条", "３条１号", "５条"}
    assert one(by_parse, text, "地方\n税法４条３項").law_title == "地方税法"


class KnownClauses:
    """A `RevisionLookup` that knows only the clauses it is given (e-Gov paths) of the laws it is given, in force
    on every day: enough for the resolver to ask whether an article exists."""

    def __init__(self, clauses: dict[str, set[str]]) -> None:
        self.clauses = clauses

    def revision_in_force(self, law_id: str, on: date) -> str | None:
        return f"{law_id}_known" if law_id in self.clauses else None

    def provision_exists(self, law_id: str, path: str, on: date) -> bool | None:
        known = self.clauses.get(law_id)
        return None if known is None else path in known


def test_the_subject_law_is_taken_only_when_the_article_exists_in_it(ginza: GinzaExtractor) -> None:
    text = KANAGAWA_DEFINITION + KANAGAWA_TAX_ACT
    local_tax = Catalog.bundled().lookup("地方税法")[0].law_id
    holds = CitationContext(citing_court="最高裁判所", as_of=date(2013, 3, 21),
                            revisions=KnownClauses({local_tax: {"a72_22", "a72_22/p1/i3"}}))
    assert one(ginza.extract(text, holds), text, "７２条の２２第１項３号").law_title == "地方税法"
    lacks = CitationContext(citing_court="最高裁判所", as_of=date(2013, 3, 21),
                            revisions=KnownClauses({local_tax: {"a1"}}))
    assert one(ginza.extract(text, lacks), text, "７２条の２２第１項３号").law_title == "神奈川県臨時特例企業税条例"


def test_a_text_beyond_sudachis_limit_is_parsed_by_sentence(ginza: GinzaExtractor) -> None:
    text = (KANAGAWA_DEFINITION + KANAGAWA_ORDINANCE) * 90
    assert len(text.encode("utf-8")) > SUDACHI_MAX_BYTES
    found = ginza.extract(text, SUPREME_COURT)
    assert [c.law_title for c in found if c.surface == "５条"] == ["神奈川県臨時特例企業税条例"] * 90


def test_the_extractors_are_chosen_by_name() -> None:
    assert EXTRACTORS == ("rules", "ginza")
    assert extractor_named("rules").extract(KANAGAWA_ORDINANCE) == extract(KANAGAWA_ORDINANCE)
    assert isinstance(extractor_named("ginza"), GinzaExtractor)
    with pytest.raises(ValueError, match="rules, ginza"):
        extractor_named("mecab")


def test_cite_and_eval_take_the_extractor(tmp_path: Path) -> None:
    judgment = tmp_path / "83087-excerpt.txt"
    judgment.write_text(KANAGAWA_DEFINITION + KANAGAWA_ORDINANCE, encoding="utf-8")
    laws = {}
    for name in EXTRACTORS:
        run = lexgraph("cite", judgment, "--json", "--extractor", name, store=tmp_path / "no-store")
        assert run.code == 0, run.stderr
        laws[name] = next(c["law_title"] for c in json.loads(run.stdout)["citations"] if c["surface"] == "５条")
    assert laws == {"rules": "地方税法", "ginza": "神奈川県臨時特例企業税条例"}
    wrong = lexgraph("cite", judgment, "--extractor", "mecab", store=tmp_path / "no-store")
    assert wrong.code == 2 and "rules, ginza" in wrong.stderr
    gold = Path(__file__).parent / "data" / "citations" / "lawqa_relative_gold.jsonl"
    scored = lexgraph("eval", "citations", "--gold", gold, "--extractor", "ginza", "--json")
    assert scored.code == 0, scored.stderr
    assert json.loads(scored.stdout)["brackets"] == 132


_PIECES = ["民法", "地方税法", "本件条例", "同法", "同条", "前項", "前条", "次条", "２項", "３条", "７０９条", "附則",
           "は，", "が", "の", "に基づく", "の定める", "において，", "（", "）", "「", "」", "。", "\n", "規定し",
           "定めている", "旨", "以下「法」という。", "原判決は，", "述べたとおり"]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(_PIECES), max_size=40))
def test_fuzz_no_crash_and_spans_inside_the_text(ginza: GinzaExtractor, pieces: list[str]) -> None:
    text = "".join(pieces)
    found = ginza.extract(text, SUPREME_COURT)
    assert [(c.start, c.end) for c in found] == sorted((c.start, c.end) for c in found)
    for citation in found:
        assert 0 <= citation.start < citation.end <= len(text)
        assert text[citation.start:citation.end] == citation.surface
    # the parse changes which law or clause, never which spans are citations, except 前項 / 前条 / 次条
    relative = ("前項", "前条", "次条")
    assert {(c.start, c.end) for c in found if not c.surface.startswith(relative)} == {
        (c.start, c.end) for c in extract(text, SUPREME_COURT) if not c.surface.startswith(relative)}
