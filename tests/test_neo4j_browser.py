"""What Neo4j Browser shows of lexgraph, checked on the real server (``make neo4j``): the style sheet has a style for
every label the graph holds (books and guidelines apart, answers and knowledge too), the Browser guide is the ten
queries of docs/browser.md, current, each running on a store of the sample; and, in headless Chromium, the Browser
that the local server serves plays the guide and draws a guide query with lexgraph's style sheet."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from pathlib import Path
from types import ModuleType
from urllib.parse import urlsplit

from lexgraph.client import LexGraph
from lexgraph.store.base import NODE_SPECS, GraphStore
from lexgraph.store.neo4j import Neo4jStore
from tests.capabilities import NEO4J_URI_ENV, require
from tests.conftest import NEO4J_MARKS
from tests.helpers import ROOT, SAMPLE

pytestmark = NEO4J_MARKS

GRASS = ROOT / "docker" / "lexgraph.grass"
TAX_DEMO = Path(__file__).parent / "data" / "literature" / "tax_demo"
INTERNAL_LABELS = {"_Migration", "IndexPart"}  # bookkeeping, never drawn


def guide_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_browser_guide", ROOT / "docker" / "make_browser_guide.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up while being defined
    spec.loader.exec_module(module)
    return module


def styled_labels() -> set[str]:
    return set(re.findall(r"^node\.(\w+)\s*\{", GRASS.read_text(encoding="utf-8"), flags=re.MULTILINE))


def read(store: GraphStore, cypher: str) -> list[dict[str, object]]:
    """Rows of a query run as Browser runs it: through the driver, in a read transaction."""
    assert isinstance(store, Neo4jStore)
    with store._driver.session(database=store.database, default_access_mode="READ") as session:
        return session.execute_read(lambda tx: [record.data() for record in tx.run(cypher)])


def test_the_style_sheet_styles_every_label_of_a_loaded_graph(neo4j_store: GraphStore) -> None:
    lg = LexGraph(neo4j_store)
    lg.ingest_statutes([SAMPLE / "403AC0000000090_snapshot20201118.xml"], link=False)
    assert lg.ingest_literature([TAX_DEMO]).count("added") >= 1
    book = Path(__file__).parent / "data" / "literature" / "ruling-ntt-1972-05-12-j4-14.txt"
    assert lg.ingest_literature([book], kind="book", title="判例解説").count("added") == 1
    kinds = {r["kind"]: set(r["labels"]) for r in read(neo4j_store, "MATCH (d:Document) RETURN DISTINCT d.kind "
                                                                      "AS kind, labels(d) AS labels")}
    assert kinds["book"] == {"Document", "Book"} and kinds["guideline"] == {"Document", "Guideline"}
    assert neo4j_store.counts().nodes["Document"] >= 2  # counted once, under their model label

    labels = {r["label"] for r in read(neo4j_store, "CALL db.labels() YIELD label RETURN label")}
    assert {"Law", "Provision", "Document", "Book", "Guideline", "Chunk"} <= labels
    assert labels - INTERNAL_LABELS <= styled_labels()
    assert {spec.label for spec in NODE_SPECS} | {"Book", "Guideline"} <= styled_labels()


def test_the_guide_is_current_and_its_queries_run_on_the_sample(neo4j_store: GraphStore) -> None:
    module = guide_module()
    queries = module.ten_queries((ROOT / "docs" / "browser.md").read_text(encoding="utf-8"))
    assert [q.number for q in queries] == list(range(1, 12))
    assert (ROOT / "docker" / "browser-guide.html").read_text(encoding="utf-8") == module.render(queries)
    assert module.main(["--check"]) == 0

    lg = LexGraph(neo4j_store)
    lg.ingest_statutes([SAMPLE])
    lg.ingest_precedents([Path(__file__).parent / "data" / "precedents"])  # the store docs/browser.md ran them on
    lg.ingest_literature([TAX_DEMO])
    rows = {q.number: read(neo4j_store, q.cypher) for q in queries}
    # Queries 2 and 9 need laws or books the store lacks (docs/browser.md says so); the others find what the page
    # says they find.
    assert {n for n, found in rows.items() if not found} <= {2, 3, 6, 9}
    assert [r["uid"] for r in rows[1]] == ["hanrei:91244"]
    assert rows[4] and rows[4][0]["law"] == "民法" and rows[4][0]["documents"] >= 1
    assert rows[5] and {r["from_clause"] for r in rows[5]} <= {"a722", "a722/p1", "a722/p2"}
    assert rows[7] and all(str(r["clause"]).startswith("a709") for r in rows[7])
    assert rows[10] and rows[10][0]["references"] > 0
    assert {r["p"]["uid"] for r in rows[8]} == {"hanrei:91244"} and all(r["x"] for r in rows[8])
    # 11: the gap, read from ordinary properties: no wording, and the amendments the store lacks
    assert [(r["wording"], r["answer"]) for r in rows[11]] == [(None, "not known: in a gap")]
    assert "平成三十年法律第五十九号" in rows[11][0]["amendments_in_gap"] and "2022-04-01" in rows[11][0]["their_days"]


# -- Neo4j Browser itself, in headless Chromium ---------------------------------------------------------------
# The ports of `make neo4j` (NEO4J_HTTP_PORT, NEO4J_GUIDE_PORT as its make variables; Bolt from the test URI).
HTTP_PORT = os.environ.get("NEO4J_HTTP_PORT", "7474")
FILES_URL = f"http://localhost:{os.environ.get('NEO4J_GUIDE_PORT', '7476')}"  # Main serves the guide and style there
CHROMIUM = "/usr/lib/chromium/chromium"  # Debian's `chromium` (the /usr/bin one is a wrapper script)
# A caption a lawyer cannot read: nothing, or a bare number (「２」 for a paragraph, 「0」 for a chunk).
UNREADABLE = re.compile(r"^[\s0-9０-９一二三四五六七八九十百千〇]*$")
# Graphs a lawyer looks at besides the guide's query 8: the clauses citing and cited by 第七百十条 and its
# paragraphs (paragraph-level nodes), a version with its law, and the schema view.
MORE_GRAPHS = {
    "paragraphs": "MATCH (p:Provision)-[r:CITES]-(t:Provision) WHERE p.path STARTS WITH 'a710' RETURN p, r, t",
    "versions": "MATCH (l:Law)-[h:HAS_VERSION]->(v:LawVersion) RETURN l, h, v",
    "schema": "CALL db.schema.visualization()",
}


def bolt_address() -> str:
    """host:port of the test server's Bolt (what Browser connects to)."""
    return urlsplit(os.environ.get(NEO4J_URI_ENV, "bolt://127.0.0.1:7687")).netloc.rsplit("@", 1)[-1]


