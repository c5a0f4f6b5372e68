"""The spaCy component ``lexgraph_citations`` in a GiNZA pipeline, on sentences of Supreme Court judgments
(../shared/data/precedents/supreme_court and tests/data/citations/dev_gold.jsonl).

GiNZA is a test dependency (the ``test`` extra installs ginza and ja-ginza): when ja_ginza cannot be loaded these
tests error out instead of skipping.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, DocBin

from lexgraph.citations import Citation, CitationContext, extract
from lexgraph.citations.document import document_date
from lexgraph.citations.spacy_component import CitationComponent

ROOT = Path(__file__).resolve().parent.parent
GOLD = Path(__file__).parent / "data" / "citations" / "dev_gold.jsonl"
KEY = "lexgraph_citations"
LABEL = {"statute": "STATUTE", "precedent": "PRECEDENT"}

# 84367.txt (平成２６年６月１３日第二小法廷判決) from its header to the end of the first paragraph of 理由.
JUDGMENT = (
    "平成２４年（あ）第１９３号\n"
    "\n"
    "殺人，殺人未遂，殺人予備，銃砲刀剣類所持等\n"
    "\n"
    "取締法違反被告事件\n"
    "平成２６年６月１３日\n"
    "\n"
    "第二小法廷判決\n"
    "\n"
    "主\n"
    "\n"
    "文\n"
    "\n"
    "本件上告を棄却する。\n"
    "理\n"
    "\n"
    "由\n"
    "\n"
    "弁護人和田恵，同布川佳正の上告趣意のうち，死刑制度に関して憲法１３条，３\n"
    "１条，３６条違反をいう点は，死刑制度が憲法のこれらの規定に違反しないこと\n"
    "は，当裁判所の判例（最高裁昭和２２年（れ）第１１９号同２３年３月１２日大法\n"
    "廷判決・刑集２巻３号１９１頁，最高裁昭和２６年（れ）第２５１８号同３０年４\n"
    "月６日大法廷判決・刑集９巻４号６６３頁，最高裁昭和３２年（あ）第２２４７号\n"
    "同３６年７月１９日大法廷判決・刑集１５巻７号１１０６頁）とするところである\n"
    "から，理由がなく，その余は，憲法違反，判例違反をいう点を含め，実質は単なる\n"
    "法令違反，事実誤認，量刑不当の主張であって，刑訴法４０５条の上告理由に当た\n"
    "らない（責任能力の認定につき事実誤認をいう点は，被告人本人が撤回した。）。"
)
JUDGMENT_DATE = date(2014, 6, 13)

# 83104.txt: a list (６条４項，５項) and a range (同条１項１号から３号まで: three citations with the same offsets).
RANGE = (
    "そして，建築\n"
    "基準法６条４項，５項によれば，建築主事は，同条１項１号から３号までに掲げる\n"
    "建築物の計画について申請書を受理した場合には，これを受理した日から２１日以\n"
    "内に，その計画が建築基準関係規定に適合するかどうかを審査し，適合すると認め\n"
    "たときは確認済証を，適合しないと認めたとき又は申請書の記載によっては適合す\n"
    "るかどうかを決定できない正当な理由があるときは，その旨及びその理由を記載し\n"
    "た通知書を，それぞれ申請者に交付しなければならないとされている。"
)


def _gold_sentence(doc: str, start: int) -> str:
    for line in GOLD.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["doc"] == doc and row["sentence_start"] == start:
            return row["sentence"]
    raise LookupError(f"{doc}@{start} not in {GOLD.name}")


# 会社法 and 同法 / 同条 with a Supreme Court decision between them; 当裁判所大法廷判例 with a list of ten decisions.
TEXTS = [JUDGMENT, RANGE, _gold_sentence("90461.txt", 876), _gold_sentence("92469.txt", 357)]


@pytest.fixture(scope="module")
def nlp() -> Language:
    nlp = spacy.load("ja_ginza")
    nlp.add_pipe("lexgraph_citations")
    return nlp


def _expected(text: str) -> list[Citation]:
    return extract(text, CitationContext(as_of=document_date(text)))


def _check_doc(doc: Doc, text: str) -> None:
    assert doc.text == text
    expected = _expected(text)
    assert doc._.citations == expected
    spans = list(doc.spans[KEY])
    assert [(s._.citation, s.label_) for s in spans] == [(c, LABEL[c.kind]) for c in expected]
    for span, citation in zip(spans, expected, strict=True):
        # widened to whole tokens, and no further: the first and last tokens hold the citation's ends
        assert span[0].idx <= citation.start < span[0].idx + len(span[0])
        assert span[-1].idx < citation.end <= span[-1].idx + len(span[-1])
        assert span.kb_id_ == (citation.law_id or "")


@pytest.mark.parametrize("text", TEXTS, ids=["84367-header", "83104-range", "90461", "92469"])
def test_spans_and_citations_are_those_of_the_rule_extractor(nlp: Language, text: str) -> None:
    _check_doc(nlp(text), text)


def test_the_judgment_gets_statutes_and_precedents(nlp: Language) -> None:
    doc = nlp(JUDGMENT)
    found = [(s.label_, s._.citation.article or s._.citation.date) for s in doc.spans[KEY]]
    assert found == [
        ("STATUTE", "13"), ("STATUTE", "31"), ("STATUTE", "36"),
        ("PRECEDENT", "1948-03-12"), ("PRECEDENT", "1955-04-06"), ("PRECEDENT", "1961-07-19"),
        ("STATUTE", "405"),
    ]
    assert {s._.citation.law_title for s in doc.spans[KEY] if s.label_ == "STATUTE"} == {"日本国憲法", "刑事訴訟法"}


def test_a_range_is_one_span_with_its_end(nlp: Language) -> None:
    """同条１項１号から３号まで is one citation: one span, its start and its end (`path_to`)."""
    doc = nlp(RANGE)
    spans = list(doc.spans[KEY])
    assert [(s._.citation.path, s._.citation.path_to) for s in spans] == [
        ("a6/p4", None), ("a6/p5", None), ("a6/p1/i1", "a6/p1/i3")]
    assert spans[-1]._.citation.item_to == "3"
    assert len({(s.start_char, s.end_char) for s in spans}) == 3


def test_pipe_gives_the_same_docs_as_one_by_one(nlp: Language) -> None:
    docs = list(nlp.pipe(TEXTS, batch_size=2))
    assert [d.text for d in docs] == TEXTS
    for doc, text in zip(docs, TEXTS, strict=True):
        _check_doc(doc, text)


@dataclass
class TwoVersions:
    """A store in which every law has an old version and a new one from 2017-04-01."""

    asked: list[date] = field(default_factory=list)

    def revision_in_force(self, law_id: str, on: date) -> str | None:
        self.asked.append(on)
        return f"{law_id}_{'new' if on >= date(2017, 4, 1) else 'old'}"

    def provision_exists(self, law_id: str, path: str, on: date) -> bool | None:
        return None


def test_the_judgment_date_decides_the_revision(nlp: Language) -> None:
    """No as_of configured: the statutes are resolved as of the date in the judgment's header, as `extract` does
    when given that date."""
    component = nlp.get_pipe("lexgraph_citations")
    revisions = TwoVersions()
    component.revisions = revisions
    try:
        doc = nlp(JUDGMENT)
    finally:
        component.revisions = None
    assert doc._.citations_as_of == "2014-06-13"
    assert set(revisions.asked) == {JUDGMENT_DATE}
    statutes = [c for c in doc._.citations if c.kind == "statute"]
    assert {c.revision_id for c in statutes} == {"321CONSTITUTION_old", "323ACX692D00131_old"}
    assert doc._.citations == extract(JUDGMENT, CitationContext(as_of=JUDGMENT_DATE, revisions=TwoVersions()))
    # without a store the date changes nothing, as for extract
    assert all(c.revision_id is None for c in nlp(JUDGMENT)._.citations)


def test_only_a_header_gives_the_date(nlp: Language) -> None:
    """The date is the judgment's own, from its header; a text without one (older judgments start at 主文, and a
    sentence has none) is read as of no date, whatever dates it mentions."""
    header = "平成２９年（あ）第６７号\n令和元年６月３日\n\n道路交通法違反被告事件\n\n第一小法廷判決\n\n主\n\n文\n\n"
    assert nlp(header + "本件上告を棄却する。")._.citations_as_of == "2019-06-03"
    older = "主\n\n文\n\n被上告人は，昭和五九年五月一二日から支払済みまで年五分の割合による金員を支払え。"
    assert nlp(older)._.citations_as_of is None
    assert nlp(TEXTS[2])._.citations_as_of is None


def test_config_serialization_and_doc_bytes(tmp_path: Path) -> None:
    """The config survives to_disk / spacy.load; citations survive Doc.to_bytes and DocBin (they are kept as plain
    data, which msgpack and other processes can read); nlp.pipe works with several processes."""
    blank = spacy.blank("ja")
    blank.add_pipe("lexgraph_citations", config={"as_of": "2021-04-01", "spans_key": "cites", "precedents": False})
    blank.to_disk(tmp_path / "pipeline")
    loaded = spacy.load(tmp_path / "pipeline")
    component = loaded.get_pipe("lexgraph_citations")
    assert isinstance(component, CitationComponent)
    assert (component.as_of, component.spans_key, component.precedents) == (date(2021, 4, 1), "cites", False)
    component.revisions = TwoVersions()
    doc = loaded(JUDGMENT)
    assert doc._.citations_as_of == "2021-04-01"  # the configured date wins over the header's
    assert [c.kind for c in doc._.citations] == ["statute"] * 4
    assert {c.revision_id for c in doc._.citations} == {"321CONSTITUTION_new", "323ACX692D00131_new"}

    again = Doc(loaded.vocab).from_bytes(doc.to_bytes())
    assert again._.citations == doc._.citations
    assert [s._.citation for s in again.spans["cites"]] == doc._.citations
    bin_ = DocBin(store_user_data=True)
    bin_.add(doc)
    [restored] = DocBin(store_user_data=True).from_bytes(bin_.to_bytes()).get_docs(loaded.vocab)
    assert [s._.citation for s in restored.spans["cites"]] == doc._.citations

    component.revisions = None
    docs = list(loaded.pipe(TEXTS, n_process=2, batch_size=1))
    assert [d._.citations for d in docs] == [extract(t, CitationContext(as_of=date(2021, 4, 1)), precedents=False)
                                              for t in TEXTS]


def test_a_bad_as_of_says_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="ISO date"):
        spacy.blank("ja").add_pipe("lexgraph_citations", config={"as_of": "平成26年6月13日"})


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_ginza_finds_the_factory_through_the_entry_point() -> None:
    """A fresh process that never imports lexgraph itself: spaCy finds ``lexgraph_citations`` through the
    ``spacy_factories`` entry point of the installed package."""
    done = _run(
        "import sys, spacy\n"
        "assert not any(m.startswith('lexgraph') for m in sys.modules)\n"
        "nlp = spacy.load('ja_ginza')\n"
        "nlp.add_pipe('lexgraph_citations')\n"
        "doc = nlp('民法７０９条に基づく損害賠償請求')\n"
        "print([(s.text, s.label_, s._.citation.article) for s in doc.spans['lexgraph_citations']])\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[('民法７０９条', 'STATUTE', '709')]"


def test_the_rule_extractor_does_not_import_spacy() -> None:
    done = _run(
        "import sys, lexgraph.citations\n"
        "found = lexgraph.citations.extract('民法７０９条')\n"
        "assert [c.article for c in found] == ['709'], found\n"
        "assert 'spacy' not in sys.modules, 'spacy imported'\n"
        "print('ok')\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
