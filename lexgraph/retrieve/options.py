"""What a search is asked to do (`SearchOptions`) and the modes it can run in, apart from the search itself so
that the CLI can offer them without loading the index engines (numpy, tantivy, usearch). Its defaults are its field
defaults (``SearchOptions.k`` is what ``--k`` shows), and its modes are read from the registry when asked
(`SearchOptions.modes`), so that a mode registered at run time is offered and accepted like a built-in one."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from lexgraph.errors import ConfigurationError
from lexgraph.retrieve.evidence import DEFAULT_M, DEFAULT_N
from lexgraph.retrieve.fusion import DEFAULT_FUSION, DEFAULT_K, FUSIONS, WEIGHT_NAMES
from lexgraph.retrieve.modes import DEFAULT_MODE, mode_names, search_mode


@dataclass(frozen=True)
class SearchOptions:
    mode: str = DEFAULT_MODE
    k: int = 10
    m: int = DEFAULT_M
    n: int = DEFAULT_N
    rrf_k: float = DEFAULT_K
    weights: Mapping[str, float] | None = None  # per list: {"bm25": 1.0, "dense": 0.5, "cited": 2.0}
    # "mean": the weighted mean of min-max normalised scores (the paper's appendix Hybrid, weighted); or "rrf"
    fusion: str = DEFAULT_FUSION
    direct: bool = True  # fuse the direct clause search into the evidence (False: the graph's selection alone)
    query_extraction: bool = False  # tree mode: the model extracts the search query first (Tree+QE)

    @classmethod
    def modes(cls) -> tuple[str, ...]:
        """The registered modes (`lexgraph.retrieve.modes`), in the order the CLI lists them, read now: a mode
        registered since import is among them."""
        return mode_names()

    def __post_init__(self) -> None:
        search_mode(self.mode)  # an unknown mode: a ConfigurationError naming the registered ones
        if self.fusion not in FUSIONS:
            raise ConfigurationError(f"fusion must be one of {', '.join(FUSIONS)}, not {self.fusion!r}")
        for name in ("k", "m", "n"):
            if getattr(self, name) < 1:
                raise ConfigurationError(f"{name} must be at least 1")
        for name, weight in (self.weights or {}).items():
            if name not in WEIGHT_NAMES:
                raise ConfigurationError(f"a weight for {name!r}: the fused lists are bm25, dense and cited, and law "
                                         f"weighs the law-level evidence")
            if not (math.isfinite(weight) and weight >= 0):
                raise ConfigurationError(f"the weight of {name} is {weight!r}: a weight is a finite number >= 0 "
                                         f"(0 turns it off)")
