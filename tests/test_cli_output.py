"""Output a lawyer reads, on the real CLI over the bundled sample (民法 2020 & 2023, 借地借家法,
個人情報保護法 and 4 Supreme Court judgments): clauses named as a lawyer writes them (第七百九条第一項, never
a709/p1 outside --json), citations read from the citing clause to the cited one, tables that fit an 80-column
terminal without cutting a revision id or a status, precedents found by their case name, and placeholder
precedents never shown as if their text were stored."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rich.cells import cell_len

from lexgraph.model import NOT_STORED_LABEL
from lexgraph.numerals import clause_label
from tests.helpers import SAMPLE, Run, lexgraph

NARROW = {"COLUMNS": "80"}
PATH = re.compile(r"(?<![A-Za-z0-9])(?:suppl\S*/)?a\d+(?:_\d+)*(?:/[pis]\d+)*(?![A-Za-z0-9])")


@pytest.fixture(scope="module")
def store(sample_store: Path) -> Path:
    """The sample's statutes (a copy of the run's ingested sample) and its judgments."""
    assert lexgraph("ingest", "precedents", SAMPLE / "precedents", store=sample_store).code == 0
    return sample_store


def run(store: Path, *args: str) -> Run:
    done = lexgraph(*args, store=store, env=NARROW)
    assert done.code == 0, done.stderr
    return done


def widest(text: str) -> int:
    """The widest line but quotations (「…」 of a judgment, on lines of their own), which are the terminal's to wrap."""
    return max((cell_len(line.rstrip()) for line in text.splitlines() if not line.lstrip().startswith("「")),
               default=0)


# (command, what a lawyer must read in it): the label of the clause, the citation read citing → cited.
LABELLED = [
    (("law", "cites", "民法", "第七百十条"), ["民法 第七百十条 cites", "第七百十条第一項 「前条」 → 民法 第七百九条"]),
    (("law", "cited-by", "民法", "第七百九条"),
     ["民法 第七百九条 is cited by", "民法 第七百十条第一項 「前条」 → 第七百九条"]),
    (("law", "cited-by", "民法", "709条", "--kind", "precedent"),
     ["民法 第七百九条: cited by 1 precedent", "原状回復等請求事件", "「民法７０９条」 → 民法 第七百九条"]),
    (("law", "show", "民法", "a709/p1"), ["民法 第七百九条第一項\n"]),
    (("law", "show", "民法", "715条1項"), ["民法 第七百十五条第一項\n"]),
    (("law", "show", "民法", "第七百九条"), ["民法 第七百九条（不法行為による損害賠償）\n"]),
    (("cite", str(SAMPLE / "precedents" / "91244.txt")), ["民法 第七百九条", "第三百十二条第一項"]),  # 民事訴訟法
    (("precedent", "show", "91244"), ["「民法７０９条」 → 民法 第七百九条"]),
]


@pytest.mark.parametrize(("command", "expected"), LABELLED)
def test_clauses_are_named_in_japanese_and_citations_read_citing_to_cited(
        store: Path, command: tuple[str, ...], expected: list[str]) -> None:
    shown = run(store, *command).stdout
    for text in expected:
        assert text in shown, shown
    assert not PATH.findall(shown), shown  # paths stay in --json
    assert "「」" not in shown


def test_paths_stay_in_json(store: Path) -> None:
    links = run(store, "law", "cited-by", "民法", "第七百九条", "--json").json()
    assert links["path"] == "a709" and [link["path"] for link in links["links"]] == ["a710/p1"]


def test_no_clause_of_a_diff_is_left_without_a_name(store: Path) -> None:
    shown = run(store, "law", "diff", "民法", "--from", "2020-04-01", "--to", "2023-07-01", "--level", "all").stdout
    changes = [line for line in shown.splitlines() if line.split(" ", 1)[0] in ("added", "changed", "removed")]
    assert len(changes) > 250  # 286 since ruby reads as its base text (whitespace-only changes gone)
    for line in changes:
        label = line.split(maxsplit=1)[1]
        assert re.fullmatch(r"(附則（[^）]+）)?第\S+", label), line
    assert "changed  第四条第一項" in shown
    assert widest(shown) <= 80


