"""旧法 / 新法 and the other words a judgment defines for a law before or after an amendment, and pins to a complete
revision (全部改正), on real strings of the 742 Supreme Court judgments (../shared/data/precedents/supreme_court,
whitespace removed; the file is named with each row).

What is checked: the law and the amending act a defined 旧… / 新… stands for, also where a bracket stands between
the act and its による (「平成２４年法律第９５号（以下「平成２４年改正法」という。）による改正前の」, 「…に関する法律
（平成１８年法律第５０号。以下「整備法」という。）による改正前の」); and that a pin to the law before a complete
revision is never given the law the revision enacted (its id and wording) as if it were the old one: the old law is
another law, which the catalogue does not hold, and the citation says so."""

from __future__ import annotations

import re
from datetime import date

import pytest

from lexgraph.citations import Citation, CitationContext, extract
from lexgraph.statutes.catalog import Catalog, LawEntry

KOUFUKU_NEW = "426AC0000000068"  # 行政不服審査法 (平成２６年法律第６８号), the law the complete revision enacted
KUKAKU = "406ACX565300003"  # 衆議院議員選挙区画定審議会設置法
MINPO = "129AC0000000089"
ROUKI = "322AC0000000049"  # 労働基準法
KASHIKIN = "358AC1000000032"  # 貸金業法
KOUEI = "326AC1000000193"  # 公営住宅法

# (id, file, text, [(surface, law_id, pinned_law_num, status)]) for the statute citations whose surface is listed.
ROWS: list[tuple[str, str, str, list[tuple[str, str | None, str | None, str]]]] = [
    ("complete-revision-before", "91604.txt",
     "この点について、行政不服審査法（平成２６年法律第６８号による全部改正前のもの。以下「旧行政不服審査法」という。）"
     "１４条１項本文は、主観的審査請求期間を原則として、処分があったことを知った日の翌日から起算して６０日以内としており、"
     "同項ただし書は、天災その他審査請求をしなかったことについて「やむをえない理由」があるときは、この限りでないとしていた。",
     [("行政不服審査法（平成２６年法律第６８号による全部改正前のもの。以下「旧行政不服審査法」という。）１４条１項本文",
       None, "平成二十六年法律第六十八号", "unresolved"),
      ("同項ただし書", None, "平成二十六年法律第六十八号", "unresolved")]),
    ("complete-revision-before-defined-term", "91604.txt",
     "この点について、行政不服審査法（平成２６年法律第６８号による全部改正前のもの。以下「旧行政不服審査法」という。）"
     "の規定が問題となる。新行政不服審査法とは異なり、旧行政不服審査法１４条１項ただし書の「やむをえない理由」に代えて",
     [("旧行政不服審査法１４条１項ただし書", None, "平成二十六年法律第六十八号", "unresolved")]),
    ("complete-revision-after", "91604.txt",
     "この点については、平成２６年法律第６８号による全部改正後の行政不服審査法（以下「新行政不服審査法」という。）"
     "１８条１項ただし書が、旧行政不服審査法１４条１項ただし書の「やむをえない理由」に代えて、「正当な理由」としたことが"
     "注目される。",
     [("行政不服審査法（以下「新行政不服審査法」という。）１８条１項ただし書", KOUFUKU_NEW,
       "平成二十六年法律第六十八号", "resolved")]),
    ("number-then-definition-then-by", "88201.txt",
     "(2)平成６年に前記の公職選挙法の一部を改正する法律と同時に成立した衆議院議員選挙区画定審議会設置法（以下，後記の改正の"
     "前後を通じて「区画審設置法」という。）によれば，衆議院議員選挙区画定審議会（以下「区画審」という。）は，"
     "上記の改定に係る選挙区の区割りの基準（以下，後記の改正の前後を通じて「区割基準」という。）について，平成２８年法律"
     "第４９号（以下「平成２８年改正法」という。）による改正後の区画審設置法（以下「新区画審設置法」という。）３条は，"
     "なお，平成２４年法律第９５号（以下「平成２４年改正法」という。）による改正前の区画審設置法（以下「旧区画審設置法」"
     "という。）３条は，①１項において，上記の改定案を作成するに当たっては，各選挙区の人口の均衡を図り，",
     [("区画審設置法（以下「新区画審設置法」という。）３条", KUKAKU, "平成二十八年法律第四十九号", "resolved"),
      ("区画審設置法（以下「旧区画審設置法」という。）３条", KUKAKU, "平成二十四年法律第九十五号", "resolved")]),
    ("title-with-number-in-its-bracket-then-by", "85529.txt",
     "本件は，宗教法人である被上告人が，一般社団法人及び一般財団法人に関する法律及び公益社団法人及び公益財団法人の認定等に"
     "関する法律の施行に伴う関係法律の整備等に関する法律（平成１８年法律第５０号。以下「整備法」という。）による改正前の"
     "民法（以下「旧民法」という。）の規定に基づく財団法人として設立された。(1)上告人は，大正元年，Ａ宗の宗派であるＢ派の"
     "門徒らにより，旧民法３４条の規定に基づく財団法人として設立された。",
     [("旧民法３４条", MINPO, "平成十八年法律第五十号", "resolved")]),
    ("pin-inside-the-bracket", "84545.txt",
     "被上告人が石綿関連疾患の発生又はその増悪を防止するために労働基準法（昭和４７年法律第５７号による改正前のもの。"
     "以下「旧労基法」という。）に基づく省令制定権限を行使しなかった。旧労基法４２条から４４条までは，",
     [("旧労基法４２条から４４条まで", ROUKI, "昭和四十七年法律第五十七号", "resolved")]),
    ("pin-inside-the-bracket-with-article", "85133.txt",
     "貸金業法（平成１８年法律第１１５号２条による改正前のもの。同改正前の法律の題名は，貸金業の規制等に関する法律。"
     "以下「旧貸金業法」という。）の規定による。旧貸金業法１８条１項は，",
     [("旧貸金業法１８条１項", KASHIKIN, "平成十八年法律第百十五号", "resolved")]),
    ("pin-before-the-name", "87333.txt",
     "当該改良住宅を明け渡すように努めなければならないとされている（法２９条３項，平成８年法律第５５号による改正前の"
     "公営住宅法（以下「旧公営住宅法」という。）２１条の２第１項）。",
     [("公営住宅法（以下「旧公営住宅法」という。）２１条の２第１項", KOUEI, "平成八年法律第五十五号", "resolved")]),
    # the title of the law a revision replaced, written whole after the act's による, ends in another law's title
    # (個人情報の保護に関する法律): the law is the whole title, which the catalogue does not hold
    ("whole-title-after-the-amending-act", "90390.txt",
     "行政機関個人情報保護法４５条１項は，平成１５年法律第５８号による行政機関の保有する電子計算機処理に係る個人情報の"
     "保護に関する法律（以下「旧法」という。）の全部改正（以下「平成１５年改正」という。）によって新たに設けられた規定で"
     "ある。旧法は，何人も，個人情報ファイルを保有する行政機関の長に対し，自己を本人とする処理情報（個人情報ファイルに記録"
     "されている個人情報をいう。以下同じ。）の開示を請求することができる旨を規定しつつ（１３条１項），",
     [("行政機関個人情報保護法４５条１項", "415AC0000000058", None, "resolved"),
      ("１３条１項", None, None, "unresolved")]),
]


