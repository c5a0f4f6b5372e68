"""What both wrappers return for one hit: the text a model reads and metadata a program filters on, the same for
neo4j-graphrag and LangChain."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from lexgraph import LexGraph
    from lexgraph.retrieve.retrievers import Retrieved

Kind = Literal["provision", "chunk"]


@dataclass(frozen=True)
class SearchSettings:
    """How a wrapper searches: lexgraph's mode (``dense``, ``bm25``, ``hybrid``, the default ``learned`` …), which
    kind of unit, the day the clauses must be in force on (None: every wording) and the laws to search."""

    mode: str | None = None
    kind: Kind = "provision"
    as_of: date | None = None
    laws: Sequence[str] = ()


def ranked_hits(lg: LexGraph, question: str, k: int, settings: SearchSettings) -> list[Retrieved]:
    """lexgraph's top `k` of the settings' kind for `question`, in lexgraph's order."""
    from lexgraph import SearchOptions

    result = lg.search(question, options=SearchOptions(mode=settings.mode, k=k) if settings.mode
                       else SearchOptions(k=k), as_of=settings.as_of, laws=settings.laws, kind=settings.kind)
    return list(result.clauses if settings.kind == "provision" else result.chunks)[:k]


def hit_content(hit: Retrieved) -> str:
    """The caption as a lawyer writes it (民法 第七百九条第一項（不法行為による損害賠償）), then the wording."""
    return f"{hit.unit.shown_title}\n{hit.unit.text}"


def hit_metadata(hit: Retrieved, mode: str) -> dict[str, Any]:
    """The hit's identity, period, rank and score: never its tokens or vector."""
    unit = hit.unit
    return {"uid": unit.uid, "label": unit.label, "law_id": unit.law_id or None, "path": unit.path or None,
            "title": unit.shown_title, "owner": unit.owner_uid, "rank": hit.rank, "score": round(hit.score, 6),
            "mode": mode, "valid_from": unit.valid_from.isoformat() if unit.valid_from else None,
            "valid_until": unit.valid_until.isoformat() if unit.valid_until else None}