@pytest.mark.parametrize("command", [
    ("law", "versions", "民法"),
    ("law", "versions", "借地借家法"),
    ("law", "show", "民法", "第七百九条", "--as-of", "2021-01-01"),
    ("law", "cites", "民法", "第七百十条"),
    ("law", "cited-by", "民法", "第七百九条", "--kind", "precedent"),
    ("cite", str(SAMPLE / "precedents" / "91244.txt")),
    ("precedent", "show", "90381"),
    ("stats",),
    ("doctor",),
])
def test_output_fits_80_columns_and_cuts_no_id_or_status(store: Path, command: tuple[str, ...]) -> None:
    done = lexgraph(*command, store=store, env=NARROW)
    assert done.code in (0, 1), done.stderr  # doctor: 1 when the store has no search index yet
    shown = done.stdout
    body = shown if command[:2] != ("law", "show") else "\n".join(shown.splitlines()[:3])  # the clause text is
    assert widest(body) <= 80, shown  # the terminal's to wrap: it is a quotation, not a column
    cut = [line for line in shown.splitlines() if "…" in line]
    assert all(line.startswith("    ") and not re.search(r"AC\d|resolved", line) for line in cut), cut  # only
    # the indented quotation of a far clause is shortened (the command naming it shows it whole)
    for revision in re.findall(r"\d{3}AC\d{10}_\w+", shown):
        assert re.fullmatch(r"\d{3}AC\d{10}_(?:\d{8}_\d{3}AC\d{10}|snapshot\d{8})", revision), revision
    if command[0] == "cite":  # every status whole in the last column, folded over lines but never cut
        data = run(store, *command, "--json").json()["citations"]
        column = "".join(re.split(r"\s{2,}", line.strip())[-1] for line in shown.splitlines()[2:])
        for citation in data:
            status = citation["status"] + (f" ({citation['reason']})" if citation["reason"] else "")
            assert re.sub(r"\s+", "", status) in re.sub(r"\s+", "", column), status


def test_versions_show_every_revision_id_whole(store: Path) -> None:
    shown = run(store, "law", "versions", "民法").stdout
    for revision in ("129AC0000000089_20200401_501AC0000000034", "129AC0000000089_20230614_505AC0000000053"):
        assert revision in shown


# Precedents by the names a lawyer uses: the case name of the judgment's header (事件名), with or without 事件.
CASE_NAMES = [
    ("原状回復等請求事件", "hanrei:91244"),
    ("原状回復等請求", "hanrei:91244"),
    ("特別の寄与に関する処分申立て却下審判に対する抗告棄却決定に対する許可抗告事件", "hanrei:92453"),
    ("令和3年(オ)第293号の2", "hanrei:91244"),
    ("90381", "hanrei:90381"),
]


@pytest.mark.parametrize(("case", "uid"), CASE_NAMES)
def test_precedent_show_finds_a_precedent_by_its_case_name(store: Path, case: str, uid: str) -> None:
    assert run(store, "precedent", "show", case, "--json").json()["uid"] == uid


def test_a_landmark_not_in_the_store_says_what_it_is_and_how_to_add_it(store: Path) -> None:
    done = lexgraph("precedent", "show", "三菱樹脂事件", store=store)
    assert done.code == 1
    assert "1973-12-12" in done.stderr and "51931" in done.stderr and "ingest precedents" in done.stderr
    unknown = lexgraph("precedent", "show", "存在しない事件", store=store)
    assert unknown.code == 1 and "case name" in unknown.stderr and "--kind precedent" in unknown.stderr


