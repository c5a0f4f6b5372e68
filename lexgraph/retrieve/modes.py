"""The search modes, in one registry: each mode says how it ranks, what it needs (a model, the question's vector,
which index kinds) and where its retriever is built. The CLI (``--mode``), the client (`LexGraph.search`,
`LexGraph.retriever`), `SearchOptions`, the experiments and the evaluation read this registry, never a list of
names of their own; so adding a mode is one module with its retriever and builder, plus one `SearchMode` line in
`BUILT_IN` (docs/architecture.md, "Adding a search mode").

Light on purpose: the CLI imports it to offer the modes without loading the index engines (numpy, tantivy,
usearch); a mode's builder is named as ``"module:function"`` and imported only when a retriever is built.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from lexgraph.errors import IndexUnavailable
from lexgraph.registry import Registry, check_target, choices_message, loaded

if TYPE_CHECKING:
    from lexgraph.index.embed import Embedder
    from lexgraph.index.query import IndexKind, SearchIndex
    from lexgraph.llm.client import LLMClient
    from lexgraph.retrieve.law_prior import LawCitations
    from lexgraph.retrieve.retrievers import CiteFn, Retriever

#: When a mode needs a language model: never, always (it writes hypothetical answers), or only when the search
#: options ask the model to extract the query first (Tree+QE).
ModelNeed = Literal["never", "always", "query_extraction"]


@dataclass(frozen=True)
class RetrieverSetup:
    """What a mode's builder may use to build its retriever: the open index, the embedder, the model (None when
    not configured), the citation extractor for the ``cited`` list, and the fusion settings and the tree's query
    extraction of the `SearchOptions`."""

    mode: str
    index: SearchIndex
    embedder: Embedder
    llm: LLMClient | None = None
    cite: CiteFn | None = None
    rrf_k: float = 60.0
    weights: Mapping[str, float] | None = None
    fusion: str = "mean"
    query_extraction: bool = False
    #: Sources whose anchors must not feed the search (an evaluation's own judgments: `index.anchors`).
    held_apart: frozenset[str] = frozenset()
    #: How many other laws cite each law, for the hybrid's law-level evidence (`law_prior.LawCitations`); None:
    #: the laws are weighed by their vocabulary alone.
    law_citations: LawCitations | None = None


@dataclass(frozen=True)
class SearchMode:
    """One search mode. `builder` is ``"module:function"``, the function taking a `RetrieverSetup` and returning
    a `Retriever`; `index` names the index kinds (`index.query.IndexKind`) the mode cannot rank without: on an
    index that lacks one (`SearchIndex.lacks`) the mode is refused, naming the modes that can run there. A kind a
    mode reads only when it is there is not named (the ``learned`` mode ranks as ``hybrid`` without the anchor
    field, and its result says so: `SearchResult.ranked_by`). `whole` marks a mode whose answer is a whole result
    that ``k`` must not cut (the tree's leaves); `compared` marks the modes `lexgraph eval retrieval` and the
    retrieval experiment compare when none is named."""

    name: str
    builder: str
    model: ModelNeed = "never"
    embeds_question: bool = True
    index: tuple[IndexKind, ...] = ("bm25", "vectors")
    whole: bool = False
    compared: bool = False

    def __post_init__(self) -> None:
        check_target(self.builder, f"search mode {self.name!r}: builder")

    def needs_model(self, query_extraction: bool = False) -> bool:
        return self.model == "always" or (self.model == "query_extraction" and query_extraction)

    def lacking(self, index: SearchIndex) -> list[str]:
        """Why `index` cannot serve this mode: what it says of each kind the mode needs and it lacks."""
        return [why for kind in self.index if (why := index.lacks(kind)) is not None]

    def build(self, setup: RetrieverSetup) -> Retriever:
        """The mode's retriever over ``setup.index``; `IndexUnavailable` when the index lacks a kind the mode
        cannot rank without, naming the modes that can run on it."""
        lacking = self.lacking(setup.index)
        if lacking:
            can = [mode.name for mode in MODE_REGISTRY.values() if not mode.lacking(setup.index)]
            raise IndexUnavailable(f"--mode {self.name} cannot run on this index: {lacking[0]}; the modes that can: "
                                   f"{', '.join(can)}")
        make: Callable[[RetrieverSetup], Retriever] = loaded(self.builder)
        return make(setup)


_BUILDERS = "lexgraph.retrieve.builders"

#: Lexgraph's modes, in the order the CLI lists them (docs/search.md, "Retrievers", says how each ranks).
BUILT_IN: tuple[SearchMode, ...] = (
    # BM25 over the Sudachi tokens
    SearchMode("bm25", f"{_BUILDERS}:bm25", embeds_question=False, index=("bm25",), compared=True),
    # cosine similarity of e5 vectors
    SearchMode("dense", f"{_BUILDERS}:dense", index=("vectors",), compared=True),
    # BM25, dense and the cited clauses fused (weighted mean of normalised scores, or RRF), with the law-level
    # evidence
    SearchMode("hybrid", f"{_BUILDERS}:hybrid", index=("bm25", "vectors", "law_terms"), compared=True),
    # the model's hypothetical answers searched by BM25 and dense, fused with the question's; or by one of them
    SearchMode("hyde", f"{_BUILDERS}:hyde", model="always"),
    SearchMode("hyde-bm25", f"{_BUILDERS}:hyde", model="always"),
    SearchMode("hyde-dense", f"{_BUILDERS}:hyde", model="always"),
    # BM25 over the anchor field alone (what the judgments citing an article say)
    SearchMode("anchor", "lexgraph.retrieve.anchor_mode:build", embeds_question=False, index=("anchors",)),
    # a logistic model over BM25, dense, cited, the law-level evidence, the anchor field and article features,
    # reranking the hybrid's candidates and the anchor field's articles; the hybrid's order without the anchor
    # field (not named in `index`: it runs without, and says so)
    SearchMode("learned", "lexgraph.retrieve.learned:build", index=("bm25", "vectors", "law_terms")),
    # every leaf of the cluster-tree node nearest the question (no k)
    SearchMode("tree", f"{_BUILDERS}:tree", model="query_extraction", index=("bm25", "vectors", "law_terms"),
               whole=True),
)

#: The mode a search runs in when none is named: the CLI's ``search`` and ``ask``, `SearchOptions`, `LexGraph.search`,
#: the MCP server's ``search`` tool, and the reference `lexgraph eval retrieval` tests every other mode against.
DEFAULT_MODE = "learned"

#: The registered modes (`lexgraph.registry.Registry`): the built-in ones, and any registered at run time.
MODE_REGISTRY: Registry[SearchMode] = Registry("search mode", unknown=choices_message("mode"))


def register(mode: SearchMode) -> SearchMode:
    """Add a mode (a name registered twice is a `ConfigurationError`: one meaning per name)."""
    return MODE_REGISTRY.register(mode)


for _mode in BUILT_IN:
    register(_mode)


def mode_names() -> tuple[str, ...]:
    return MODE_REGISTRY.names()


def search_mode(name: str) -> SearchMode:
    """The registered mode called `name`, or a `ConfigurationError` naming the choices."""
    return MODE_REGISTRY.entry(name)


def compared_modes() -> tuple[str, ...]:
    """The modes an evaluation compares when none is named."""
    return tuple(name for name, mode in MODE_REGISTRY.items() if mode.compared)
