"""Which law a bare 法 / 規則 / 政令 / 府令 and a 同法 mean inside a statute, read as linking reads a law
(`lexgraph.ingest.crossrefs.law_citations`: clause by clause, block by block). Each case is real clauses of the
e-Gov archive of 2020 (law id and clause path noted; a few shortened by an aside or a closing phrase, never
reworded), and the classes are those the whole-archive comparison of the linker with the one of commit 6d021dd
found (its classes L3 / L4 / L5)."""

from __future__ import annotations

from itertools import count

import pytest

from lexgraph.citations import LawNames, find_statutes
from lexgraph.ingest.corpus import clause_text
from lexgraph.ingest.crossrefs import law_citations
from lexgraph.read.revisions import LawSpans, ProvisionSpan
from lexgraph.statutes.catalog import Catalog

Clauses = list[tuple[str, str, str]]  # (path, kind, text) in reading order


def read(law_id: str, clauses: Clauses) -> dict[str, list[tuple[str, str | None, str | None]]]:
    """The citations linking reads in each clause: (surface, law title, path)."""
    catalog = Catalog.bundled()
    seq = count(1)
    spans = LawSpans([], [ProvisionSpan(f"{law_id}/{path}@-", path, kind, next(seq), None, None)
                          for path, kind, _ in clauses])
    names = LawNames.for_catalog(catalog)
    mentions = {f"{law_id}/{path}@-": find_statutes(text, names) for path, _, text in clauses}
    return {source.path: [(c.surface, c.law_title, c.path) for c in citations]
            for source, citations in law_citations(law_id, spans, mentions, catalog, None)}


