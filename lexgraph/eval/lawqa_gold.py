"""Gold citations from the Digital Agency's lawqa_jp dataset, and the resolver's accuracy on them.

``dev_with_resolved_references.json`` writes each relative reference of its statute excerpts with its target in
brackets: 「前項[第21条第1項]」, 「法第二十四条第一項[金融商品取引法第二十四条第一項]」, 「以下この条[第24条]」.
Without the brackets the text is exactly ``dev.json``. Each excerpt says which clause it is by its headings
(``##`` law, ``###`` 条, ``####`` 項, ``#####`` 号), so every bracket is a test of the resolver reading a clause
of a statute: current law and clause from the headings, relative reference from the text, target from the bracket.

`build_gold` turns the dataset into gold lines in the gold format of `lexgraph.eval.citations` (one line per
annotated text line, with the clause it belongs to under ``context``); `evaluate` replays them through the
extractor and scores each bracket.

出典：デジタル庁 日本の法令に関する多肢選択式QAデータセット (PDL 1.0).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from lexgraph.citations.context import CitationContext, ResolutionState
from lexgraph.citations.extractors import DEFAULT_EXTRACTOR, extractor_named
from lexgraph.citations.lawnames import LawNames
from lexgraph.citations.model import CITE_JSON_KEYS, LINKABLE, Citation, Mention
from lexgraph.citations.resolve import resolve_with_state
from lexgraph.citations.statutes import find_statutes
from lexgraph.eval.lawqa import heading as lawqa_heading
from lexgraph.numerals import IROHA, NUMERAL_CHARS, parse_clause
from lexgraph.statutes.catalog import Catalog

Refine = Callable[[str, list[Mention]], list[Mention]]

SOURCE_NOTE = "出典：デジタル庁 日本の法令に関する多肢選択式QAデータセット (PDL 1.0); brackets turned into gold"

_BRACKETS = re.compile(r"\[([^\[\]]+)\]((?: \[[^\[\]]+\])*)")
_MORE_BRACKETS = re.compile(r" \[([^\[\]]+)\]")
_N = f"[{NUMERAL_CHARS}]+"
# What a written reference is made of, to find where the surface before a bracket starts (heuristic: the gold
# surface is the longest run of these tokens ending at the bracket, without connectors at either end).
_TOKEN = (
    rf"第?{_N}[条項号](?:の{_N})*|[{IROHA}]|から|まで|及び|又は|並びに|若しくは|[、，・]"
    r"|前各|前|次|同|本|この|法|令|条|項|号"
)
_SURFACE = re.compile(rf"(?:{_TOKEN})+$")
_CONNECTORS = r"(?:から|まで|及び|又は|並びに|若しくは|[、，・])+"
_LEADING = re.compile(_CONNECTORS)
_TRAILING = re.compile(_CONNECTORS + "$")


@dataclass(frozen=True)
class Line:
    """One line of an excerpt (a heading or text), the clause it belongs to, and its offset in the excerpt."""

    offset: int
    text: str
    law_title: str
    path: str | None
    heading: bool = False


@dataclass(frozen=True)
class Evaluation:
    """How many brackets the resolver got right, and the ones it missed (gold entry, what it found there)."""

    total: int
    correct: int
    misses: tuple[tuple[Mapping[str, Any], tuple[Mapping[str, Any], ...]], ...]

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else 0.0


def strip_brackets(text: str) -> str:
    """The excerpt as ``dev.json`` has it: brackets (and the spaces between consecutive ones) removed."""
    return _BRACKETS.sub("", text)


def read_lines(context: str) -> Iterator[Line]:
    """The lines of an excerpt with the law and clause their headings put them in (offsets are into the excerpt
    with brackets removed). Headings that are not clauses (guideline sections) leave the path None. Headings are
    given too: a reader of the excerpt sees 「## 金融商品取引法」 before the bare 法 of a guideline under it."""
    law_title = ""
    levels: dict[str, str | None] = {}
    offset = 0
    for raw in context.split("\n"):
        text = strip_brackets(raw)
        found = lawqa_heading(raw)
        if found is not None:
            depth, title = found
            if depth == 2:
                law_title, levels = title, {}
            else:
                levels = _descend(levels, title, depth)
            yield Line(offset, raw, law_title, _path(levels), heading=True)
        elif text.strip():
            yield Line(offset, raw, law_title, _path(levels))
        offset += len(text) + 1


