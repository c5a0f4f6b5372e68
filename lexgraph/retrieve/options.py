"""What a search is asked to do (`SearchOptions`) and the modes it can run in, apart from the search itself so
that the CLI can offer them without loading the index engines (numpy, tantivy, usearch)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lexgraph.retrieve.evidence import DEFAULT_M, DEFAULT_N
from lexgraph.retrieve.fusion import DEFAULT_K

MODES = ("bm25", "dense", "hybrid", "hyde", "tree")


@dataclass(frozen=True)
class SearchOptions:
    mode: str = "hybrid"
    k: int = 10
    m: int = DEFAULT_M
    n: int = DEFAULT_N
    rrf_k: float = DEFAULT_K
    weights: Mapping[str, float] | None = None  # per list: {"bm25": 1.0, "dense": 0.5}

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {self.mode!r}")
        for name in ("k", "m", "n"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