def test_a_placeholder_precedent_says_its_text_is_not_stored(store: Path) -> None:
    # 91120 and 90381 cite 最高裁昭和39年5月27日大法廷判決 (昭和37年(オ)第1472号), which the sample does not hold.
    stub = "cite:最高裁判所大法廷/1964-05-27/判決/昭和37年(オ)第1472号"
    shown = run(store, "precedent", "show", stub).stdout
    assert NOT_STORED_LABEL in shown and "「」" not in shown
    citing = run(store, "precedent", "show", "91120").stdout
    assert citing.count(NOT_STORED_LABEL) == 3  # each of the three decisions it cites that the sample lacks
    assert "hanrei:91120" in run(store, "precedent", "show", stub).stdout  # who cites it, citing → this one


def test_a_landmark_that_stored_judgments_cite_is_found_as_their_placeholder(store: Path) -> None:
    # 成田新法事件 is 最高裁平成4年7月1日大法廷判決 (昭和61年(行ツ)第11号), which 90381 and 91120 cite; landmarks.csv
    # does not list it, so the entry is given here as the list would give it (a label for an id, as for 大審院 cases).
    from lexgraph.documents.judgment import Landmark
    from lexgraph.read.documents import find_precedent
    from lexgraph.store import open_store

    narita = Landmark("X-narita", "成田新法事件", "1992-07-01", "最高裁判所", "大法廷", "判決")
    other_bench = Landmark("X-other", "別の事件", "1992-07-01", "最高裁判所", "第一小法廷", "判決")
    graph = open_store(str(store), read_only=True)
    try:
        found = find_precedent(graph, "成田新法事件", {"成田新法事件": narita})
        assert found.stub and found.case_number == "昭和61年(行ツ)第11号"
        with pytest.raises(LookupError, match="X-other"):
            find_precedent(graph, "別の事件", {"別の事件": other_bench})  # same day, another bench: not it
    finally:
        graph.close()


def _unmarked(text: str) -> str:
    return re.sub(r"\[-|-\]|\{\+|\+\}", "", text)


def _comparisons(shown: str) -> dict[str, dict[str, str]]:
    """The 新旧対照 a `law diff` printed: clause label → 改正前 / 改正後 → the wording's lines joined (the
    terminal's folds and the wording's own line breaks alike)."""
    found: dict[str, dict[str, str]] = {}
    clause = side = None
    for line in shown.splitlines():
        if line.split(" ", 1)[0] in ("added", "changed", "removed"):
            clause, side = line.split(maxsplit=1)[1], None
            found[clause] = {}
        elif clause is not None and line.strip() in ("改正前", "改正後"):
            side = line.strip()
            found[clause][side] = ""
        elif clause is not None and side is not None and line.startswith("    "):
            found[clause][side] += line[4:]
    return found


def test_a_diff_shows_each_change_old_and_new_with_the_changed_words_marked(store: Path) -> None:
    """The 新旧対照 a lawyer reads: each changed clause's wording before and after, the changed words marked, and
    nothing else altered (the marks taken out, each side is the stored wording)."""
    args = ("law", "diff", "民法", "--from", "2020-04-01", "--to", "2023-07-01")
    shown = run(store, *args).stdout
    stored = run(store, *args, "--json").json()["changes"]
    comparisons = _comparisons(shown)
    assert len(comparisons) == len(stored) > 0
    for change in stored:
        sides = comparisons[clause_label(change["path"])]
        for side, wording in (("改正前", change["before"]), ("改正後", change["after"])):
            if wording is None:
                assert side not in sides, (change, sides)
                continue
            assert _unmarked(sides[side]) == wording.replace("\n", ""), (change, sides)
        if change["status"] == "changed":  # every change has a mark on at least one side, and only changes do
            assert "[-" in sides["改正前"] or "{+" in sides["改正後"], sides
    assert "年齢[-二十-]歳" in comparisons["第四条"]["改正前"] and "年齢{+十八+}歳" in comparisons["第四条"]["改正後"]
    assert widest(shown) <= 80
    names = run(store, *args, "--names-only").stdout
    assert "改正前" not in names and "changed  第四条" in names