# (law id, clauses, clause path, surface, law title expected, clause path expected)
DEFINED_IN_THE_MAIN_PROVISIONS = [
    # 外国監査法人等に関する内閣府令 (平成二十年内閣府令第九号): 第一条 defines 法, the 附則 uses it.
    ("420M60000002009", [
        ("a1/p1", "paragraph", "公認会計士法（以下「法」という。）第五章の四の規定により金融庁長官に提出する書類で、特"
         "別の事情により日本語で記載することができないものがあるときは、その訳文を付さなければならない。ただし、当該書"
         "類のうち、法第三十四条の三十六第二項の規定により添付されるもの（英語で記載されたものに限る。）については、こ"
         "の限りでない。"),
        ("suppl/a2/p1", "paragraph", "施行日以後最初に開始する会計期間に係る外国会社等財務書類について監査証明業務に相"
         "当する業務を行うときは、法第三十四条の三十六第二項に規定する書類については、当該業務に係る同条第一項に規定す"
         "る届出書の提出があった日以後六月を経過する日（当該日が監査報告書を提出すべき日以後の日である場合は、当該提出"
         "すべき日の前日）までに提出することができる。")],
     "suppl/a2/p1", "法第三十四条の三十六第二項", "公認会計士法", "a34_36/p2"),
    # 承継銀行等が…免税を受けるための手続に関する省令 (平成十年大蔵省令第百十九号): 本則第一項 defines 法.
    ("410M50000040119", [
        ("p1", "paragraph", "預金保険法（昭和四十六年法律第三十四号。以下「法」という。）第二条第十三項に規定する承継銀"
         "行が、その受ける法第百三十五条第二項に規定する不動産に関する権利の移転の登記につき同項の規定の適用を受けよう"
         "とする場合には、その登記の申請書に、当該承継銀行が同項の承継銀行であること及び当該承継銀行が同項の被管理金融"
         "機関の事業の譲受け等により不動産に関する権利の取得をしたことを証する預金保険機構の書類（当該承継銀行が当該不"
         "動産に関する権利の取得をした日の記載があるものに限る。）を添付しなければならない。"),
        ("suppl/p4", "paragraph", "法附則第十五条の二第三項の規定により同項に規定する特定承継銀行とみなされる同項に規定"
         "する承継協定銀行については、本則第二項に規定する特定承継金融機関等とみなして、同項の規定を適用する。")],
     "suppl/p4", "法附則第十五条の二第三項", "預金保険法", "suppl/a15_2/p3"),
    # 高齢者の医療の確保に関する法律による…省令 (平成十九年厚生労働省令第百四十号): 医療法 cited in the 附則 in
    # between does not make it what 法 means.
    ("419M60000100140", [
        ("a1/p1", "paragraph", "高齢者の医療の確保に関する法律（昭和五十七年法律第八十号。以下「法」という。）第三十二"
         "条第一項の厚生労働省令で定める前期高齢者である加入者は、七十五歳以上の加入者（法第七条第四項に規定する加入者"
         "をいう。第三十八条の六を除き、以下同じ。）とする。"),
        ("suppl/a20/p1", "paragraph", "法附則第二条の厚生労働省令で定める病床の種別は、次に掲げる病床とする。"),
        ("suppl/a20/p1/i1", "item", "医療法第七条第二項第四号に規定する療養病床"),
        ("suppl/a20/p1/i2", "item", "医療の効率的な提供の推進のために病床の転換（法附則第二条に規定する病床の転換をいう"
         "。）が必要と認められる病床")],
     "suppl/a20/p1/i2", "法附則第二条", "高齢者の医療の確保に関する法律", "suppl/a2"),


    # 出入国管理及び難民認定法第二十条の二第二項の基準を定める省令 (平成二十一年法務省令第五十一号): 法 is never
    # defined; the title says which Act the 省令 is made under.
    ("421M60000010051", [
        ("p1", "paragraph", "出入国管理及び難民認定法第二十条の二第二項の基準は、同条の申請を行った者が出入国管理及び難"
         "民認定法別表第一の二の表の高度専門職の項の下欄の基準を定める省令（平成二十六年法務省令第三十七号）第二条第一"
         "項に掲げる基準に適合することのほか、その者が本邦において行おうとする活動が我が国の産業及び国民生活に与える影"
         "響等の観点から相当でないと認める場合でないこととする。"),
        ("suppl/a2/p1", "paragraph", "この省令の定める基準は、申請人がこの省令の施行前に法第二十条第二項の申請を行った"
         "場合であって、法第六条第二項又は第七条の二第一項の申請の際提出した研修計画上の研修の終期がこの省令の施行前で"
         "あるときに限り、この省令の施行後においても、適用しない。")],
     "suppl/a2/p1", "法第二十条第二項", "出入国管理及び難民認定法", "a20/p2"),
]


@pytest.mark.parametrize(("law_id", "clauses", "at", "surface", "title", "path"), DEFINED_IN_THE_MAIN_PROVISIONS)
def test_a_term_the_main_provisions_define_holds_in_the_suppl(law_id: str, clauses: Clauses, at: str, surface: str,
                                                              title: str, path: str) -> None:
    """Class L4: 「以下「法」という。」 in the main provisions is what 法 means in the 附則 too; where the law never
    defines it, its title says which Act it is made under."""
    assert (surface, title, path) in read(law_id, clauses)[at]


