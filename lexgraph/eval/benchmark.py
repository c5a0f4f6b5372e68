"""Retrieval datasets `lexgraph eval retrieval --dataset` reads: lawqa_jp's JSON, or a benchmark file of queries
with clause gold (``"format": "lexgraph-retrieval-benchmark/1"``, built by scripts/build_judgment_retrieval.py).

A benchmark file holds ``queries``: ``{"qid", "split", "query", "articles": [{"law_id", "path"}], "paragraphs":
[...]}``. Its gold names laws by e-Gov id, so nothing is resolved by title. ``split`` (dev / test) is fixed in the
file so that a setting chosen on dev is confirmed on test; `load_questions` can keep one split.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexgraph.errors import DatasetError
from lexgraph.eval.lawqa import LawqaQuestion, load_lawqa

BENCHMARK_FORMAT = "lexgraph-retrieval-benchmark/1"
SPLITS = ("dev", "test")


@dataclass(frozen=True)
class BenchmarkQuery:
    """One query of a benchmark file; ``gold_laws`` are law ids, as ``articles`` and ``paragraphs`` name them."""

    qid: str
    query: str
    split: str
    articles: tuple[tuple[str, str], ...]  # (law_id, a76)
    paragraphs: tuple[tuple[str, str], ...]  # (law_id, a8/p1)
    doc: str = ""  # the document the query was drawn from (a judgment), if the file names it

    @property
    def cluster(self) -> str:
        """Queries drawn from one document share its case and statutes: significance tests
        (`eval.significance`) resample them together."""
        return self.doc or self.qid

    @property
    def gold_laws(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(law for law, _ in self.articles))

    def quoted_texts(self) -> dict[tuple[str, str], str]:
        """No statute text comes with the query: the gold cannot be compared with the stored wording."""
        return {}


def load_questions(path: str | Path, split: str | None = None) -> list[LawqaQuestion] | list[BenchmarkQuery]:
    """The questions of `path`, a lawqa_jp JSON or a benchmark file; `split` keeps one split of a benchmark file
    (lawqa_jp has none: asking for one is an error, not an empty run)."""
    if split is not None and split not in SPLITS:
        raise DatasetError(f"split must be one of {', '.join(SPLITS)}, not {split!r}")
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise DatasetError(f"{path}: cannot read a retrieval dataset ({err})") from None
    if isinstance(raw, dict) and raw.get("format") == BENCHMARK_FORMAT:
        queries = [_query(path, i, entry) for i, entry in enumerate(_list(path, raw, "queries"))]
        return [q for q in queries if split is None or q.split == split]
    if split is not None:
        raise DatasetError(f"{path}: a lawqa_jp file has no {split!r} split; leave --split out")
    return load_lawqa(path)


def _list(path: str | Path, raw: dict[str, Any], key: str) -> list[Any]:
    value = raw.get(key)
    if not isinstance(value, list):
        raise DatasetError(f"{path}: field {key!r} must be a list")
    return value


def _query(path: str | Path, position: int, entry: Any) -> BenchmarkQuery:
    where = f"{path}: queries[{position}]"
    if not isinstance(entry, dict):
        raise DatasetError(f"{where} must be an object")
    for key in ("qid", "query", "split"):
        if not isinstance(entry.get(key), str) or not entry[key]:
            raise DatasetError(f"{where} needs a non-empty string {key!r}")
    if entry["split"] not in SPLITS:
        raise DatasetError(f"{where}: split {entry['split']!r} is not one of {', '.join(SPLITS)}")
    if not isinstance(entry.get("doc", ""), str):
        raise DatasetError(f"{where}: 'doc' must be a string (the document the query comes from)")

    def clauses(key: str) -> tuple[tuple[str, str], ...]:
        items = entry.get(key, [])
        if not isinstance(items, list) or not all(
                isinstance(i, dict) and isinstance(i.get("law_id"), str) and isinstance(i.get("path"), str)
                for i in items):
            raise DatasetError(f"{where}: {key!r} must be a list of {{\"law_id\", \"path\"}} objects")
        return tuple((i["law_id"], i["path"]) for i in items)

    return BenchmarkQuery(entry["qid"], entry["query"], entry["split"], clauses("articles"), clauses("paragraphs"),
                          entry.get("doc", ""))
