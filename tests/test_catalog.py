"""The bundled law catalogue, on the real e-Gov law list (2020-05-18) and the jlawcite 略称 dictionaries.

Build the data file first: .venv/bin/python scripts/build_catalog.py
"""

from __future__ import annotations

from pathlib import Path

import pytest

from lexgraph.statutes.catalog import (
    PROVISIONAL_ID,
    Catalog,
    LawEntry,
    bare_titles,
    derived_law_id,
    encode_catalog,
    era_year_of,
    kanji_number,
    normalize_law_num,
)

MINPO = "129AC0000000089"
JISATSU = "自殺対策の総合的かつ効果的な実施に資するための調査研究及びその成果の活用等の推進に関する法律"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.bundled()


def test_bundled_is_loaded_once_and_covers_the_list(catalog: Catalog) -> None:
    assert Catalog.bundled() is catalog
    # 7,511 rows of the list + 2 laws from the QA list + 1,013 laws of the 2020-11-18 index under derived ids
    assert 8500 <= len(catalog) <= 8600


# (name as cited, law id it must resolve to, and nothing else)
UNIQUE_NAMES = [
    ("民法", MINPO),  # title
    ("明治二十九年法律第八十九号", MINPO),  # law number as e-Gov writes it
    ("明治29年法律第89号", MINPO),  # Arabic numerals
    ("明治２９年法律第８９号", MINPO),  # full-width numerals
    (" 民 法 ", MINPO),  # whitespace ignored
    (MINPO, MINPO),  # law id
    ("労基法", "322AC0000000049"),  # 略称 → 労働基準法
    ("個情法", "415AC0000000057"),  # 略称 → 個人情報の保護に関する法律
    ("金商法", "323AC0000000025"),  # 略称 of a law taken from the QA list
    ("昭和22年4月7日法律第49号", "322AC0000000049"),  # promulgation date inside the number
    ("刑法", "140AC0000000045"),  # not made ambiguous by 明治十三年太政官布告第三十六号（刑法抄）
    ("民法施行法", "131AC0000000011"),  # bare title of 民法施行法抄
    ("爆発物取締罰則", "117DF1000000032"),  # bracketed name of 明治十七年太政官布告第三十二号
    ("人事院規則9-8", "344RJNJ09008000"),  # a row the list left empty, filled from the archive index
    ("所得税法", "340AC0000000033"),  # likewise
    ("ギャンブル等依存症対策基本法", "430AC1000000074"),  # listed twice (AC0 and AC1); one id answers
    ("測定器等の較正に関する規則", "409M50001000074"),  # the list writes 較 with ruby markup
]


@pytest.mark.parametrize(("name", "law_id"), UNIQUE_NAMES)
def test_lookup_resolves_to_one_law(catalog: Catalog, name: str, law_id: str) -> None:
    assert [entry.law_id for entry in catalog.lookup(name)] == [law_id]


def test_minpo_entry(catalog: Catalog) -> None:
    assert catalog.by_id(MINPO) == LawEntry(MINPO, "民法", "明治二十九年法律第八十九号", "Act")


# (law number as cited, title of the law, or None where the number is unknown or shared)
LAW_NUMBERS = [
    ("明治二十九年法律第八十九号", "民法"),
    ("明治29年法律第89号", "民法"),
    ("平成15年法律第57号", "個人情報の保護に関する法律"),
    ("平成十五年法律第五十七号", "個人情報の保護に関する法律"),
    ("昭和40年法律第33号", "所得税法"),
    ("令和1年法律第32号", JISATSU),  # listed twice (AC0 and AC1); one id answers
    ("昭和五十五年法律第六十五号", "農業経営基盤強化促進法"),  # the list writes it with a trailing space
    ("平成十二年八月二十一日内閣総理大臣決定", None),  # three rules share this number
    ("平成15年法律第999号", None),
]


@pytest.mark.parametrize(("law_num", "title"), LAW_NUMBERS)
def test_by_law_num(catalog: Catalog, law_num: str, title: str | None) -> None:
    entry = catalog.by_law_num(law_num)
    assert (entry.title if entry else None) == title