SAME_LAW_AFTER_A_CLAUSE_OF_THE_CITING_LAW = [
    # 新型インフルエンザ等対策特別措置法 第六十九条第二項: 同項 is 第四十六条第三項 (this law), 同法 still 予防接種法.
    ("424AC0000000031", [
        ("a69/p2", "paragraph", "前項の規定は、第四十六条第三項の規定により読み替えて適用する予防接種法第二十五条の規定"
         "により市町村が支弁する同項の規定により読み替えて適用する同法第六条第一項の規定による予防接種を行うために要す"
         "る費用及び当該予防接種に係る同法第十五条第一項の規定による給付に要する費用について準用する。")],
     "a69/p2", [("同法第六条第一項", "予防接種法", "a6/p1"), ("同法第十五条第一項", "予防接種法", "a15/p1")]),
    # 東日本大震災の被災者等に係る国税関係法律の臨時特例に関する法律 附則第二条: 同項第三号 is 第二条第二項第三号 of
    # this law; 同法 and the continuation 第二十六条 are 国税通則法.
    ("423AC0000000029", [
        ("suppl/a2/p1", "paragraph", "この法律の施行の日（以下「施行日」という。）前に平成二十二年分の所得税につき第二"
         "条第二項第二号に規定する確定申告書を提出した者及び施行日前に同年分の所得税につき国税通則法第二十五条の規定に"
         "よる決定を受けた者は、当該確定申告書に記載された事項又は当該決定に係る事項（これらの事項につき施行日前に同項"
         "第三号に規定する修正申告書の提出又は同法第二十四条若しくは第二十六条の規定による更正があった場合には、その申"
         "告又は更正後の事項）につき第二章又は第七章の規定の適用により異動を生ずることとなったときは、その異動を生ずる"
         "こととなった事項について、施行日から起算して一年を経過する日までに、税務署長に対し、同法第二十三条第一項の更"
         "正の請求をすることができる。")],
     "suppl/a2/p1", [("同法第二十四条", "国税通則法", "a24"), ("第二十六条", "国税通則法", "a26"),
                     ("同法第二十三条第一項", "国税通則法", "a23/p1")]),
    # 所得税法施行規則 第四条第一項第二十号: 同項 is 防衛省の職員の給与等に関する法律 第二十七条第一項; 同法 the law
    # named last, 国家公務員災害補償法.
    ("340M50000040011", [
        ("a4/p1/i20", "item", "防衛省の職員の給与等に関する法律（昭和二十七年法律第二百六十六号）第二十七条第一項（国家"
         "公務員災害補償法等の準用）において準用する国家公務員災害補償法（昭和二十六年法律第百九十一号）第九条第三号（"
         "補償の種類）に掲げる傷病補償年金若しくは同条第四号イに掲げる障害補償年金を受けている者又は同項において準用す"
         "る同条第六号イに掲げる遺族補償年金を受けている同法第十六条第一項（遺族補償年金）に規定する遺族（妻に限る。）"
         "である者")],
     "a4/p1/i20", [("同法第十六条第一項", "国家公務員災害補償法", "a16/p1")]),
]


@pytest.mark.parametrize(("law_id", "clauses", "at", "expected"), SAME_LAW_AFTER_A_CLAUSE_OF_THE_CITING_LAW)
def test_same_law_is_the_law_named_last_not_the_citing_law(
        law_id: str, clauses: Clauses, at: str, expected: list[tuple[str, str, str]]) -> None:
    """Class L3: 同条 / 同項 / 同号 and a statute's own bare article name no law; 同法 after them is the law named
    before them."""
    found = read(law_id, clauses)[at]
    assert [c for c in found if c in expected] == expected


