"""The `tree` search mode: one cluster tree over the whole indexed collection, searched as the paper does.

Why one tree and not a tree per question: the paper (Yu and Tsai, arXiv:2506.13607, §3) clusters the whole corpus
once, and a question's answer is the cluster its nearest node stands for, whatever its size. A tree over a
question's own best candidates (lexgraph's earlier "pool" variant) only re-orders what dense search found and, at
article level on lawqa_jp dev, ranked exactly like it (0.740 / 0.740): it was removed.

**One tree per kind of unit** (clauses; chunks of judgments and literature), not one over both: a search asks for
clauses and for chunks separately (`retrieve.search.search`), and a chunk's neighbours in the tree would never be
returned with clauses. Each tree covers every unit of its kind in the index (every law, every wording); a filter
(``--law``, ``--as-of``) does not rebuild it but lets only its units compete and be returned
(`tree.search`, ``allowed``). A kind larger than ``max_collection`` (`tree.DEFAULT_MAX_COLLECTION`, 50,000 units,
about 460 MB to build at d = 384) does not fit: the tree is then built over the filter's units alone (a law's,
say), and a filter still larger is refused with the fix (narrow ``--law``).

**Cached in the index directory.** Building the tree is O(n² d) (about a minute for 12,000 clauses on one core),
so it is built on the first search and saved as ``<index>/trees/<kind>-<key>.npz``: the leaf ids and merges
(the node vectors are recomputed from the stored embeddings when it is read, in milliseconds). The key is a hash
of the index's content (its embedder, dimension and every part's fingerprint, `tree_key`): an index rebuilt or
refreshed gets a new key, and the stale file is removed when the new one is written. A backend without such a
directory (Neo4j) keeps the tree for the retriever's life.

**Chunk size.** The paper cuts its corpus into 200-character chunks with a 40-character overlap; the tree's leaves
here are the index's units as they are: clauses (one paragraph each, most under 200 characters, and lawqa_jp's
gold is clauses) and the chunks of judgments and literature as ingested (``lexgraph ingest literature
--chunk-size 200 --overlap 40`` is the paper's setting). The tree does not re-cut them.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from lexgraph.errors import ConfigurationError
from lexgraph.index.embed import Embedder
from lexgraph.index.query import IndexHit, SearchFilter, SearchIndex
from lexgraph.llm.client import LLMClient
from lexgraph.retrieve.retrievers import QueryVectors, Retrieved, check_embedder
from lexgraph.retrieve.tree import DEFAULT_MAX_COLLECTION, ClusterTree, build_tree, search, tree_from_merges

#: Bumped when the saved tree's meaning changes (its layout, or how it is built).
TREE_FORMAT = 1

QUERY_EXTRACTION_PROMPT = (
    "次の質問から、法令を検索するための検索語（法令名、法律用語、要件を表す語）だけを抜き出し、空白で区切って一行で"
    "書いてください。説明は不要です。\n\n質問: {question}"
)


def tree_key(index: SearchIndex) -> str | None:
    """A hash of the index's content (embedder, dimension, each part's fingerprint and rows), or None for a backend
    that records none: the key under which a tree of that content is saved."""
    content = index.content()
    if content is None or index.directory is None:
        return None
    keyed = {"tree_format": TREE_FORMAT, **content}
    return hashlib.sha256(json.dumps(keyed, sort_keys=True).encode()).hexdigest()[:20]


class CollectionTrees:
    """The tree of each kind of unit in an index, built once and saved beside it (see the module's docstring)."""

    def __init__(self, index: SearchIndex, embedder: Embedder, *, max_collection: int = DEFAULT_MAX_COLLECTION,
                 query_vector: QueryVectors | None = None) -> None:
        self.index = index
        self.max_collection = max_collection
        self.query_vector = query_vector or QueryVectors(embedder)
        self._trees: dict[str, ClusterTree | None] = {}
        self._filtered: dict[str, tuple[ClusterTree, np.ndarray | None, dict[str, IndexHit]] | None] = {}

    def folder(self) -> Path | None:
        directory = self.index.directory
        return Path(directory) / "trees" if directory is not None else None

    def _units(self, where: SearchFilter) -> list[IndexHit]:
        """Every unit passing ``where`` (the index lists them all when asked for more than there are)."""
        return self.index.vector_search(self.query_vector(""), self.max_collection + 1, where)

    def _build(self, uids: list[str]) -> ClusterTree | None:
        vectors = self.index.vectors_of(uids)
        kept = [uid for uid in uids if uid in vectors]
        if not kept:
            return None
        return build_tree(kept, np.stack([vectors[u] for u in kept]), max_pool=self.max_collection)

    def whole(self, kind: str) -> ClusterTree | None:
        """The tree over every unit of ``kind`` (None: no unit, or more than ``max_collection``)."""
        if kind not in self._trees:
            self._trees[kind] = self._load_or_build(kind)
        return self._trees[kind]

    def _load_or_build(self, kind: str) -> ClusterTree | None:
        key, folder = tree_key(self.index), self.folder()
        path = folder / f"{kind}-{key}.npz" if key is not None and folder is not None else None
        if path is not None and path.is_file():
            loaded = self._load(path)
            if loaded is not None:
                return loaded
        uids = sorted(h.uid for h in self._units(SearchFilter(kind=kind)))  # type: ignore[arg-type]
        if not uids or len(uids) > self.max_collection:
            return None
        tree = self._build(uids)
        if tree is not None and path is not None:
            self._save(path, tree)
        return tree

    def _load(self, path: Path) -> ClusterTree | None:
        """A saved tree, or None when its file is unreadable or its units are no longer all in the index."""
        try:
            with np.load(path, allow_pickle=False) as saved:
                ids = [str(x) for x in saved["ids"]]
                merges, heights = saved["merges"], saved["heights"]
        except (OSError, ValueError, KeyError):
            return None
        vectors = self.index.vectors_of(ids)
        if len(vectors) != len(ids):
            return None
        return tree_from_merges(ids, np.stack([vectors[u] for u in ids]), merges, heights)

    @staticmethod
    def _save(path: Path, tree: ClusterTree) -> None:
        """Write the tree atomically and remove the same kind's trees of other index contents; a read-only index
        directory keeps the tree in memory only."""
        kind = path.name.split("-", 1)[0]
        try:
            path.parent.mkdir(exist_ok=True)
            tmp = path.with_name(path.name + f".{os.getpid()}.tmp.npz")
            np.savez(tmp, ids=np.array(tree.ids), merges=tree.merges, heights=tree.heights)
            os.replace(tmp, path)
            for stale in path.parent.glob(f"{kind}-*.npz"):
                if stale != path:
                    stale.unlink(missing_ok=True)
        except OSError:
            return

    def for_filter(self, where: SearchFilter) -> tuple[ClusterTree, np.ndarray | None, dict[str, IndexHit]] | None:
        """The tree to search under ``where``, the leaves it allows (None: all) and the units that pass, by uid;
        None when nothing passes."""
        key = repr(sorted(where.to_json().items()))
        if key not in self._filtered:
            self._filtered[key] = self._for_filter(where)
        return self._filtered[key]

    def _for_filter(self, where: SearchFilter) -> tuple[ClusterTree, np.ndarray | None, dict[str, IndexHit]] | None:
        hits = self._units(where)
        if not hits:
            return None
        passing = {h.uid: h for h in hits}
        whole = self.whole(where.kind or "provision")
        if whole is not None:
            if len(passing) == whole.n_leaves:
                return whole, None, passing
            allowed = np.fromiter((uid in passing for uid in whole.ids), dtype=bool, count=whole.n_leaves)
            return (whole, allowed, passing) if allowed.any() else None
        # The whole kind does not fit in one tree: a tree over the filter's units alone (a law, say).
        if len(hits) > self.max_collection:
            raise ConfigurationError(
                f"the cluster tree would cover more than {self.max_collection:,} units of kind "
                f"{where.kind or 'provision'}; narrow the search to some laws (--law) or a day (--as-of)")
        tree = self._build(sorted(passing))
        return (tree, None, passing) if tree is not None else None


class TreeRetriever:
    """Cluster-tree retrieval as published: single linkage on cosine over the whole collection of a kind, inner
    nodes holding their leaves' mean, a breadth-first pass over every node to the one nearest the question, and
    every leaf under it as the answer, so there is no k: ``k`` is ignored, never a cut. The leaves come most
    similar first (the paper's optional inner-product re-ranking inside the result).

    With ``llm`` (Tree+QE), the model first extracts a search query from the question, and that is embedded.
    `last_node` tells what the last search found (the node's depth, similarity and size), for the CLI and reports.
    """

    name = "tree"

    def __init__(self, index: SearchIndex, embedder: Embedder, *, query_vector: QueryVectors | None = None,
                 max_collection: int = DEFAULT_MAX_COLLECTION, llm: LLMClient | None = None) -> None:
        check_embedder(index, embedder)
        self.index = index
        self.embedder = embedder
        self.llm = llm
        self.query_vector = query_vector or QueryVectors(embedder)
        self.trees = CollectionTrees(index, embedder, max_collection=max_collection, query_vector=self.query_vector)
        self.last_query: str = ""
        self.last_node: dict[str, Any] = {}
        self._extracted: dict[str, str] = {}

    def query_text(self, question: str) -> str:
        """The text embedded: the question, or (Tree+QE) the query the model extracts from it."""
        if self.llm is None:
            return question
        if question not in self._extracted:
            prompt = [{"role": "user", "content": QUERY_EXTRACTION_PROMPT.format(question=question)}]
            self._extracted[question] = self.llm.complete(prompt, temperature=0.0).strip() or question
        return self._extracted[question]

    def retrieve(self, question: str, k: int, where: SearchFilter) -> list[Retrieved]:
        self.last_query = self.query_text(question)
        found = self.trees.for_filter(where)
        if found is None:
            return []
        tree, allowed, hits = found
        hit = search(tree, self.query_vector(self.last_query), allowed=allowed)
        self.last_node = {"node": hit.node, "depth": hit.depth, "similarity": hit.node_similarity,
                          "leaves": len(hit.leaf_ids), "collection": tree.n_leaves}
        return [Retrieved(hits[uid], similarity, rank, {"tree": rank})
                for rank, (uid, similarity) in enumerate(zip(hit.leaf_ids, hit.leaf_similarities, strict=True),
                                                         start=1)]
