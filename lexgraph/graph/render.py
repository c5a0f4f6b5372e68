"""Draw a `Neighbourhood` with Graphviz: PNG, SVG, or an HTML page with the SVG inline (works offline).

Graphviz runs as a program (``dot``/``twopi`` through subprocess), so there is no Python dependency; Japanese
labels need a Japanese font (IPA Gothic: ``apt-get install graphviz fonts-ipafont-gothic``).

Colours follow the integrated-citation-graph paper: laws red, precedents yellow (gold), guidelines green, books
blue, other documents grey; a precedent that is cited but not stored (a stub) has a dashed yellow outline. Edges
grow thicker with the number of citations they stand for.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from lexgraph.errors import ToolMissing, Unavailable
from lexgraph.graph.neighbourhood import GraphNode, Neighbourhood

GRAPHVIZ_MISSING = "Graphviz is needed for pictures: apt-get install graphviz fonts-ipafont-gothic"
FORMATS = (".png", ".svg", ".html", ".dot")  # .dot: the Graphviz source, written without Graphviz
FONT = "IPAGothic"
DEFAULT_ENGINE = "dot"
WIDE_STEP = 24  # nodes at one distance beyond which twopi is chosen over dot
PNG_DPI = 80  # legible captions, and a picture of a few dozen nodes stays well under 300 KB


@dataclass(frozen=True)
class KindStyle:
    name: str  # English, as in NODE_KINDS
    label: str  # Japanese, for the legend
    fill: str
    border: str
    shape: str
    style: str
    font: str = "#000000"


STYLES: dict[str, KindStyle] = {
    "law": KindStyle("law", "法令", "#ef9a9a", "#c62828", "box", "rounded,filled"),
    "whole_law": KindStyle("whole_law", "法令 (全体)", "#ffcdd2", "#c62828", "box", "filled"),
    "precedent": KindStyle("precedent", "判例", "#ffd54f", "#b8860b", "ellipse", "filled"),
    "guideline": KindStyle("guideline", "ガイドライン", "#a5d6a7", "#2e7d32", "note", "filled"),
    "book": KindStyle("book", "書籍", "#90caf9", "#1565c0", "note", "filled"),
    "other": KindStyle("other", "その他の文書", "#e0e0e0", "#616161", "note", "filled"),
    "stub": KindStyle("stub", "未収録の判例 (引用のみ)", "#fffbea", "#d4a017", "ellipse", "filled,dashed",
                      "#555555"),
}
EDGE_NAMES = {"CITES_ARTICLE": "cites article", "REFERS_TO": "refers to (参照法条)", "CITES": "cites"}


# -- DOT --------------------------------------------------------------------------------------------------------
def dot_string(text: str, *, passes: int = 1) -> str:
    """A DOT quoted string: quotes escaped, line breaks as \\n, and each backslash doubled once for every pass of
    Graphviz's escape expansion the attribute goes through, so that a literal \\N or \\G is not replaced by the
    node's or graph's name (an id goes through one pass, a tooltip through two)."""
    text = _clean(text).replace("\\", "\\" * 2 ** passes).replace('"', '\\"').replace("\n", "\\n")
    return f'"{text}"'


def tooltip_string(text: str) -> str:
    """A tooltip (the SVG's xlink:title): Graphviz leaves entities it finds alone, so & is written as one."""
    return dot_string(_clean(text).replace("&", "&amp;"), passes=2)


def html_text(text: str) -> str:
    """Text for a Graphviz HTML-like label: markup characters as entities, backslashes doubled (the label's
    text goes through Graphviz's escape expansion too)."""
    return (_clean(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("'", "&#39;").replace("\\", "\\\\").replace("\n", " "))


def _clean(text: str) -> str:
    """No control characters: Graphviz and XML reject most of them."""
    return re.sub(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", "", str(text)).replace("\r\n", "\n").replace("\r", "\n")


def _wrap(text: str, width: int, lines: int) -> list[str]:
    text = " ".join(text.split())
    out = [text[i:i + width] for i in range(0, len(text), width)][:lines]
    if len(text) > width * lines:
        out[-1] = out[-1][: width - 1] + "…"
    return out


def _subtitle(node: GraphNode) -> str:
    props = node.properties
    if node.kind == "law":
        return str(props.get("caption") or "")
    if node.kind == "whole_law":
        return str(props.get("law_num") or "")
    if node.kind in ("precedent", "stub"):
        return str(props.get("case_name") or props.get("case_number") or "")
    return ""


def _node_label(node: GraphNode, start: bool) -> str:
    size = 13 if start else 11
    head = "<BR/>".join(html_text(line) for line in _wrap(node.caption, 18, 3))
    label = f'<FONT POINT-SIZE="{size}">{head}</FONT>'
    sub = _subtitle(node)
    if sub:
        label += f'<BR/><FONT POINT-SIZE="9" COLOR="#444444">{html_text(_wrap(sub, 16, 1)[0])}</FONT>'
    return f"<{label}>"


def _tooltip(node: GraphNode) -> str:
    props = node.properties
    parts = [node.caption, node.uid]
    for key in ("case_name", "case_number", "reporter", "title", "caption", "valid_from", "valid_until", "date"):
        value = props.get(key)
        if value not in (None, "") and str(value) != node.caption:
            parts.append(f"{key}: {value}")
    text = str(props.get("text") or "")
    if text:
        parts.append(text[:200] + ("…" if len(text) > 200 else ""))
    return "\n".join(parts)


def _edge_width(count: int) -> float:
    return round(min(1.0 + 1.6 * math.log2(max(count, 1)), 8.0), 2)


def _edge_colour(source: GraphNode) -> str:
    """An edge takes its source node's colour, a little transparent."""
    return STYLES.get(source.kind, STYLES["other"]).border + "b0"


def legend_table(hood: Neighbourhood, title: str | None = None) -> str:
    """The legend (and title) as a Graphviz HTML-like table, placed as the graph's label."""
    rows = []
    if title:
        rows.append(f'<TR><TD COLSPAN="4" ALIGN="LEFT"><FONT POINT-SIZE="15">{html_text(title)}</FONT></TD></TR>')
    rows.append(f'<TR><TD COLSPAN="4" ALIGN="LEFT"><FONT POINT-SIZE="9" COLOR="#444444">{html_text(hood.note)}'
                "</FONT></TD></TR>")
    cells = []
    for kind, style in STYLES.items():
        border = 'STYLE="dashed" ' if kind == "stub" else ""
        cells.append(f'<TD {border}BORDER="2" COLOR="{style.border}" BGCOLOR="{style.fill}" WIDTH="22"> </TD>'
                     f'<TD ALIGN="LEFT">{html_text(style.name)} {html_text(style.label)}</TD>')
    legend_rows = ['<TR><TD COLSPAN="4" ALIGN="LEFT"><FONT POINT-SIZE="12">凡例 legend</FONT></TD></TR>']
    for i in range(0, len(cells), 2):
        legend_rows.append("<TR>" + "".join(cells[i:i + 2]) + "</TR>")
    legend_rows.append('<TR><TD COLSPAN="4" ALIGN="LEFT"><FONT POINT-SIZE="9">矢印: 引用する側 → 引用される側 '
                       "(arrow: citing → cited); 太さ = 引用数 (width = number of citations)</FONT></TD></TR>")
    table = ('<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="4" CELLPADDING="2">' + "".join(rows)
             + '<TR><TD COLSPAN="4"><TABLE BORDER="1" COLOR="#999999" CELLBORDER="0" CELLSPACING="4" '
             'CELLPADDING="3" BGCOLOR="#fafafa">' + "".join(legend_rows) + "</TABLE></TD></TR></TABLE>")
    return f"<{table}>"


def to_dot(hood: Neighbourhood, *, engine: str = DEFAULT_ENGINE, title: str | None = None) -> str:
    """The DOT text of a neighbourhood: one node per view node (ids n0, n1…; the uid is the SVG id)."""
    ids = {node.uid: f"n{i}" for i, node in enumerate(hood.nodes)}
    by_uid = {node.uid: node for node in hood.nodes}
    lines = ["digraph lexgraph {"]
    graph_attrs = {
        "fontname": dot_string(FONT), "bgcolor": '"white"', "pad": '"0.3"', "outputorder": '"edgesfirst"',
        "labelloc": '"b"', "labeljust": '"l"', "label": legend_table(hood, title),
    }
    if engine == "dot":
        graph_attrs.update({"rankdir": '"LR"', "nodesep": '"0.18"', "ranksep": '"0.75"'})
    elif engine == "twopi":
        graph_attrs.update({"root": ids[hood.start], "ranksep": '"1.5 1.7 1.9"', "overlap": '"false"',
                            "splines": '"true"'})
    else:
        graph_attrs.update({"overlap": '"prism"', "splines": '"true"', "sep": '"+8"', "K": '"1.2"'})
    lines.append("  graph [" + ", ".join(f"{k}={v}" for k, v in graph_attrs.items()) + "];")
    lines.append(f'  node [fontname={dot_string(FONT)}, fontsize=11, penwidth=1.4, margin="0.12,0.06"];')
    lines.append(f'  edge [fontname={dot_string(FONT)}, fontsize=8, arrowsize=0.7, fontcolor="#555555"];')
    for node in hood.nodes:
        style = STYLES.get(node.kind, STYLES["other"])
        start = node.uid == hood.start
        attrs = {
            "id": dot_string(node.uid), "label": _node_label(node, start), "shape": style.shape,
            "style": dot_string(style.style), "fillcolor": dot_string(style.fill), "color": dot_string(style.border),
            "fontcolor": dot_string(style.font), "tooltip": tooltip_string(_tooltip(node)),
        }
        if start:
            attrs["penwidth"] = "3.5"
        lines.append(f"  {ids[node.uid]} [" + ", ".join(f"{k}={v}" for k, v in attrs.items()) + "];")
    for edge in hood.edges:
        if edge.source not in ids or edge.target not in ids:
            continue
        source = by_uid[edge.source]
        attrs = {
            "penwidth": str(_edge_width(edge.count)), "color": dot_string(_edge_colour(source)),
            "tooltip": tooltip_string(f"{source.caption} → {by_uid[edge.target].caption}: "
                                      f"{EDGE_NAMES.get(edge.type, edge.type)} ×{edge.count}"),
        }
        if edge.type == "REFERS_TO":
            attrs["style"] = '"dashed"'
        if edge.count > 1:
            attrs["xlabel"] = dot_string(f"×{edge.count}")
        lines.append(f"  {ids[edge.source]} -> {ids[edge.target]} ["
                     + ", ".join(f"{k}={v}" for k, v in attrs.items()) + "];")
    lines.append("}")
    return "\n".join(lines) + "\n"


# -- running Graphviz -------------------------------------------------------------------------------------------
def graphviz(engine: str = DEFAULT_ENGINE) -> str:
    """The path of a Graphviz layout program, or ToolMissing."""
    found = shutil.which(engine)
    if found is None:
        raise ToolMissing(GRAPHVIZ_MISSING)
    return found


def run_graphviz(dot: str, fmt: str, *, engine: str = DEFAULT_ENGINE, dpi: int | None = None,
                 timeout: float = 120) -> bytes:
    """Lay out and draw DOT text in `fmt` (png, svg); `dpi` sets a bitmap's resolution."""
    program = graphviz(engine)
    command = [program, f"-T{fmt}"] + ([f"-Gdpi={dpi}"] if dpi else [])
    try:
        done = subprocess.run(command, input=dot.encode("utf-8"), capture_output=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired as error:
        raise Unavailable(f"Graphviz ({engine}) took more than {timeout:.0f} s; draw fewer nodes "
                          "(--max-nodes, --depth)") from error
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip()
        raise Unavailable(f"Graphviz ({engine}) failed: {message[:500]}")
    return done.stdout


def render(hood: Neighbourhood, out: str | Path, *, engine: str | None = None, title: str | None = None,
           dpi: int = PNG_DPI) -> Path:
    """Write the picture of `hood` to `out`: .png (at `dpi`), .svg or .html (by suffix), laid out by `engine`
    (dot, the default: citing on the left, cited on the right; twopi: rings around the start; neato, sfdp), or
    .dot, its Graphviz source, which needs no Graphviz (to draw elsewhere, or on a machine without it). Returns
    the path written."""
    path = Path(out)
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise Unavailable(f"{path.name}: the picture is written as .png, .svg, .html or .dot, not "
                          f"{suffix or 'nothing'}")
    engine = engine or choose_engine(hood)
    title = title or default_title(hood)
    dot = to_dot(hood, engine=engine, title=title)
    if suffix == ".dot":
        data = dot.encode("utf-8")
    elif suffix == ".png":
        data = run_graphviz(dot, "png", engine=engine, dpi=dpi)
    else:
        svg = run_graphviz(dot, "svg", engine=engine).decode("utf-8")
        data = (svg if suffix == ".svg" else html_page(hood, svg, title)).encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def choose_engine(hood: Neighbourhood) -> str:
    """dot (citing on the left, cited on the right) reads best, until one step holds so many nodes that its
    column grows far taller than wide; then twopi, which puts the start in the middle and one ring per step."""
    per_step = Counter(node.distance for node in hood.nodes)
    return "twopi" if max(per_step.values(), default=0) > WIDE_STEP else DEFAULT_ENGINE


def default_title(hood: Neighbourhood) -> str:
    try:
        caption = hood.node(hood.start).caption
    except KeyError:
        caption = hood.start
    when = f", {hood.as_of.isoformat()} 時点" if hood.as_of else ""
    return f"{caption} の引用関係 (depth {hood.depth}{when})"


# -- HTML -------------------------------------------------------------------------------------------------------
_SVG_PROLOGUE = re.compile(r"\A.*?(?=<svg\b)", re.S)


def html_page(hood: Neighbourhood, svg: str, title: str) -> str:
    """A standalone page: title, note, legend and the SVG inline (no script, no CDN)."""
    svg = _SVG_PROLOGUE.sub("", svg, count=1)
    legend = "".join(
        f'<li><span class="swatch {kind}" style="background:{s.fill};border-color:{s.border}"></span>'
        f"{html_text(s.name)} {html_text(s.label)}</li>" for kind, s in STYLES.items())
    rows = "".join(
        f"<tr><td>{n.distance}</td><td>{html_text(n.kind)}</td><td>{html_text(n.caption)}</td>"
        f"<td><code>{html_text(n.uid)}</code></td></tr>" for n in hood.nodes)
    return f"""<!DOCTYPE html>
<html lang="ja">
<head>
<meta charset="utf-8">
<title>{html_text(title)}</title>
<style>
body {{ font-family: "IPAGothic", "IPAexGothic", "Noto Sans CJK JP", sans-serif; margin: 1.5em; color: #222; }}
h1 {{ font-size: 1.3em; margin-bottom: 0.2em; }}
p.note {{ color: #555; margin-top: 0; }}
ul.legend {{ list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 1.2em; }}
ul.legend li {{ display: flex; align-items: center; gap: 0.4em; }}
.swatch {{ display: inline-block; width: 1.6em; height: 1em; border: 2px solid; border-radius: 3px; }}
.swatch.stub {{ border-style: dashed; }}
.graph svg {{ max-width: 100%; height: auto; }}
table {{ border-collapse: collapse; font-size: 0.9em; }}
td {{ border-top: 1px solid #ddd; padding: 2px 8px; }}
</style>
</head>
<body>
<h1>{html_text(title)}</h1>
<p class="note">{html_text(hood.note)}</p>
<h2 style="font-size:1em">凡例 legend</h2>
<ul class="legend">{legend}</ul>
<p class="note">矢印: 引用する側 → 引用される側; 太さ = 引用数. Hover a node or an edge for details.</p>
<div class="graph">
{svg}
</div>
<details><summary>nodes ({len(hood.nodes)})</summary>
<table><tr><th>distance</th><th>kind</th><th>caption</th><th>uid</th></tr>{rows}</table>
</details>
</body>
</html>
"""