NORMALIZED = [
    ("平成15年法律第57号", "平成十五年法律第五十七号"),
    ("平成１５年法律第５７号", "平成十五年法律第五十七号"),
    ("平成十五年 法律第五十七号", "平成十五年法律第五十七号"),
    ("明治29年法律第89号", "明治二十九年法律第八十九号"),
    ("令和1年法律第32号", "令和元年法律第三十二号"),
    ("令和元年法律第32号", "令和元年法律第三十二号"),
    ("平成30年法律第100号", "平成三十年法律第百号"),
    ("明治8年太政官布告第103号", "明治八年太政官布告第百三号"),
    ("昭和23年法律第131号", "昭和二十三年法律第百三十一号"),
    ("昭和25年法律第201号", "昭和二十五年法律第二百一号"),
    ("昭和22年4月7日法律第49号", "昭和二十二年法律第四十九号"),
    ("明治19年勅令第0号", "明治十九年勅令第〇号"),
    ("昭和44年人事院規則9-8", "昭和四十四年人事院規則九―八"),
    ("人事院規則10－15", "人事院規則一〇―一五"),
    ("平成12年8月21日内閣総理大臣決定", "平成十二年八月二十一日内閣総理大臣決定"),
    ("明治二十九年法律第八十九号", "明治二十九年法律第八十九号"),
]


@pytest.mark.parametrize(("text", "expected"), NORMALIZED)
def test_normalize_law_num(text: str, expected: str) -> None:
    assert normalize_law_num(text) == expected


@pytest.mark.parametrize(("n", "kanji"), [(0, "〇"), (1, "一"), (10, "十"), (57, "五十七"), (103, "百三"),
                                          (110, "百十"), (1200, "千二百"), (2301, "二千三百一")])
def test_kanji_number(n: int, kanji: str) -> None:
    assert kanji_number(n) == kanji


def test_every_egov_law_number_is_already_normal(catalog: Catalog) -> None:
    changed = [e.law_num for _, e in catalog.names() if normalize_law_num(e.law_num) != e.law_num.strip()]
    assert changed == []


def test_law_id_encodes_era_and_year_of_the_law_number(catalog: Catalog) -> None:
    assert era_year_of(MINPO) == "明治二十九年"
    assert era_year_of("501AC0000000032") == "令和元年"
    entries = {entry.law_id: entry for _, entry in catalog.names()}.values()
    mismatched = [e.law_id for e in entries if not e.law_num.startswith(era_year_of(e.law_id) or "?")]
    assert mismatched == ["428RJNJ10015000"]  # 人事院規則一〇―一五: e-Gov wrote no era in its number


@pytest.mark.parametrize(("child", "parent"), [
    ("所得税法施行令", "所得税法"),
    ("租税特別措置法施行規則", "租税特別措置法"),
    ("会社法施行規則", "会社法"),
    ("民法施行法", "民法"),
    ("金融商品取引法施行令", "金融商品取引法"),
    ("医薬品、医療機器等の品質、有効性及び安全性の確保等に関する法律施行規則",
     "医薬品、医療機器等の品質、有効性及び安全性の確保等に関する法律"),
])
def test_parent_of_implementing_ordinance(catalog: Catalog, child: str, parent: str) -> None:
    [entry] = catalog.lookup(child)
    found = catalog.parent_of(entry.law_id)
    assert found is not None and found.title == parent and found.law_type == "Act"


@pytest.mark.parametrize(("ordinance", "act"), [
    # An ordinance whose title begins with the Act it is made under: its bare 法 is that Act.
    ("出入国管理及び難民認定法第二十条の二第二項の基準を定める省令", "出入国管理及び難民認定法"),
    ("高齢者の医療の確保に関する法律による保険者の前期高齢者交付金等の額の算定等に関する省令",
     "高齢者の医療の確保に関する法律"),
    ("電波法による旅費等の額を定める政令", "電波法"),
    ("労働基準法第十八条第四項の規定に基づき使用者が労働者の預金を受け入れる場合の利率を定める省令", "労働基準法"),
    # 行政執行法人 is no law, and an Act named later in a title is no parent (by the title; their formulas name one).
    ("行政執行法人の役員の退職管理に関する政令", None),
    ("国立研究開発法人日本原子力研究開発機構の業務運営に関する命令", None),
])
def test_parent_named_by_an_ordinance_title(catalog: Catalog, ordinance: str, act: str | None) -> None:
    # The title alone: the catalogue without the parents the ordinances state (their enacting formulas).
    payload = {**catalog.to_payload(), "parents": {}, "orders": {}}
    by_title = Catalog.from_payload(payload)
    [entry] = by_title.lookup(ordinance)
    found = by_title.parent_of(entry.law_id)
    assert (found.title if found is not None else None) == act