DEFINED_ORDINANCE_WORDS = [
    # 道路運送車両法施行規則: 規則 is defined in 第三十六条の十七第二項, and is not this 施行規則.
    ("326M50000800074", [
        ("a36_17/p2", "paragraph", "前項第一号の運輸監理部又は運輸支局を表示する文字については、自動車登録規則（昭和四"
         "十五年運輸省令第七号。以下「規則」という。）の別表第一に定めるところによる。"),
        ("a62_2_5/p3/i3", "item", "令第十四条第四項並びに規則第六条の九第五項、第六条の十二第五項及び第六条の十五第四項"
         "の規定による国土交通大臣の照会に対して回答する業務")],
     "a62_2_5/p3/i3", [("規則第六条の九第五項", "自動車登録規則", "a6_9/p5"),
                       ("第六条の十五第四項", "自動車登録規則", "a6_15/p4")]),
    # 国有資産等所在市町村交付金法施行規則: 政令 defined in 第一条.
    ("331M50000002031", [
        ("a1/p1", "paragraph", "国有資産等所在市町村交付金法施行令（昭和三十一年政令第百七号。以下「政令」という。）第"
         "一条の二第一項に規定する総務省令で定める施設は、取水施設、貯水施設又は浄水施設の操作、監視その他の管理の用に"
         "供する施設とする。"),
        ("a9/p1", "paragraph", "政令第十一条第一項第二号に規定する減価の価額は、次の各号に掲げる場合の区分に応じ、当該"
         "各号に定める額とする。")],
     "a9/p1", [("政令第十一条第一項第二号", "国有資産等所在市町村交付金法施行令", "a11/p1/i2")]),
    # 指定自動車教習所等の教習の基準の細目に関する規則: 府令 defined in 第一条.
    ("410M50400000013", [
        ("a1/p1", "paragraph", "道路交通法施行規則（以下「府令」という。）第三十三条第一項第一号に規定する技能教習（以"
         "下「技能教習」という。）は、次の各号に掲げる区分に応じ、それぞれ当該各号に定める事項について行う"
         "教習とする。"),
        ("a4/p1/i7", "item", "府令第三十三条第五項第一号レの規定により道路において行うこととされる教習は、府令別表第四"
         "の一の表において現に受けている免許の有無及び種類に応じ規定する応用走行の教習時間から三時限を減じた時限数以上"
         "行うこと。")],
     "a4/p1/i7", [("府令第三十三条第五項第一号レ", "道路交通法施行規則", "a33/p5/i1/s17")]),
    # 汚染土壌処理業に関する省令: 規則 defined in 第一条第一号.
    ("421M60001000010", [
        ("a1/p1/i1", "item", "浄化等処理施設汚染土壌（法第十六条第一項に規定する汚染土壌をいう。以下同じ。）について浄"
         "化（汚染土壌に含まれる特定有害物質を抽出し、又は分解する方法により除去し、除去した後の土壌の当該特定有害物質"
         "による汚染状態を土壌汚染対策法施行規則（平成十四年環境省令第二十九号。以下「規則」という。）第三十一条第一項"
         "及び第二項の基準に適合させることをいう。）を行うための施設"),
        ("a5/p1/i20", "item", "汚染土壌処理施設の周縁の地下水を三月に一回以上採取し、当該周縁の地下水の水質を規則第六条"
         "第二項第二号の環境大臣が定める方法により測定すること。ただし、測定した地下水の水質が地下水基準（規則第七条第"
         "一項に規定する地下水基準をいう。以下同じ。）に一年間継続して適合している旨の都道府県知事の確認を受けたときは"
         "一年に一回以上測定すれば足りる。")],
     "a5/p1/i20", [("規則第六条第二項第二号", "土壌汚染対策法施行規則", "a6/p2/i2"),
                   ("規則第七条第一項", "土壌汚染対策法施行規則", "a7/p1")]),
]


@pytest.mark.parametrize(("law_id", "clauses", "at", "expected"), DEFINED_ORDINANCE_WORDS)
def test_a_defined_ordinance_word_means_its_definition(
        law_id: str, clauses: Clauses, at: str, expected: list[tuple[str, str, str]]) -> None:
    """Class L5: 「…（以下「規則」という。）」 makes 規則 that law, before the rule named last or the citing law."""
    found = read(law_id, clauses)[at]
    assert [c for c in found if c in expected] == expected


AMENDING_PLACES = [
    # 雇用保険法等の一部を改正する法律 (平成十九年法律第三十号) 附則 as kept in 職業安定法 (322AC0000000141,
    # suppl[平成19年6月8日法律第79号]/a1/p1/i1): 「第一条中」 says where the amendment is, the law is 雇用対策法.
    ("322AC0000000141", "suppl[平成19年6月8日法律第79号]/a1/p1/i1",
     "第一条中雇用対策法第十二条を削り、第十一条を第十二条とし、第十条を第十一条とする改正規定、同法第七条の改正規定",
     [("雇用対策法第十二条", "雇用対策法", "a12"), ("同法第七条", "雇用対策法", "a7")]),
    # 国際機関等に派遣される一般職の国家公務員の処遇等に関する法律 (345AC0000000117,
    # suppl[昭和45年12月17日法律第119号]/p1): 「第一条中同法」 is 同法.
    ("345AC0000000117", "suppl[昭和45年12月17日法律第119号]/p1",
     "この法律は、公布の日から施行する。ただし、第一条中一般職の職員の給与に関する法律第十九条の二第一項及び第二項の改"
     "正規定は昭和四十六年一月一日から、第一条中同法第八条第六項及び第八項の改正規定は同年四月一日から施行する。",
     [("一般職の職員の給与に関する法律第十九条の二第一項", "一般職の職員の給与に関する法律", "a19_2/p1"),
      ("同法第八条第六項", "一般職の職員の給与に関する法律", "a8/p6")]),
]