def _descend(levels: dict[str, str | None], title: str, depth: int) -> dict[str, str | None]:
    """Levels after a heading: 第N条 opens an article, 第N項 a paragraph, 第N号 an item, イ / (1) a subitem;
    anything else is a section that is not a clause (its depth still closes the deeper levels)."""
    kept = {k: v for k, v in levels.items() if int(k.split(":")[0]) < depth}
    compact = title.replace(" ", "").replace("　", "")
    level = None
    if re.fullmatch(rf"第{_N}条(?:の{_N})*", compact):
        level = "article"
    elif re.fullmatch(rf"第{_N}項", compact):
        level = "paragraph"
    elif re.fullmatch(rf"第{_N}号(?:の{_N})*", compact):
        level = "item"
    elif re.fullmatch(rf"[{IROHA}]|[(（]{_N}[)）]", compact):
        level = "subitem"
    kept[f"{depth}:{level or 'section'}"] = compact if level else None
    return kept


def _path(levels: dict[str, str | None]) -> str | None:
    if any(v is None for v in levels.values()) or not levels:
        return None
    return parse_clause("".join(v for v in levels.values() if v))


def _law_and_path(target: str, catalog: Catalog) -> tuple[str | None, str | None]:
    """「金融商品取引法施行令第2条の12」 → (金融商品取引法施行令, a2_12); 「第24条」 → (None, a24)."""
    path = parse_clause(target)
    if path is not None:
        return None, path
    for cut in range(len(target) - 1, 0, -1):
        path = parse_clause(target[cut:])
        if path is not None and catalog.lookup(target[:cut]):
            return target[:cut], path
    return None, None


def gold_lines(samples: Iterable[Mapping[str, Any]], catalog: Catalog) -> Iterator[dict[str, Any]]:
    """Every line of every excerpt that has a bracket, in order, in the gold format of `lexgraph.eval.citations`.
    Only lines with ``"annotated": true`` carry gold; the others (headings, lines without brackets) are there so
    that a replay reads the excerpt as a reader does. ``context`` names the clause being read (``in_law``,
    ``in_law_id``, ``at``) and each entry has its provision ``path`` and the bracket text as ``gold``."""
    for sample in samples:
        if "[" not in sample["コンテキスト"]:
            continue
        for line in read_lines(sample["コンテキスト"]):
            sentence = strip_brackets(line.text)
            current = catalog.lookup(line.law_title)
            current_id = current[0].law_id if len(current) == 1 else None
            annotated = "[" in line.text and not line.heading
            yield {
                "doc": sample["ファイル名"],
                "sentence_start": line.offset,
                "sentence_end": line.offset + len(sentence),
                "sentence": sentence,
                "annotated": annotated,
                "context": {"in_law": line.law_title, "in_law_id": current_id, "at": line.path},
                "citations": (list(_entries(line.text, line.law_title, current_id, line.path, catalog))
                              if annotated else []),
            }


def _entries(raw: str, law_title: str, law_id: str | None, current_path: str | None,
             catalog: Catalog) -> Iterator[dict[str, Any]]:
    for match in _BRACKETS.finditer(raw):
        before = strip_brackets(raw[:match.start()])
        start = end = len(before)
        found = _SURFACE.search(before)
        if found is not None:
            lead = _LEADING.match(found.group())
            trail = _TRAILING.search(found.group())
            start = found.start() + (lead.end() if lead else 0)
            end = found.end() - (len(trail.group()) if trail else 0)
            start = min(start, end)
        for target in [match.group(1), *_MORE_BRACKETS.findall(match.group(2))]:
            title, path = _law_and_path(target, catalog)
            entry_title = title or law_title
            found_laws = catalog.lookup(entry_title)
            entry_id = (found_laws[0].law_id if len(found_laws) == 1 else None) if title else law_id
            entry = _entry(start, end, before[start:end], entry_title, entry_id, path, target)
            if path is None and law_id is None:
                # The text is no statute (a 通知 such as 医薬品等適正広告基準の解説及び留意事項) and the bracket
                # one of its own sections (本項[第4]): a real reference, but to no statute clause. The right reading
                # is "unresolved, with a reason", never a guessed clause (the gold's conventions).
                entry.update(status="unresolved", expect="unresolved", why=NOT_A_STATUTE)
                yield entry
                continue
            problem = _dispute(path, title, current_path)
            if problem:
                entry["disputed"] = problem
            yield entry


NOT_A_STATUTE = ("the text is no statute (a notice or guideline) and the bracket one of its own sections: a statute "
                 "citation of it must stay unresolved")


def _dispute(path: str | None, title: str | None, current_path: str | None) -> str | None:
    """Why a bracket cannot be right as a statute clause, when that can be seen without judgement."""
    if path is None:
        return "the bracket names no statute clause (a section of a guideline)"
    if title is None and path.startswith("a") and current_path is not None and current_path.startswith("p"):
        return "the bracket names an article of the law being read, which has no articles here"
    return None