@pytest.mark.parametrize(("ordinance", "act", "order"), [
    # Titles that name no Act; each ordinance's enacting formula or definitions do. From the 2020 e-Gov
    # archive: 昭和四十八年大蔵省令第五号 defines 「金融商品取引法（昭和二十三年法律第二十五号。以下「法」と
    # いう。）」 and 「金融商品取引法施行令（…。以下「令」という。）」; 平成二十年政令第三百九十号's formula opens
    # 「内閣は、独立行政法人通則法（平成十一年法律第百三号）第五十四条の二第一項において準用する国家公務員法…」,
    # whose first Act it takes.
    ("企業内容等の開示に関する内閣府令", "金融商品取引法", "金融商品取引法施行令"),
    ("行政執行法人の役員の退職管理に関する政令", "独立行政法人通則法", None),
    # 「財務省設置法（以下「法」という。）」 (平成十二年政令第二百五十号): the definition wins over the
    # formula's first Act, 国家行政組織法.
    ("財務省組織令", "財務省設置法", None),
])
def test_parent_an_ordinance_states(catalog: Catalog, ordinance: str, act: str, order: str | None) -> None:
    [entry] = catalog.lookup(ordinance)
    found = catalog.parent_of(entry.law_id)
    assert found is not None and found.title == act
    stated = catalog.order_of(entry.law_id)
    assert (stated.title if stated is not None else None) == order


def test_shakuchi_shakuya_seirei(catalog: Catalog) -> None:
    # 借地借家法 is in the list; a 借地借家法施行令 is not (neither in 2020-05 nor in the 2020-11 index).
    [act] = catalog.lookup("借地借家法")
    for entry in catalog.lookup("借地借家法施行令"):
        assert catalog.parent_of(entry.law_id) == act


def test_laws_without_parent(catalog: Catalog) -> None:
    assert catalog.parent_of(MINPO) is None
    # 建築基準法 is missing from the 2020-05-18 list; the archive index adds it under a provisional id, and its
    # 施行規則 points at that.
    [rule] = catalog.lookup("建築基準法施行規則")
    parent = catalog.parent_of(rule.law_id)
    assert parent is not None and parent.title == "建築基準法" and PROVISIONAL_ID.match(parent.law_id)


@pytest.mark.parametrize(("name", "law_ids"), [
    ("元号を改める政令", ["431CO0000000143", "364CO0000000001"]),  # newer first
    ("集落地域整備法施行規則", ["363M50000200004", "363M50004000002"]),
    ("平成十二年八月二十一日内閣総理大臣決定", ["412RPMD08210000", "412RPMD08210001", "412RPMD08210002"]),
])
def test_ambiguous_names_return_every_candidate(catalog: Catalog, name: str, law_ids: list[str]) -> None:
    assert [entry.law_id for entry in catalog.lookup(name)] == law_ids


@pytest.mark.parametrize("name", ["存在しない法律", "", "民", "平成15年法律第999号", "999XX0000000000"])
def test_unknown_names(catalog: Catalog, name: str) -> None:
    assert catalog.lookup(name) == []


def test_duplicate_id_resolves_by_id_only(catalog: Catalog) -> None:
    twin = catalog.by_id("430AC0000000074")
    assert twin is not None and twin.title == "ギャンブル等依存症対策基本法"
    assert all(entry.law_id != "430AC0000000074" for _, entry in catalog.names())


def test_names_feed_an_automaton(catalog: Catalog) -> None:
    pairs = list(catalog.names())
    minpo, roki = catalog.by_id(MINPO), catalog.by_id("322AC0000000049")
    assert ("民法", minpo) in pairs
    assert ("労基法", roki) in pairs and "労基法" in roki.aliases
    assert ("爆発物取締罰則", catalog.by_id("117DF1000000032")) in pairs
    assert not any(name == MINPO for name, _ in pairs)  # law ids never occur in running text
    for name, entry in pairs[::50]:
        assert entry in catalog.lookup(name)


@pytest.mark.parametrize(("title", "bare"), [
    ("民法施行法抄", ("民法施行法",)),
    ("水銀による環境の汚染の防止に関する法律施行令（抄）", ("水銀による環境の汚染の防止に関する法律施行令",)),
    ("明治五年太政官布告第三百三十七号（改暦ノ布告）", ("明治五年太政官布告第三百三十七号", "改暦ノ布告")),
    ("明治八年太政官布告第百三号（裁判事務心得）\u3000抄",
     ("明治八年太政官布告第百三号（裁判事務心得）", "明治八年太政官布告第百三号", "裁判事務心得")),
    ("人事院規則一―一（規則の分類）", ("人事院規則一―一",)),
    ("民法", ()),
])
def test_bare_titles(title: str, bare: tuple[str, ...]) -> None:
    assert bare_titles(title) == bare