def cited(text: str) -> dict[str, Citation]:
    found = extract(text, CitationContext(as_of=date(2021, 6, 1)), precedents=False)
    return {re.sub(r"\s", "", c.surface): c for c in found if c.kind == "statute"}


@pytest.mark.parametrize(("text", "expected"), [row[2:] for row in ROWS], ids=[row[0] for row in ROWS])
def test_old_and_new_laws_as_the_judgments_define_them(text: str, expected: list[tuple[str, str | None, str | None,
                                                                                             str]]) -> None:
    found = cited(text)
    for surface, law_id, amending, status in expected:
        c = found[surface]
        assert (c.law_id, c.pinned_law_num, c.status) == (law_id, amending, status), surface


def test_a_whole_title_after_the_amending_act_is_not_the_law_it_ends_in() -> None:
    c = cited(ROWS[-1][2])["１３条１項"]
    assert "'行政機関の保有する電子計算機処理に係る個人情報の保護に関する法律' not in catalogue" in (c.reason or "")


def test_the_law_before_a_complete_revision_says_why_it_is_not_resolved() -> None:
    c = cited(ROWS[0][2])[ROWS[0][3][0][0]]
    assert c.law_title == "行政不服審査法" and c.revision_id is None and c.path == "a14/p1"
    assert "complete revision by 平成二十六年法律第六十八号" in (c.reason or "")
    assert KOUFUKU_NEW in (c.reason or "")  # the law it is not, named
    assert c.version_note == "平成２６年法律第６８号による全部改正前"


def test_an_amendment_that_is_no_complete_revision_keeps_the_law() -> None:
    """The same number with 改正前 (no 全部): an earlier version of the catalogue's law, as before."""
    text = "行政不服審査法（平成２６年法律第６８号による改正前のもの）１４条１項本文"
    c = cited(text)["行政不服審査法（平成２６年法律第６８号による改正前のもの）１４条１項本文"]
    assert (c.law_id, c.pinned_law_num, c.status) == (KOUFUKU_NEW, "平成二十六年法律第六十八号", "resolved")


def test_a_complete_revision_pin_written_before_the_name() -> None:
    """「平成２６年法律第６８号による全部改正前の行政不服審査法１４条」: the pin before the name reads 全部 too."""
    c = cited("平成２６年法律第６８号による全部改正前の行政不服審査法１４条１項によれば，")["行政不服審査法１４条１項"]
    assert (c.law_id, c.status, c.pinned_law_num) == (None, "unresolved", "平成二十六年法律第六十八号")


def test_the_law_before_a_complete_revision_is_the_older_law_where_the_catalogue_holds_it() -> None:
    """A store holding the old 行政不服審査法 (昭和三十七年法律第百六十号, e-Gov id 337AC0000000160) adds it to the
    catalogue the resolver reads (`store_catalog`): the pin then names it, not the law the revision enacted."""
    old = LawEntry("337AC0000000160", "行政不服審査法", "昭和三十七年法律第百六十号", "Act")
    catalog = Catalog.bundled().with_entries([old])
    text = ROWS[0][2]
    found = {re.sub(r"\s", "", c.surface): c
             for c in extract(text, CitationContext(as_of=date(2021, 6, 1), catalog=catalog), precedents=False)}
    c = found[ROWS[0][3][0][0]]
    assert (c.law_id, c.pinned_law_num, c.status) == ("337AC0000000160", "平成二十六年法律第六十八号", "resolved")
    assert found["同項ただし書"].law_id == "337AC0000000160"