def squeezed(text: str) -> str:
    """A caption without whitespace: Browser breaks a long caption into lines, at spaces or anywhere."""
    return "".join(text.split())


def grass_colours() -> dict[str, str]:
    """Each label's fill colour in the style sheet, lower-cased as the drawn SVG has it."""
    text = GRASS.read_text(encoding="utf-8")
    return {label.lower(): colour.lower() for label, colour in
            re.findall(r"^node\.(\w+)\s*\{[^}]*?\n\s*color:\s*(#[0-9A-Fa-f]{6});", text, flags=re.MULTILINE)}


def run_in_browser(page: object, command: str) -> None:
    """Type a command into Browser's editor and run it with the editor's run button (Enter may pick an
    autocompletion instead: `:clear` does)."""
    editor = page.locator("#monaco-main-editor textarea, [data-testid='activeEditor'] textarea").first  # type: ignore[attr-defined]
    editor.click()
    page.keyboard.type(command)  # type: ignore[attr-defined]
    page.keyboard.press("Escape")  # type: ignore[attr-defined]  # closes an autocompletion list
    page.locator("[data-testid='editor-Run']").first.click()  # type: ignore[attr-defined]


def drawn_nodes(page: object) -> list[dict[str, str]]:
    """Every node drawn in the visible frames: its fill and its caption (the caption's lines joined), from the DOM."""
    return page.locator("svg g.node").evaluate_all(  # type: ignore[attr-defined, no-any-return]
        """nodes => nodes.map(n => ({
             fill: (n.querySelector('circle.b-outline') || {getAttribute: () => ''}).getAttribute('fill') || '',
             caption: Array.from(n.querySelectorAll('text')).map(t => t.textContent).join('').trim()}))""")


def panel_keys(page: object, cypher: str, shot: Path) -> list[str]:
    """Draw the one node `cypher` returns, click it, and read the property names its Node properties panel lists,
    in the panel's order."""
    draw(page, cypher, shot)
    page.locator("svg g.node").first.click()  # type: ignore[attr-defined]
    table = page.locator("[data-testid='viz-details-pane-properties-table']").first  # type: ignore[attr-defined]
    table.wait_for(timeout=30_000)
    page.screenshot(path=str(shot))  # type: ignore[attr-defined]
    return table.locator("tr td:first-child").all_inner_texts()  # type: ignore[no-any-return]


def draw(page: object, cypher: str, shot: Path) -> list[dict[str, str]]:
    """Clear the stream, run `cypher`, wait for the graph to settle, take a screenshot, read the drawn nodes."""
    run_in_browser(page, ":clear")
    run_in_browser(page, " ".join(cypher.split()))
    page.locator("svg g.node").first.wait_for(timeout=60_000)  # type: ignore[attr-defined]
    page.wait_for_timeout(2_000)  # type: ignore[attr-defined]  # the force layout settles
    page.screenshot(path=str(shot))  # type: ignore[attr-defined]
    return drawn_nodes(page)