def test_with_entries_adds_a_law_with_its_alias(catalog: Catalog) -> None:
    # 刑事訴訟法 is in the 2020-11-18 index but not in the 2020-05-18 list, so the bundled catalogue knows it
    # under a provisional id; a store that holds it under e-Gov's id (laws.e-gov.go.jp/law/323AC0000000131)
    # replaces that entry, and the 略称 follows.
    [provisional] = catalog.lookup("刑訴法")
    assert PROVISIONAL_ID.match(provisional.law_id) and provisional.title == "刑事訴訟法"
    keiso = LawEntry("323AC0000000131", "刑事訴訟法", "昭和二十三年法律第百三十一号", "Act")
    extended = catalog.with_entries([keiso])
    assert len(extended) == len(catalog)
    assert [e.law_id for e in extended.lookup("刑訴法")] == [keiso.law_id]
    assert extended.by_law_num("昭和23年法律第131号").law_id == keiso.law_id
    assert extended.by_id(provisional.law_id) is None
    assert catalog.lookup("刑事訴訟法") == [provisional]  # the original is unchanged


def test_with_entries_overrides_and_adopts_children(catalog: Catalog) -> None:
    # 借地借家法 as a store might know it, with its own 略称; same id, so it replaces the bundled entry.
    [act] = catalog.lookup("借地借家法")
    own = LawEntry(act.law_id, act.title, act.law_num, act.law_type, aliases=("借地借家",))
    extended = catalog.with_entries([own])
    assert [e.law_id for e in extended.lookup("借地借家")] == [act.law_id]
    assert len(extended) == len(catalog)
    # A 施行令 whose Act the list lacks points at the Act's provisional entry, then at the e-Gov one once added.
    [order] = catalog.lookup("土地区画整理法施行令")
    assert PROVISIONAL_ID.match(order.parent_law_id or "")
    act = LawEntry("329AC0000000119", "土地区画整理法", "昭和二十九年法律第百十九号", "Act")  # as above
    assert extended.with_entries([act]).parent_of(order.law_id) == act


def test_catalogue_file_round_trip(catalog: Catalog, tmp_path: Path) -> None:
    path = tmp_path / "catalog.json.gz"
    path.write_bytes(encode_catalog(catalog))
    loaded = Catalog.load(path)
    assert len(loaded) == len(catalog)
    for name in ("民法", "労基法", "元号を改める政令", "所得税法施行令"):
        assert loaded.lookup(name) == catalog.lookup(name)
    assert loaded.by_id("430AC0000000074") == catalog.by_id("430AC0000000074")


@pytest.mark.parametrize(("law_num", "law_type", "expected"), [
    ("昭和二十一年憲法", "Constitution", "321CONSTITUTION"),
    ("昭和二十五年政令第三百十九号", "CabinetOrder", "325CO0000000319"),  # e-Gov's own id, as in the list
    ("明治三十二年勅令第百三十五号", "ImperialOrder", "132IO0000000135"),
])
def test_derived_ids_equal_egov_where_the_number_fixes_them(law_num: str, law_type: str, expected: str) -> None:
    assert derived_law_id(law_num, law_type) == expected


def test_derived_ids_agree_with_every_listed_cabinet_order(catalog: Catalog) -> None:
    laws = {entry.law_id: entry for _, entry in catalog.names()}.values()
    checked = [e for e in laws if e.law_num.endswith("号") and ("政令第" in e.law_num or "勅令第" in e.law_num)
               and e.law_num[:2] in ("明治", "大正", "昭和", "平成", "令和") and "・" not in e.law_num]
    assert len(checked) > 2000
    assert all(derived_law_id(e.law_num, e.law_type) == e.law_id for e in checked)


def test_provisional_ids_are_stable_distinct_and_never_egov_shaped() -> None:
    gaimu = derived_law_id("平成元年外務省令第十一号", "MinisterialOrdinance")
    jichi = derived_law_id("平成元年自治省令第十一号", "MinisterialOrdinance")
    keiso = derived_law_id("昭和23年法律第131号", "Act")  # any numeral style gives the same id
    assert gaimu != jichi
    assert keiso == derived_law_id("昭和二十三年法律第百三十一号", "Act")
    assert all(PROVISIONAL_ID.match(x or "") for x in (gaimu, jichi, keiso))
    assert not PROVISIONAL_ID.match("323AC0000000131")
    assert derived_law_id("民法", "Act") is None
    # Numbers not of the 第…号 form still get an id, and distinct ones
    rules = {derived_law_id(f"平成六年人事院規則一五―{n}", "Rule") for n in ("一四", "一五")}
    decision = derived_law_id("平成十二年八月二十一日内閣総理大臣決定", "Misc")
    assert len(rules) == 2 and all(PROVISIONAL_ID.match(x or "") for x in [*rules, decision])