def _entry(start: int, end: int, surface: str, title: str, law_id: str | None, path: str | None,
           target: str) -> dict[str, Any]:
    fields = dict.fromkeys(CITE_JSON_KEYS)
    fields.update(start=start, end=end, surface=surface, kind="statute", law_title=title, law_id=law_id,
                  status="resolved")
    if path is not None:
        parts = dict(re.findall(r"([apis])(\d+(?:_\d+)*)", path))
        subitems = re.findall(r"s(\d+(?:_\d+)*)", path)
        fields.update(article=parts.get("a"), paragraph=parts.get("p"), item=parts.get("i"),
                      subitem="/".join(subitems) or None)
    fields["path"] = path
    fields["gold"] = target
    return fields


def score_extractor(lines: Iterable[Mapping[str, Any]], extractor: str = DEFAULT_EXTRACTOR) -> Evaluation:
    """The resolver's accuracy on the lawqa_jp gold (``lexgraph eval citations`` on lines with a ``context``):
    every bracketed reference replayed in its clause with the bundled catalogue, the mentions refined by the
    parse of `extractor` (one of `EXTRACTORS`) when it has one. Raises `ConfigurationError` for an unknown
    extractor, `ToolMissing` for one not installed."""
    chosen = extractor_named(extractor)
    return evaluate(lines, Catalog.bundled(), refine=getattr(chosen, "refine", None))


def evaluate(lines: Iterable[Mapping[str, Any]], catalog: Catalog, include_disputed: bool = True,
             refine: Refine | None = None) -> Evaluation:
    """Replay the gold lines in order, one document at a time, carrying what was cited from line to line (as a
    reader of the excerpt would), and count the brackets whose law and clause the resolver found on the span. A
    law heading is read as plain text with no current clause (「## 金融商品取引法」 names a law); clause headings
    are skipped. `refine` (text, mentions → mentions) is an extractor's pass over the mentions before they are
    resolved (the GiNZA extractor's parse), so that extractors can be compared on this gold too."""
    names = LawNames.for_catalog(catalog)
    total = correct = 0
    misses: list[tuple[Mapping[str, Any], tuple[Mapping[str, Any], ...]]] = []
    state = ResolutionState()
    doc = None
    for line in lines:
        if line["doc"] != doc:
            doc, state = line["doc"], ResolutionState()
        where = line["context"]
        heading = lawqa_heading(line["sentence"])
        if heading is not None and heading[0] > 2:
            continue  # 「### 第24条」 says where the text is, it cites nothing
        context = CitationContext(catalog=catalog, current_law_id=None if heading else where["in_law_id"],
                                  current_path=None if heading else where["at"], state=state)
        mentions = find_statutes(line["sentence"], names)
        if refine is not None:
            mentions = refine(line["sentence"], mentions)
        citations, state = resolve_with_state(mentions, context)
        for gold in line["citations"]:
            if gold.get("disputed") and not include_disputed:
                continue
            total += 1
            near = [c for c in citations if c.start < max(gold["end"], gold["start"] + 1) and gold["start"] < c.end]
            if gold.get("expect") == "unresolved":
                right = not any(c.status in LINKABLE for c in near)  # nothing guessed where no statute is meant
            else:
                right = any(_same_target(c, gold) for c in near)
            if right:
                correct += 1
            else:
                misses.append((gold, tuple(c.to_dict() for c in near)))
    return Evaluation(total, correct, tuple(misses))


def _same_target(citation: Citation, gold: Mapping[str, Any]) -> bool:
    if gold["path"] is None or (citation.path != gold["path"] and not _in_range(citation, gold["path"])):
        return False
    if gold["law_id"] is not None:
        return citation.law_id == gold["law_id"]
    return citation.law_title == gold["law_title"]


def _in_range(citation: Citation, path: str) -> bool:
    """A range covers each clause inside it: articles (第三条から第五条まで), and paragraphs, items or subitems of
    one clause (第一項から第三項まで: one citation with `path_to`)."""
    if citation.article_to is None and citation.path_to is not None and citation.path is not None:
        head, _, first = citation.path.rpartition("/")
        last = citation.path_to.rpartition("/")[2]
        parent, _, segment = path.rpartition("/")
        if parent != head or segment[:1] != first[:1] or not first[1:].isdigit() or not last[1:].isdigit():
            return False
        return segment[1:].isdigit() and int(first[1:]) <= int(segment[1:]) <= int(last[1:])
    if citation.article_to is None or citation.article is None or not path.startswith("a"):
        return False
    article = path[1:].split("/")[0]
    try:
        low, high, value = (float(x.replace("_", ".")) for x in (citation.article, citation.article_to, article))
    except ValueError:
        return False
    return low <= value <= high and "/" not in path