def test_browser_draws_the_guide_s_graphs_with_readable_captions(neo4j_store: GraphStore, tmp_path: Path) -> None:
    """Headless Chromium opens the Browser the local server serves, loads the style sheet, plays the guide, runs
    query 8 from its slide, then the other graphs a lawyer draws; each is screenshot, and every node drawn must be
    in lexgraph's colour for its label and captioned by a name a lawyer reads: never empty, never a bare number."""
    require("browser")
    from playwright.sync_api import sync_playwright

    lg = LexGraph(neo4j_store)
    lg.ingest_statutes([SAMPLE / "129AC0000000089_20200401_501AC0000000034.xml"])
    lg.ingest_precedents([SAMPLE / "precedents" / "91244.txt"])
    # Indexed, as a searchable store is: the clauses' search entries must stay out of the panel a lawyer reads.
    assert lg.index(laws=["民法"]).embedded_texts == 0  # the vectors the package ships
    guide = guide_module().ten_queries((ROOT / "docs" / "browser.md").read_text(encoding="utf-8"))
    drawn: dict[str, list[dict[str, str]]] = {}
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            page = chromium.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"http://localhost:{HTTP_PORT}/browser/?preselectAuthMethod=NO_AUTH&dbms=neo4j://{bolt_address()}")
            page.get_by_text("You have a working connection").wait_for(timeout=60_000)

            run_in_browser(page, f":style {FILES_URL}/lexgraph.grass")
            page.locator("[data-testid='styleResetButton']").first.wait_for(timeout=30_000)  # the style frame

            run_in_browser(page, f":play {FILES_URL}/browser-guide.html")
            page.get_by_text("lexgraph: ten queries").first.wait_for(timeout=30_000)
            for _ in range(8):  # to the slide of query 8, which draws a graph
                page.locator("[data-testid='nextSlide']").first.click()
            page.get_by_text(guide[7].title.split(",")[0]).first.wait_for(timeout=10_000)
            page.locator("pre.runnable").filter(has_text="hanrei:91244").first.click()  # into the editor
            page.locator("[data-testid='editor-Run']").click()
            page.locator("svg g.node").first.wait_for(timeout=60_000)
            page.wait_for_timeout(2_000)  # the force layout settles
            page.screenshot(path=str(tmp_path / "guide-8.png"))
            drawn["guide 8"] = drawn_nodes(page)
            for name, cypher in MORE_GRAPHS.items():
                drawn[name] = draw(page, cypher, tmp_path / f"{name}.png")
            keys = panel_keys(page, "MATCH (p:Provision {path: 'a709/p1'}) RETURN p LIMIT 1", tmp_path / "panel.png")
        finally:
            chromium.close()
    colours = grass_colours()
    fills = {node["fill"].lower() for node in drawn["guide 8"]}
    # The precedent, its chunks and the clauses they cite, each in lexgraph's colour for its label.
    assert {colours["precedent"], colours["chunk"], colours["provision"]} <= fills, (fills, colours)
    captions = {name: [squeezed(node["caption"]) for node in nodes] for name, nodes in drawn.items()}
    assert all(captions.values()), captions
    unreadable = {name: [c for c in found if UNREADABLE.fullmatch(c)] for name, found in captions.items()}
    assert not any(unreadable.values()), unreadable
    # What the captions say (Browser cuts a caption that does not fit its circle, with "…"): the judgment as
    # cited, its chunks by lawsuit id, the law named on each clause and each version.
    assert any(c.startswith("最二小判令和4.6.1") for c in captions["guide 8"]), captions["guide 8"]
    assert any(c.startswith("91244¶") for c in captions["guide 8"]), captions["guide 8"]
    assert all(c.startswith("民法第") for c in captions["paragraphs"]), captions["paragraphs"]
    assert any(c.startswith("民法（令和") for c in captions["versions"]), captions["versions"]
    assert {"Law", "Provision", "Precedent", "Chunk"} <= set(captions["schema"]), captions["schema"]
    assert all((tmp_path / f"{name}.png").stat().st_size > 20_000 for name in [*MORE_GRAPHS, "guide-8"])
    # The clause's panel: its name and text, and none of the search fields (they live on its search
    # entry, (:Provision)-[:INDEXED_AS]->(:ProvisionSearch), where neo4j-graphrag's retrievers find them).
    assert {"name", "text", "law_id", "path"} <= set(keys), keys
    assert not [k for k in keys if k in ("embedding", "tokens", "index_key") or k.startswith("search_")], keys
    entry = neo4j_store.run_read_only("MATCH (:Provision {path: 'a709/p1'})-[:INDEXED_AS]->(s:ProvisionSearch) "
                                      "RETURN size(s.embedding) AS dim, s.name AS name LIMIT 1")
    assert entry and entry[0]["dim"] == 384 and entry[0]["name"].startswith("民法 第七百九条第一項"), entry