def test_the_bundled_catalogue_read_back_from_the_cache_is_the_one_built(tmp_path: Path) -> None:
    """The first process keeps the built catalogue in the user's cache folder and the next reads it back
    (building it cost a third of a short `cite`'s start-up): every name, number, id, parent and order must come
    back as built; a damaged file is built afresh."""
    import gzip
    import json
    import os
    from importlib import resources

    from lexgraph.statutes import catalog as module

    data = (resources.files("lexgraph") / "data" / "catalog.json.gz").read_bytes()
    payload = json.loads(gzip.decompress(data))
    payload["aliases"] = {**module.EXTRA_ALIASES, **payload.get("aliases", {})}
    built = module.Catalog.from_payload(payload)
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path)
    try:
        path = module._cache_file(data)
    finally:
        if previous is None:
            del os.environ["XDG_CACHE_HOME"]
        else:
            os.environ["XDG_CACHE_HOME"] = previous
    assert path is not None and path.is_relative_to(tmp_path)
    module._write_cache(path, built)
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    read = module._read_cache(path, module.Catalog, "catalogue")
    assert read is not None and read is not built
    assert list(read.names()) == list(built.names())
    assert read.to_payload() == built.to_payload()
    assert [read.parent_of(i) for i in sorted(built._by_id)] == [built.parent_of(i) for i in sorted(built._by_id)]
    assert read.lookup("平成15年法律第57号") == built.lookup("平成15年法律第57号")
    path.chmod(0o620)  # a file others may write may hold their data: never read back
    assert module._read_cache(path, module.Catalog, "catalogue") is None
    path.chmod(0o600)
    assert module._read_cache(path, module.Catalog, "catalogue") is not None
    path.write_bytes(b"not a cache")
    assert module._read_cache(path, module.Catalog, "catalogue") is None


def test_the_bundled_catalogues_name_index_is_kept_beside_it_and_read_back_as_built(tmp_path: Path) -> None:
    """The law-name index of the bundled catalogue is kept beside the catalogue's cache file and read back (issue
    35 §5) under the same rules: the same names, tails and referencing titles as built; a file others may write,
    or a damaged one, is built afresh; another catalogue's index is never kept."""
    import gzip
    import json
    from importlib import resources

    from lexgraph.citations.lawnames import _SOURCE, LawNames
    from lexgraph.statutes import catalog as module

    payload = json.loads(gzip.decompress((resources.files("lexgraph") / "data" / "catalog.json.gz").read_bytes()))
    payload["aliases"] = {**module.EXTRA_ALIASES, **payload.get("aliases", {})}
    bundled = module.Catalog.from_payload(payload)
    other = module.Catalog.from_payload(payload)
    folder = tmp_path / "lexgraph" / "catalog"
    folder.mkdir(parents=True, mode=0o700)
    module._BUNDLED_CACHE.append((bundled, folder / "catalog-test.json"))
    built: list[module.Catalog] = []

    def build(catalog: module.Catalog) -> LawNames:
        built.append(catalog)
        return LawNames(name for name, _ in catalog.names())

    try:
        first = module.derived_from_bundled(bundled, "lawnames", _SOURCE, build, LawNames)
        [kept] = folder.glob("lawnames-*.json")
        assert oct(kept.stat().st_mode & 0o777) == "0o600"
        again = module.derived_from_bundled(bundled, "lawnames", _SOURCE, build, LawNames)
        assert built == [bundled] and again is not first
        assert vars(again) == vars(first) and len(again) > 10_000
        assert again.longest_ending_at("…民法第七百九条", 3) == first.longest_ending_at("…民法第七百九条", 3) == 1
        kept.chmod(0o620)  # writable by others: never read back
        module.derived_from_bundled(bundled, "lawnames", _SOURCE, build, LawNames)
        assert built == [bundled, bundled]
        kept.chmod(0o600)
        kept.write_bytes(b"not a cache")
        assert vars(module.derived_from_bundled(bundled, "lawnames", _SOURCE, build, LawNames)) == vars(first)
        assert len(built) == 3
        module.derived_from_bundled(other, "lawnames", _SOURCE, build, LawNames)  # not the bundled one
        assert built[-1] is other and len(list(folder.glob("lawnames-*.json"))) == 1
    finally:
        module._BUNDLED_CACHE.pop()