@pytest.mark.parametrize(("law_id", "path", "text", "expected"), AMENDING_PLACES)
def test_a_law_name_starts_after_the_place_an_amendment_names(
        law_id: str, path: str, text: str, expected: list[tuple[str, str, str]]) -> None:
    """Class L2: 「第一条中」 / 「第三款中」 is not part of the law name after it (not 「一条中雇用対策法」,
    「款中同法」)."""
    found = read(law_id, [(path, "item", text)])[path]
    assert [c for c in found if c in expected] == expected


def test_a_relative_reference_at_the_end_of_a_list_of_another_law_is_the_statutes_own() -> None:
    """前二項 ends a list that began with 同令 (another law) but is this 政令's own 第三条第四項 and 第五項:
    平成二十二年四月以降において発生が確認された口蹄疫に起因して生じた事態に対処するための…臨時特例に関する政令
    (423CO0000000244) 第三条第六項, end of the clause."""
    text = ("口蹄疫特例措置対象国共済組合員が国家公務員共済組合法施行令第十一条の三の六の二第一項第一号に規定する計算期"
    "間にお"
            "いてその資格を喪失した場合その他同令第十一条の三の六の四第一項の財務省令で定める場合における高額介護合算療"
            "養費の"
            "支給については、当該日の前日を基準日とみなして、同令第十一条の三の六の二及び第十一条の三の六の三並びに前二"
            "項の規"
            "定を適用する。")
    found = read("423CO0000000244", [("a3/p6", "paragraph", text)])["a3/p6"]
    assert [(title, path) for surface, title, path in found if surface != "前二項"][-2:] == [
        ("国家公務員共済組合法施行令", "a11_3_6_2"), ("国家公務員共済組合法施行令", "a11_3_6_3")]
    own = ("平成二十二年四月以降において発生が確認された口蹄疫に起因して生じた事態に対処するための手当金等についての"
           "健康保険法施行令等の臨時特例に関する政令")
    assert [(title, path) for surface, title, path in found if surface == "前二項"] == [(own, "a3/p4"), (own, "a3/p5")]


def test_a_term_in_a_definition_table_is_not_part_of_the_law_name() -> None:
    """不動産登記規則 (417M60000010018) 第一条第三号 is a row of two columns, 「電子申請」 and
    「不動産登記法（以下「法」という。）…」 (as e-Gov stores it); read glued, the law was 「電子申請不動産登記法」
    and 法 in 附則第十五条 unknown."""
    definition = clause_text([
        ("列1", "電子申請"),
        ("列2", "不動産登記法（以下「法」という。）第十八条第一号の規定による電子情報処理組織を使用する方法による"
                "申請をいう。")])
    use = ("新規則中電子申請に関する規定は、法附則第六条の指定（以下「第六条指定」という。）の日からその第六条指定に"
           "係る登記手続について適用する。")
    found = read("417M60000010018", [("a1/p1/i3", "item", definition), ("suppl/a15/p1", "paragraph", use)])
    assert found["a1/p1/i3"][0] == ("不動産登記法（以下「法」という。）第十八条第一号", "不動産登記法", "a18/p1/i1")
    assert found["suppl/a15/p1"][0] == ("法附則第六条", "不動産登記法", "suppl/a6")
