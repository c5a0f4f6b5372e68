"""Reading Supreme Court judgments: headers, sections, metadata records and landmarks, on real texts."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph.citations.document import document_date
from lexgraph.documents.judgment import (
    load_landmarks,
    load_metadata,
    normalise_case_numbers,
    parse_judgment,
    parse_metadata_record,
    read_judgment,
)
from tests.helpers import ROOT, SHARED

FIXTURES = ROOT / "tests" / "data" / "precedents"
CORPUS = SHARED / "precedents" / "supreme_court"
METADATA = SHARED / "precedents" / "sample_supreme_court_metadata.jsonl"
LANDMARKS = SHARED / "precedents" / "landmarks.csv"
needs_shared = pytest.mark.requires("shared")


# ----------------------------------------------------------------------------------------------------
# Headers

# (file, case numbers, date, case name, bench, decision type)
BUNDLED = [
    ("91244.txt", ("令和3年(オ)第293号の2",), "2022-06-17", "原状回復等請求事件", "第二小法廷", "判決"),
    ("92453.txt", ("令和4年(許)第14号",), "2023-10-26",
     "特別の寄与に関する処分申立て却下審判に対する抗告棄却決定に対する許可抗告事件", "第一小法廷", "決定"),
    ("85407.txt", ("平成27年(し)第483号", "平成27年(し)第484号"), "2015-09-08",
     "拘置所職員のした処分に対する準抗告棄却決定に対する特別抗告事件", "第三小法廷", "決定"),
    ("92361.txt", ("令和5年(あ)第134号",), "2023-09-13", "傷害致死、傷害、証拠隠滅教唆被告事件", "第一小法廷", "決定"),
]


@pytest.mark.parametrize(("name", "numbers", "day", "case_name", "bench", "kind"), BUNDLED)
def test_header_of_bundled_judgments(
    name: str, numbers: tuple[str, ...], day: str, case_name: str, bench: str, kind: str,
) -> None:
    j = read_judgment(FIXTURES / name)
    assert (j.case_numbers, j.date, j.case_name, j.bench, j.decision_type) == (numbers, day, case_name, bench, kind)
    assert j.court == "最高裁判所"
    assert j.full_court == f"最高裁判所{bench}"
    assert j.lawsuit_id == name.removesuffix(".txt")
    assert j.problems == ()
    assert j.case_number == "、".join(numbers)


# Real header lines (up to 主文) of judgments in ../shared/data/precedents/supreme_court, with what they say.
HEADERS = [
    # 88202: thirteen case numbers wrapped over three lines, the case name on the third
    ("平成３０年（行ツ）第１０９号，第１１７号，第１３１号，第１３５号，第１３６\n号，第１４０号，第１４７号，"
     "第１５０号，第１５１号，第１５８号，第１６１\n号，第１６２号，第１９０号 選挙無効請求事件\n"
     "平成３０年１２月１９日 大法廷判決\n\n主\n\n文\n",
     13, "平成30年(行ツ)第136号", "2018-12-19", "選挙無効請求事件", "大法廷", "判決"),
    # 90039: 同年 in the list of case numbers; the bench between 主 and 文
    ("令和元年（行ツ）第２２２号，同年（行ヒ）第２６２号\n固定資産税等課税免除措置取消（住民訴訟）請求事件\n"
     "令和３年２月２４日\n\n主\n\n大法廷判決\n\n文\n\n１\n\n参加人の上告を棄却する。\n",
     2, "令和元年(行ヒ)第262号", "2021-02-24", "固定資産税等課税免除措置取消（住民訴訟）請求事件", "大法廷", "判決"),
    # 88011: case name and bench between 主 and 文
    ("平成２９年（受）第６５９号，第６６０号\n平成３０年９月２７日\n主\n\n保険金請求事件\n\n第一小法廷判決\n文\n\n１\n\n"
     "第１審被告の上告を棄却する。\n", 2, "平成29年(受)第660号", "2018-09-27", "保険金請求事件", "第一小法廷", "判決"),
    # 86223: the end of the wrapped case name comes before its beginning
    ("平成２８年（し）第６０７号\nする特別抗告事件\n平成２８年１０月２５日\n保釈請求却下の裁判に対する準抗告棄却決定に対\n"
     "第一小法廷決定\n\n主\n\n文\n", 1, "平成28年(し)第607号", "2016-10-25",
     "保釈請求却下の裁判に対する準抗告棄却決定に対する特別抗告事件", "第一小法廷", "決定"),
    # 90925: the court before the case number
    ("最高裁判所令和２年（あ）第１０８７号\n令和４年２月１４日\n\n窃盗，窃盗未遂被告事件\n\n第三小法廷決定\n\n主\n\n文\n",
     1, "令和2年(あ)第1087号", "2022-02-14", "窃盗，窃盗未遂被告事件", "第三小法廷", "決定"),
    # 85793: date and bench on one line
    ("平成２５年（あ）第１３２９号\n現住建造物等放火，殺人，殺人未遂被告事件\n平成２８年２月２３日第三小法廷判決\n\n主\n\n文\n",
     1, "平成25年(あ)第1329号", "2016-02-23", "現住建造物等放火，殺人，殺人未遂被告事件", "第三小法廷", "判決"),
    # 89456: case name on the line of the case number
    ("平成３１年（受）第６０６号 不法行為による損害賠償請求事件\n令和２年４月７日 第三小法廷判決\n\n主\n\n文\n",
     1, "平成31年(受)第606号", "2020-04-07", "不法行為による損害賠償請求事件", "第三小法廷", "判決"),
]


@pytest.mark.parametrize(("text", "count", "one_number", "day", "case_name", "bench", "kind"), HEADERS)
def test_real_headers(text: str, count: int, one_number: str, day: str, case_name: str, bench: str, kind: str) -> None:
    j = parse_judgment(text)
    assert len(j.case_numbers) == count
    assert one_number in j.case_numbers
    assert (j.date, j.case_name, j.bench, j.decision_type) == (day, case_name, bench, kind)
    assert not [p for p in j.problems if "header" in p or "case" in p or "bench" in p]


def test_bench_between_the_heading_characters() -> None:
    # 89700: the bench is printed between 主 and 文, after the 「１」 of the first item of the 主文
    text = ("平成３０年（受）第２０６４号\n\n請負代金請求本訴，建物瑕疵修補等\n\n請求反訴事件\n令和２年９月１１日\n\n"
            "主\n１\n\n第二小法廷判決\n\n文\n\n原判決を次のとおり変更する。\n第１審判決を次のとおり変更する。\n")
    j = parse_judgment(text)
    assert j.case_name == "請負代金請求本訴，建物瑕疵修補等請求反訴事件"
    assert (j.date, j.bench, j.decision_type) == ("2020-09-11", "第二小法廷", "判決")
    assert j.problems == ("no 理由 heading",)  # this excerpt stops before it
    assert j.section_text("主文") == "原判決を次のとおり変更する。\n第１審判決を次のとおり変更する。"


def test_a_judgment_that_names_no_bench() -> None:
    j = read_judgment(FIXTURES / "50078.txt")  # no header, and the signature names the judges only
    assert (j.date, j.bench, j.decision_type) == (None, None, "判決")
    assert "no bench (大法廷 / 第一小法廷 / 第二小法廷 / 第三小法廷)" in j.problems
    assert j.court == "最高裁判所"  # the default for this folder; parse_judgment(..., court=None) requires it
    assert "no court" in parse_judgment(j.text, court=None).problems
    reasons = j.section_text("理由")
    assert reasons is not None and reasons.endswith("主文のとおり判決する。")


@pytest.mark.parametrize(("raw", "expected"), [
    ("平成２３年（受）第１８３３号", ("平成23年(受)第1833号",)),
    ("令和３年（オ）第２９３号の２", ("令和3年(オ)第293号の2",)),
    ("平成３０年（受）第４４号，第４５号", ("平成30年(受)第44号", "平成30年(受)第45号")),
    ("令和４年（行ツ）第１０３号、第９８号", ("令和4年(行ツ)第103号", "令和4年(行ツ)第98号")),
    ("平成２２年（受）第１１６３号，平成２２年（オ）第９４６号", ("平成22年(受)第1163号", "平成22年(オ)第946号")),
    ("令和元年（行ツ）第２２２号，同年（行ヒ）第２６２号", ("令和元年(行ツ)第222号", "令和元年(行ヒ)第262号")),
    ("昭和四四年（あ）第一五〇一号", ("昭和44年(あ)第1501号",)),
    ("第１３６\n号", ()),  # no year and code to stand on
])
def test_case_number_normalisation(raw: str, expected: tuple[str, ...]) -> None:
    assert normalise_case_numbers(raw) == expected


# ----------------------------------------------------------------------------------------------------
# Judgments without a header


def test_headerless_judgment_reads_its_closing_lines() -> None:
    j = read_judgment(FIXTURES / "51174.txt")  # 主文 first; 「昭和五六年四月八日」「最高裁判所第二小法廷」 at the end
    assert j.problems == ("no header (the text starts with 主文)", "no case number", "no case name")
    assert (j.date, j.court, j.bench, j.decision_type) == ("1981-04-08", "最高裁判所", "第二小法廷", "決定")
    assert j.case_numbers == () and j.case_name is None


def test_headerless_judgment_without_a_date() -> None:
    j = read_judgment(FIXTURES / "55076.txt")
    assert j.date is None
    assert "no decision date (neither in the header nor in the closing lines)" in j.problems
    assert "no header (the text starts with 主文)" in j.problems
    assert (j.bench, j.decision_type) == ("第二小法廷", "判決")


# ----------------------------------------------------------------------------------------------------
# Sections


def test_sections_of_a_judgment() -> None:
    j = read_judgment(FIXTURES / "91244.txt")
    assert [s.name for s in j.sections] == ["主文", "理由"]
    main = j.section_text("主文")
    reasons = j.section_text("理由")
    assert main is not None and reasons is not None
    assert main.startswith("原判決中、被上告人らの上告人に対する損害賠償請")
    assert main.endswith("訴訟の総費用は被上告人らの負担とする。")
    assert reasons.startswith("事案の概要")  # the 「第１」 printed between 理 and 由 belongs to the heading
    assert reasons.endswith("主文のとおり判決する。")  # the signature 「(裁判長裁判官 菅野博之 …」 is not text


def test_separate_opinion_is_a_section() -> None:
    j = read_judgment(FIXTURES / "92361.txt")
    assert [s.name for s in j.sections] == ["主文", "理由", "反対意見"]
    dissent = j.section("反対意見")
    assert dissent is not None and dissent.judges == ("山口厚",)
    text = j.text[dissent.start:dissent.end]
    assert text.startswith("裁判官山口厚の反対意見は、次のとおりである。")
    assert text.endswith("ここにこれを引用する。")
    reasons = j.section_text("理由")
    assert reasons is not None and reasons.endswith("主文のとおり決定する。")


def test_headerless_sections_stop_at_the_signature() -> None:
    j = read_judgment(FIXTURES / "51174.txt")
    reasons = j.section_text("理由")
    assert reasons is not None
    assert reasons.startswith("弁護人佐々木実の上告趣意は") and reasons.endswith("主文のとおり決定する。")


@pytest.mark.parametrize("text", ["", "主", "主\n文", "\n\n- 1 -\n", "理\n由", "主\n\n文\n\n理\n\n由\n",
                                  "第二小法廷判決\n", "裁判長裁判官", "平成２３年（受）第", "令和元年（"])
def test_fragments_parse_without_raising(text: str) -> None:
    j = parse_judgment(text)
    assert j.problems  # something is always missing from these
    for s in j.sections:
        assert 0 <= s.start < s.end <= len(text)


@needs_shared
def test_every_judgment_of_the_corpus_parses() -> None:
    files = sorted(CORPUS.glob("*.txt"))
    assert len(files) >= 700
    judgments = [read_judgment(f) for f in files]
    with_date = [j for j in judgments if j.date]
    assert len(with_date) >= 600
    assert sum(1 for j in judgments if j.case_numbers) >= 600
    assert sum(1 for j in judgments if j.case_name) >= 600
    for j in judgments:
        names = [s.name for s in j.sections]
        assert "主文" in names, j.source
        starts = [s.start for s in j.sections]
        assert starts == sorted(starts), j.source
        for a, b in itertools.pairwise(j.sections):
            assert a.end <= b.start, j.source
        header_day = document_date(j.text)
        if header_day is not None:  # the citation layer's reading of the header agrees
            assert j.date == header_day.isoformat(), j.source
        if j.problems:
            assert all(isinstance(p, str) and p for p in j.problems)


# ----------------------------------------------------------------------------------------------------
# Fuzzing


_PIECES = [*"主文理由裁判官長の補足反対意見は，、次とおり。第一二小法廷判決決定事件号年月日令和平成（）()１２３ \n\f-",
           "\n- 2 -\n", "最高裁判所", "平成２３年（受）第１８３３号", "\n主\n", "\n文\n", "\n理\n", "\n由\n",
           "裁判官山口厚の反対意見は、次のとおりである。", "(裁判長裁判官", "令和５年９月１３日", "第一小法廷決定"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), max_size=120).map("".join))
def test_header_parser_never_raises(text: str) -> None:
    j = parse_judgment(text)
    for s in j.sections:
        assert 0 <= s.start < s.end <= len(text)
    assert all(a.end <= b.start for a, b in itertools.pairwise(j.sections))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_parser_never_raises_on_arbitrary_text(text: str) -> None:
    parse_judgment(text)


_FW = str.maketrans("0123456789", "０１２３４５６７８９")


@settings(max_examples=200, deadline=None)
@given(
    era=st.sampled_from(["平成", "令和"]), year=st.integers(2, 30),
    code=st.sampled_from(["受", "オ", "行ヒ", "あ", "許"]),
    number=st.integers(1, 2999), month=st.integers(1, 12), day=st.integers(1, 28),
    name=st.sampled_from(["損害賠償請求事件", "各損害賠償請求事件", "殺人，死体遺棄被告事件",
                          "文書提出命令申立て却下決定に対する抗告審の取消決定に対する許可抗告事件"]),
    cut=st.integers(0, 40), bench=st.sampled_from(["大法廷", "第一小法廷", "第二小法廷", "第三小法廷"]),
    kind=st.sampled_from(["判決", "決定"]), blank=st.sampled_from(["\n", "\n\n"]),
)
def test_generated_headers_round_trip(
    era: str, year: int, code: str, number: int, month: int, day: int, name: str, cut: int, bench: str, kind: str,
    blank: str,
) -> None:
    cut = min(cut, len(name) - 1)
    wrapped = name[:cut] + blank + name[cut:] if cut else name
    header = (f"{era}{str(year).translate(_FW)}年（{code}）第{str(number).translate(_FW)}号{blank}"
              f"{era}{str(year + 1).translate(_FW)}年{str(month).translate(_FW)}月{str(day).translate(_FW)}日{blank}"
              f"{wrapped}{blank}{bench}{kind}{blank}主{blank}文{blank}本件上告を棄却する。\n")
    j = parse_judgment(header)
    assert j.case_numbers == (f"{era}{year}年({code})第{number}号",)
    assert j.case_name == name
    assert (j.bench, j.decision_type) == (bench, kind)
    offset = {"平成": 1988, "令和": 2018}[era]
    assert j.date == f"{offset + year + 1:04d}-{month:02d}-{day:02d}"


# ----------------------------------------------------------------------------------------------------
# Metadata records and landmarks


@needs_shared
def test_metadata_records() -> None:
    records = load_metadata(METADATA)
    assert len(records) == 5
    first = records[0]
    assert first.lawsuit_id == "74590"
    assert first.case_number == "昭和22年(つ)第1号" and first.case_number_raw == "昭和22(つ)1"
    assert (first.court, first.bench, first.full_court) == ("最高裁判所", "第一小法廷", "最高裁判所第一小法廷")
    assert (first.date, first.decision_type, first.result) == ("1948-01-26", "決定", "棄却")
    assert first.reporter == "集刑1号279頁"
    assert first.holding == "裁判所法第七條の法意"
    assert first.summary is not None and first.summary.startswith("裁判所法第七條第二號によれば")
    assert first.referenced_laws == ("裁判所法7條", "民訴應急措置法7條", "刑訴應急措置法18條")
    assert first.original_court == "東京高等裁判所" and first.original_date == "1947-05-31"
    assert first.source_url == "https://www.courts.go.jp/app/hanrei_jp/detail2?id=74590"
    by_id = {r.lawsuit_id: r for r in records}
    assert by_id["52218"].reporter == "民集54巻2号582頁"
    assert by_id["52218"].original_case_number == "平成9年(ネ)第1343号"
    assert by_id["52224"].referenced_laws == ("特許法68条", "特許法第4章第2節 権利侵害", "特許法100条", "特許法123条",
                                              "民法1条3項")


@needs_shared
@pytest.mark.parametrize(("change", "message"), [
    (lambda r: r.pop("date"), "metadata.jsonl:2: field 'date' is missing"),
    (lambda r: r.update(date={"era": "Edo", "year": 1, "month": 1, "day": 1}),
     "metadata.jsonl:2: field 'date' has an unknown era"),
    (lambda r: r.update(date={"era": "Heisei", "year": 13, "month": 2, "day": 30}),
     "metadata.jsonl:2: field 'date' is not a valid"),
    (lambda r: r.update(lawsuit_id=""), "metadata.jsonl:2: field 'lawsuit_id' is missing or empty"),
    (lambda r: r.update(case_name=["遺言無効確認請求事件"]), "metadata.jsonl:2: field 'case_name' must be a string"),
    (lambda r: r.update(court_name=None), "metadata.jsonl:2: field 'court_name' is missing or empty"),
])
def test_malformed_metadata_names_line_and_field(tmp_path: Path, change, message: str) -> None:  # type: ignore[no-untyped-def]
    lines = METADATA.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[1])
    change(record)
    path = tmp_path / "metadata.jsonl"
    path.write_text("\n".join([lines[0], json.dumps(record, ensure_ascii=False), *lines[2:]]) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_metadata(path)


def test_metadata_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "metadata.jsonl"
    path.write_text('{"lawsuit_id": "1"}\n\n{"lawsuit_id": \n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"metadata.jsonl:1: field 'court_name'"):
        load_metadata(path)
    path.write_text('{"lawsuit_id": \n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"metadata.jsonl:1: not valid JSON"):
        load_metadata(path)
    with pytest.raises(ValueError, match="expected a JSON object"):
        parse_metadata_record(["not", "a", "record"])


@needs_shared
def test_landmarks() -> None:
    landmarks = load_landmarks(LANDMARKS)
    assert len(landmarks) == 122
    first = landmarks[0]
    assert (first.id, first.name, first.date, first.court, first.bench, first.decision_type) == (
        "51765", "京都府学連事件", "1969-12-24", "最高裁判所", "大法廷", "判決")
    assert first.lawsuit_id == "51765"
    by_id = {lm.id: lm for lm in landmarks}
    assert by_id["50336"].date == "1989-12-14"  # 平成元年
    x1 = by_id["X1"]  # a 大審院 case the courts' site does not hold
    assert (x1.court, x1.bench, x1.lawsuit_id, x1.date) == ("大審院", None, None, "1932-10-06")
    undated = by_id["81956"]
    assert undated.name == "病院睡眠薬混入事件"
    assert (undated.date, undated.court, undated.decision_type) == (None, None, None)
    in_corpus = {f.stem for f in CORPUS.glob("*.txt")}
    assert sum(1 for lm in landmarks if lm.lawsuit_id in in_corpus) >= 100


@pytest.mark.parametrize(("content", "message"), [
    ("id,date,court,name\n1,昭和44年12月24日,最高裁判所大法廷,x\n", "missing column"),
    ("id,date,court,type,name\n51765,昭和44年13月24日,最高裁判所大法廷,判決,京都府学連事件\n", "line 2: column 'date'"),
    ("id,date,court,type,name\n,昭和44年12月24日,最高裁判所大法廷,判決,京都府学連事件\n",
     "line 2: column 'id' is empty"),
    ("id,date,court,type,name\n51765,昭和44年12月24日,最高裁判所大法廷,判定,京都府学連事件\n", "line 2: column 'type'"),
])
def test_malformed_landmarks(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "landmarks.csv"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        load_landmarks(path)
