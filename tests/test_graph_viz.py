"""The citation neighbourhood of a node and its pictures (`lexgraph graph neighbourhood`, `lexgraph viz`).

The store is built through the real CLI from the small fixtures; pictures are drawn by the real Graphviz. The picture
tests need it (``requires("graphviz")``): skipped without it, with the command that installs it, and failed in CI,
which installs it.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
import zlib
from datetime import date
from pathlib import Path

import pytest

from lexgraph import LexGraph
from lexgraph.errors import NodeNotFound, NotFound, ToolMissing
from lexgraph.graph import Neighbourhood, neighbourhood, resolve_node
from lexgraph.graph.neighbourhood import GraphEdge, GraphNode, article_path
from lexgraph.graph.render import STYLES, render, to_dot
from lexgraph.store.names import era_date, precedent_caption
from tests.helpers import ROOT, lexgraph

PRECEDENTS = ROOT / "tests" / "data" / "precedents"
LITERATURE = ROOT / "tests" / "data" / "literature" / "tax_demo"
METADATA = PRECEDENTS / "sample_supreme_court_metadata.jsonl"
A709 = "129AC0000000089/a709@20200401"
A710 = "129AC0000000089/a710@20200401"


@pytest.fixture(scope="module")
def store(sample_store: Path) -> Path:
    """The sample's statutes (a copy of the run's ingested sample), judgments with their metadata, and literature."""
    for args in (("precedents", PRECEDENTS, METADATA), ("literature", LITERATURE)):
        run = lexgraph("ingest", *args, store=sample_store)
        assert run.code == 0, run.stderr
    return sample_store


@pytest.fixture(scope="module")
def lg(store: Path):
    with LexGraph.open(store, read_only=True) as graph:
        yield graph


# -- the neighbourhood ------------------------------------------------------------------------------------------
def test_a_precedent_cites_its_article_at_depth_one(lg: LexGraph) -> None:
    hood = neighbourhood(lg.store, "hanrei:91244", 1)
    start = hood.node("hanrei:91244")
    assert (start.kind, start.caption, start.distance) == ("precedent", "最二小判 令和4.6.17", 0)
    article = hood.node(A709)
    assert (article.kind, article.caption, article.distance) == ("law", "民法 第七百九条", 1)
    assert article.properties["caption"] == "（不法行為による損害賠償）"
    # two chunks cite 第七百九条: one edge at document level, counting both
    assert hood.edges == (GraphEdge("hanrei:91244", A709, "CITES_ARTICLE", 2),)
    assert not hood.truncated


def test_depth_two_reaches_the_articles_citing_the_article(lg: LexGraph) -> None:
    near, far = neighbourhood(lg.store, "hanrei:91244", 1), neighbourhood(lg.store, "hanrei:91244", 2)
    assert {n.uid for n in near.nodes} < {n.uid for n in far.nodes}
    assert far.node(A710).distance == 2  # 第七百十条 cites 「前条」
    assert GraphEdge(A710, A709, "CITES", 1) in far.edges
    assert neighbourhood(lg.store, "hanrei:91244", 0).nodes == (far.node("hanrei:91244"),)


def test_clauses_are_shown_as_their_articles(lg: LexGraph) -> None:
    hood = neighbourhood(lg.store, "hanrei:92453", 1)
    articles = {n.caption for n in hood.nodes if n.kind == "law"}
    assert "民法 第千五十条" in articles  # cited as 第千五十条第五項, shown as the article
    assert all("/p" not in n.uid for n in hood.nodes)
    # and starting from a paragraph starts from its article
    assert neighbourhood(lg.store, "129AC0000000089/a709/p1@20200401", 0).start == A709


def test_stubs_and_precedent_citations(lg: LexGraph) -> None:
    hood = neighbourhood(lg.store, "hanrei:91120", 1)
    kinds = {n.uid: n.kind for n in hood.nodes}
    assert kinds["hanrei:90381"] == "precedent"
    assert kinds["cite:最高裁判所大法廷/1964-05-27/判決/昭和37年(オ)第1472号"] == "stub"
    assert hood.node("cite:最高裁判所大法廷/1964-05-27/判決/昭和37年(オ)第1472号").caption == "最大判 昭和39.5.27"
    assert GraphEdge("hanrei:91120", "hanrei:90381", "CITES", 1) in hood.edges
    # the other direction: 90381 is cited by 91120
    assert GraphEdge("hanrei:91120", "hanrei:90381", "CITES", 1) in neighbourhood(lg.store, "hanrei:90381", 1).edges


def test_max_nodes_keeps_the_nearest_and_says_what_was_cut(lg: LexGraph) -> None:
    full = neighbourhood(lg.store, "hanrei:92453", 2)
    assert len(full.nodes) > 4 and not full.truncated
    hood = neighbourhood(lg.store, "hanrei:92453", 2, max_nodes=4)
    assert len(hood.nodes) == 4
    assert hood.truncated and hood.cut > 0 and hood.cut_at in (1, 2)
    assert hood.node("hanrei:92453").distance == 0
    uids = {n.uid for n in hood.nodes}
    assert all(e.source in uids and e.target in uids for e in hood.edges)
    assert "left out" in hood.note and "max 4 nodes" in hood.note
    with pytest.raises(ValueError):
        neighbourhood(lg.store, "hanrei:92453", 1, max_nodes=0)


def test_as_of_leaves_out_later_documents(lg: LexGraph) -> None:
    assert neighbourhood(lg.store, A709, 1, as_of=date(2022, 6, 17)).node("hanrei:91244")
    before = neighbourhood(lg.store, A709, 1, as_of=date(2021, 1, 1))
    assert "hanrei:91244" not in {n.uid for n in before.nodes}


def test_resolve_node(lg: LexGraph) -> None:
    store = lg.store
    assert resolve_node(store, "hanrei:91244") == "hanrei:91244"
    assert resolve_node(store, "91244") == "hanrei:91244"
    assert resolve_node(store, "民法 第七百九条", as_of=date(2024, 1, 1)) == A709
    assert resolve_node(store, "民法709条") == A709
    assert resolve_node(store, "民法 第七百九条第一項").startswith("129AC0000000089/a709")
    assert resolve_node(store, "令和3年(オ)第293号の2") == "hanrei:91244"
    assert resolve_node(store, "doc:shotoku-kihon-tsutatsu-36-1") == "doc:shotoku-kihon-tsutatsu-36-1"
    for text in ("hanrei:1", "1", "民法典 第一条", "nothing at all", "民法 第九千条", "  "):
        with pytest.raises(NotFound):
            resolve_node(store, text)
    with pytest.raises(NodeNotFound, match="hanrei:1"):
        resolve_node(store, "hanrei:1")


def test_captions() -> None:
    assert article_path("a709/p1/i2") == "a709"
    assert article_path("a3_2/p1") == "a3_2"
    assert article_path("suppl[昭和62年9月26日法律第101号]/a4/p1") == "suppl[昭和62年9月26日法律第101号]/a4"
    assert era_date(date(2019, 5, 1)) == "令和元.5.1"
    row = {"uid": "x", "court": "名古屋高等裁判所金沢支部", "date": date(1990, 1, 8), "decision_type": "決定"}
    assert precedent_caption(row) == "名古屋高金沢支決 平成2.1.8"
    assert precedent_caption({"uid": "cite:x", "court": "大審院", "date": date(1926, 10, 14),
                              "decision_type": "判決"}) == "大判 大正15.10.14"
    assert precedent_caption({"uid": "hanrei:5", "court": None, "date": None, "case_name": "損害賠償請求事件"}) \
        == "損害賠償請求事件"


# -- the CLI ----------------------------------------------------------------------------------------------------
def test_cli_json(store: Path) -> None:
    run = lexgraph("graph", "neighbourhood", "91244", "--depth", "1", "--json", store=store)
    assert run.code == 0, run.stderr
    data = run.json()
    assert data["start"] == "hanrei:91244" and data["depth"] == 1 and data["truncated"] is False
    nodes = {n["uid"]: n for n in data["nodes"]}
    assert nodes[A709]["kind"] == "law" and nodes[A709]["caption"] == "民法 第七百九条"
    assert nodes["hanrei:91244"]["properties"]["date"] == "2022-06-17"
    assert data["edges"] == [{"source": "hanrei:91244", "target": A709, "type": "CITES_ARTICLE", "count": 2}]

    run = lexgraph("graph", "neighbourhood", "民法 第七百九条", "--depth", "2", "--max-nodes", "2",
                   "--as-of", "2024-01-01", "--json", store=store)
    assert run.code == 0, run.stderr
    data = run.json()
    assert data["start"] == A709 and len(data["nodes"]) == 2
    assert data["truncated"] and data["cut"] == 1 and data["cut_at"] == 1  # 第七百十条 and 91244 are both near

    run = lexgraph("graph", "neighbourhood", "91244", "--depth", "1", store=store)
    assert run.code == 0 and "民法 第七百九条" in run.stdout and "CITES_ARTICLE ×2" in run.stdout


def test_cli_errors(store: Path, tmp_path: Path) -> None:
    run = lexgraph("graph", "neighbourhood", "民法 第九千条", store=store)
    assert run.code == 1 and "第九千条" in run.stderr
    run = lexgraph("graph", "neighbourhood", "hanrei:1", store=store)
    assert run.code == 1 and "hanrei:1" in run.stderr
    run = lexgraph("graph", "neighbourhood", "91244", "--depth", "-1", store=store)
    assert run.code == 2
    run = lexgraph("viz", "91244", "--out", tmp_path / "x.jpg", store=store)
    assert run.code == 2 and ".png, .svg, .html or .dot" in run.stderr
    run = lexgraph("viz", "91244", "--out", tmp_path / "x.png", store=tmp_path / "nowhere")
    assert run.code == 3


def test_viz_without_graphviz_says_how_to_install_it(store: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    env = {**os.environ, "PATH": str(bin_dir), "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([sys.executable, "-m", "lexgraph", "viz", "91244", "--out", str(tmp_path / "x.png"),
                           "--store", str(store)], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 3
    assert "apt-get install graphviz fonts-ipafont-gothic" in done.stderr
    assert not (tmp_path / "x.png").exists()


def test_render_raises_a_clear_error_without_graphviz(lg: LexGraph, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    hood = neighbourhood(lg.store, "hanrei:91244", 1)
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(ToolMissing, match="apt-get install graphviz fonts-ipafont-gothic"):
        render(hood, tmp_path / "x.svg")


def test_viz_writes_the_graphviz_source_without_graphviz(store: Path, tmp_path: Path) -> None:
    env = {**os.environ, "PATH": str(tmp_path / "empty"), "PYTHONIOENCODING": "utf-8"}  # no `dot` to be found
    done = subprocess.run([sys.executable, "-m", "lexgraph", "viz", "民法 第七百九条", "--depth", "2", "--out",
                           str(tmp_path / "709.dot"), "--store", str(store)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    source = (tmp_path / "709.dot").read_text(encoding="utf-8")
    assert source.startswith("digraph lexgraph {") and source.rstrip().endswith("}")
    assert "民法 第七百十条" in source and "民法 第七百九条" in source  # 第七百十条's 「前条」 cites it


# -- pictures ---------------------------------------------------------------------------------------------------
def _png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the unfiltered rows of an 8-bit RGB/RGBA PNG (enough for Graphviz's cairo output)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    assert header is not None
    width, height, bit_depth, colour_type, _, _, interlace = header
    assert bit_depth == 8 and colour_type in (2, 6) and interlace == 0, header
    bpp = 4 if colour_type == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - bpp] if x >= bpp else 0
            up = previous[x]
            corner = previous[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[x] = (line[x] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, [bytes(r[i:i + 3]) for r in rows for i in range(0, len(r), bpp)]


def _rgb(colour: str) -> bytes:
    return bytes.fromhex(colour.removeprefix("#"))


@pytest.mark.requires("graphviz")
def test_viz_png_is_a_real_picture_in_the_kinds_colours(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "x.png"
    run = lexgraph("viz", "91244", "--depth", "2", "--out", out, store=store)
    assert run.code == 0, run.stderr
    width, height, pixels = _png_pixels(out.read_bytes())
    assert width > 200 and height > 200
    colours = set(pixels)
    assert len(colours) > 50  # text, fills, anti-aliasing: not a blank page
    for kind in ("law", "precedent", "guideline", "book"):  # node fills and the legend's swatches
        assert _rgb(STYLES[kind].fill) in colours, kind


@pytest.mark.requires("graphviz")
def test_viz_svg_has_the_legend_and_the_japanese_captions(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "x.svg"
    run = lexgraph("viz", "hanrei:91244", "--depth", "2", "--out", out, store=store)
    assert run.code == 0, run.stderr
    svg = out.read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert "凡例" in svg and "legend" in svg
    for kind in ("law", "precedent", "guideline", "book", "法令", "判例"):
        assert kind in svg
    for caption in ("民法 第七百九条", "民法 第七百十条", "最二小判 令和4.6.17"):
        assert caption in svg
    assert 'font-family="IPAGothic' in svg
    assert STYLES["law"].fill in svg and STYLES["precedent"].fill in svg


@pytest.mark.requires("graphviz")
def test_viz_html_is_a_standalone_page_with_the_svg_inline(store: Path, tmp_path: Path) -> None:
    out = tmp_path / "x.html"
    run = lexgraph("viz", "民法 第七百九条", "--depth", "1", "--out", out, store=store)
    assert run.code == 0, run.stderr
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<svg" in page and "</svg>" in page
    assert "<?xml" not in page and "<script" not in page
    assert "<title>民法 第七百九条 の引用関係" in page and "凡例" in page
    assert "最二小判 令和4.6.17" in page
    links = [part for part in page.split('"') if part.startswith(("http://", "https://"))]
    assert all("www.w3.org" in link for link in links)  # SVG namespaces only: nothing to fetch


@pytest.mark.requires("graphviz")
def test_labels_are_escaped_for_dot(tmp_path: Path) -> None:
    """Quotes, backslashes (\\N would become the node's name), markup and line breaks come out as written."""
    tricky = 'a "quoted" \\N back\\slash <b>&amp; \'x\'\nnext'
    hood = Neighbourhood(
        start="doc:a", depth=1, as_of=None, max_nodes=10,
        nodes=(GraphNode("doc:a", "book", tricky, 0, {"text": tricky}),
               GraphNode('x"y\\z', "stub", "大判 大正15.10.14", 1, {"case_name": '<>&"'})),
        edges=(GraphEdge("doc:a", 'x"y\\z', "CITES", 3),),
    )
    svg = render(hood, tmp_path / "x.svg").read_text(encoding="utf-8")
    assert ">a &quot;quoted&quot; \\N back</text>" in svg  # the caption's first line
    assert 'xlink:title="a &quot;quoted&quot; \\N back\\slash &lt;b&gt;&amp;amp; &#39;x&#39;&#10;next' in svg
    assert 'id="x&quot;y\\z"' in svg and ">&lt;&gt;&amp;&quot;</text>" in svg
    assert ">大判 大正15.10.14</text>" in svg
    assert render(hood, tmp_path / "x.png").stat().st_size > 1000
    assert to_dot(hood).count("digraph") == 1


def _parse_grass(text: str) -> dict[str, dict[str, str]]:
    """Neo4j Browser's own reading of a .grass file (GraphStyle.parse): selector { key: value; … }, quotes
    dropped, no comments."""
    rules: dict[str, dict[str, str]] = {}
    selector, body, inside, quoted = "", "", False, False
    for c in text:
        if c == "'":
            quoted = not quoted
            continue
        if c == "{" and not quoted:
            inside = True
            continue
        if c == "}" and not quoted:
            rules[selector] = dict((k.strip(), v.strip()) for k, _, v in (p.partition(":") for p in body.split(";"))
                                   if k.strip() and v.strip())
            selector, body, inside = "", "", False
            continue
        if inside:
            body += c
        elif not c.isspace():
            selector += c
    return rules


def test_the_browser_style_sheet_uses_the_same_colours() -> None:
    rules = _parse_grass((ROOT / "docker" / "lexgraph.grass").read_text(encoding="utf-8"))
    assert {"node", "relationship", "node.Law", "node.Provision", "node.Precedent", "node.Document",
            "node.Chunk"} <= set(rules)
    assert rules["node.Provision"]["color"].lower() == STYLES["law"].fill
    assert rules["node.Law"]["color"].lower() == STYLES["law"].border
    assert rules["node.Precedent"]["color"].lower() == STYLES["precedent"].fill
    assert rules["node.Document"]["color"].lower() in (STYLES["guideline"].fill, STYLES["book"].fill)
    captions = {k: v["caption"] for k, v in rules.items() if "caption" in v}
    # Every node by the name lexgraph writes on it (lexgraph/store/names.py): 民法 第七百十条第一項, 91244 ¶3 …;
    # the bare node rule too, so that the schema view (whose nodes carry only `name`) keeps its captions.
    node_rules = {k for k in rules if k == "node" or k.startswith("node.")}
    assert {k: captions.get(k) for k in node_rules} == dict.fromkeys(node_rules, "{name}")
    assert all(v.startswith("#") and len(v) == 7 for r in rules.values() for k, v in r.items() if "color" in k)
