"""Cluster-tree retrieval without a fixed k (Yu and Tsai, "Tree-Based Text Retrieval via Hierarchical Clustering
in RAG Frameworks: Application on Taiwanese Regulations", arXiv:2506.13607).

Why: a top-k search returns k items whether the question touches one clause or ten. Here the candidates are
clustered once, and a query returns the cluster it falls into, whatever its size.

Build (`build_tree`): single-linkage agglomerative clustering on cosine distance ``1 - cos`` over L2-normalised
vectors. Single linkage is the minimum spanning tree of the distance graph: the merges are the MST edges in
increasing order of length. So the tree is built with Prim's algorithm over a dense distance matrix (one BLAS
product, O(n² d), then O(n²)) and a union-find over the sorted edges, in pure numpy; the result is the same dendrogram
as ``scipy.cluster.hierarchy.linkage(method="single", metric="cosine")``, and `ClusterTree.linkage` returns it in
that format. Each inner node holds the normalised mean of the leaf vectors under it (its centroid), which is the
mean of its two children weighted by their sizes.

Why the centroid rather than the plain mean of the two children: single linkage chains, so a cluster is usually
merged as (everything else, one last outlier). An unweighted mean of the children would give that one outlier
half the weight of the whole cluster at every level, and a search then wanders into sub-clusters. On planted
clusters (``bench/retrieve_tree.py --quality``, 500 pools at d = 384), the share of queries answered with exactly
their cluster falls from 0.98 to 0.69 for clusters of 2-6 members, and from 0.46 to 0.00 for clusters of 15-40.

Search (`search`): the paper's Algorithm 2, a breadth-first pass over every node of the tree, keeping the node
nearest the query (cosine) and returning every leaf under it. Visiting every node is one product of the query with
the ``2n - 1`` node vectors; ties go to the node the BFS meets first (nearer the root). The answer adapts to the
question: a leaf when one clause is nearer than any cluster's centroid, a cluster when its centroid is nearer than
each member. An earlier version of the search descended greedily towards the nearer child and took the path's best node;
in the chained trees of real collections it stopped high and returned hundreds of clauses (docs/experiments.md).
An ``allowed`` mask (a filter's units) lets only nodes holding an allowed leaf compete, so one tree of the whole
collection serves every filter.

``tolerance`` (cosine, default 0: the paper's rule) takes the node nearest the root among those within
``tolerance`` of the best, for the noisy members of one large cluster (on planted clusters,
``bench/retrieve_tree.py --quality``, 0.01 keeps clusters of 15-40 members whole); with real embeddings, measure
before choosing it.

Memory and size: two ways to find the minimum spanning tree, the same tree either way (ties aside, both take the
lowest index first). Up to ``DENSE_LIMIT`` (2,000) vectors, the distance matrix is made at once (``8 n²`` bytes,
32 MB for n = 2,000; one BLAS product); measured, n = 2,000 and d = 384 build in about 0.2 s with a peak of 37 MiB
(``bench/retrieve_tree.py``). Beyond it, Prim's algorithm computes one row of distances per step from the unit
vectors (``8 n`` bytes a row), so memory is linear: the vectors and the node centroids, ``8 (3n - 1) d`` bytes
(about 0.9 MB per 100 vectors at d = 384: 18 MB for 2,000, 92 MB for 10,000, 460 MB for 50,000), at O(n² d) time,
as before. That is how the tree covers a whole collection (`tree_retriever.TreeRetriever`, the paper's setting).
``max_pool`` (default 2,000; `DEFAULT_MAX_COLLECTION` = 50,000 for a collection) bounds n: a larger input raises
ValueError, or with ``truncate=True`` keeps the first ``max_pool`` (pass them best first) and records how many
were dropped in `ClusterTree.dropped`.
"""

from __future__ import annotations

import numbers
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from lexgraph.errors import ConfigurationError

DEFAULT_MAX_POOL = 2000
#: Beyond this many vectors, distances are computed a row at a time (linear memory) instead of as one matrix.
DENSE_LIMIT = 2000
#: The largest collection one tree is built over (about 460 MB at d = 384; see the module's docstring).
DEFAULT_MAX_COLLECTION = 50_000


@dataclass(frozen=True, eq=False)
class ClusterTree:
    """A single-linkage dendrogram over ``n`` candidates, with a unit vector on every node.

    Nodes are numbered as in scipy: leaves ``0 .. n-1`` in the order of ``ids``, and the inner node made by the
    i-th merge is ``n + i``; the root is the last one (``2n - 2``, or leaf 0 when ``n == 1``).

    ``merges[i]`` holds the two children of node ``n + i`` (smaller number first), ``heights[i]`` the cosine
    distance at which they merged (non-decreasing), ``sizes[u]`` the number of leaves under node ``u`` and
    ``vectors[u]`` its unit vector. The arrays are read-only.
    """

    ids: tuple[str, ...]
    merges: npt.NDArray[np.int64]
    heights: npt.NDArray[np.float64]
    sizes: npt.NDArray[np.int64]
    vectors: npt.NDArray[np.float64]
    dropped: int = 0

    @property
    def n_leaves(self) -> int:
        return len(self.ids)

    @property
    def root(self) -> int:
        return 2 * self.n_leaves - 2

    def is_leaf(self, node: int) -> bool:
        return node < self.n_leaves

    def children(self, node: int) -> tuple[int, int] | None:
        """The two children of an inner node, ``None`` for a leaf."""
        self._check_node(node)
        if self.is_leaf(node):
            return None
        a, b = self.merges[node - self.n_leaves]
        return int(a), int(b)

    def leaves(self, node: int) -> tuple[int, ...]:
        """The leaf numbers under ``node``, ascending."""
        self._check_node(node)
        n = self.n_leaves
        out: list[int] = []
        stack = [node]
        while stack:
            u = stack.pop()
            if u < n:
                out.append(u)
            else:
                stack.extend(int(c) for c in self.merges[u - n])
        return tuple(sorted(out))

    def leaf_ids(self, node: int) -> tuple[str, ...]:
        return tuple(self.ids[i] for i in self.leaves(node))

    @cached_property
    def spans(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """The leaves in depth-first order, and for every node the run ``order[start:end]`` of its leaves."""
        n = self.n_leaves
        order: list[int] = []
        stack = [self.root]
        while stack:
            u = stack.pop()
            if u < n:
                order.append(u)
            else:
                a, b = self.merges[u - n]
                stack += [int(b), int(a)]
        start = np.empty(2 * n - 1, dtype=np.int64)
        end = np.empty(2 * n - 1, dtype=np.int64)
        start[order] = np.arange(n)
        end[:n] = start[:n] + 1
        for i, (a, b) in enumerate(self.merges.tolist()):  # children come before their parent
            start[n + i] = min(start[a], start[b])
            end[n + i] = max(end[a], end[b])
        return np.asarray(order, dtype=np.int64), start, end

    @cached_property
    def depths(self) -> npt.NDArray[np.int64]:
        """Every node's distance from the root (0 for the root): the order a breadth-first pass meets them in."""
        n = self.n_leaves
        depth = np.zeros(2 * n - 1, dtype=np.int64)
        for i in range(n - 2, -1, -1):  # a parent's number is above its children's: root first
            a, b = self.merges[i]
            depth[a] = depth[b] = depth[n + i] + 1
        depth.setflags(write=False)
        return depth

    def linkage(self) -> npt.NDArray[np.float64]:
        """The tree as a scipy linkage matrix: rows ``[child a, child b, height, size]``."""
        n = self.n_leaves
        z = np.empty((n - 1, 4), dtype=np.float64)
        z[:, :2] = self.merges
        z[:, 2] = self.heights
        z[:, 3] = self.sizes[n:]
        return z

    def _check_node(self, node: int) -> None:
        if not 0 <= node <= self.root:
            raise ValueError(f"node {node} is not in this tree (0 .. {self.root})")


@dataclass(frozen=True)
class TreeHit:
    """The answer of `search`: the leaves under the node nearest the query, most similar first.

    ``node_similarity`` is the cosine between the query and that node's vector; ``depth`` the node's distance from
    the root (0: the whole pool); ``node`` its number in the tree; ``leaf_similarities`` the cosine of each leaf,
    aligned with ``leaf_ids`` (ties ordered by id), for an optional re-ranking inside the result.
    """

    leaf_ids: tuple[str, ...]
    node_similarity: float
    depth: int
    node: int = 0
    leaf_similarities: tuple[float, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "leaf_ids": list(self.leaf_ids),
            "node_similarity": self.node_similarity,
            "depth": self.depth,
            "node": self.node,
            "leaf_similarities": list(self.leaf_similarities),
        }


def build_tree(
    ids: Sequence[str],
    vectors: npt.ArrayLike,
    *,
    max_pool: int = DEFAULT_MAX_POOL,
    truncate: bool = False,
) -> ClusterTree:
    """Cluster ``vectors`` (an ``n × d`` array, row i the vector of ``ids[i]``) into a single-linkage tree.

    Rows need not be normalised (they are L2-normalised here) but must be finite and non-zero. ``n`` may not exceed
    ``max_pool`` (memory is ``8 n²`` bytes for the distance matrix): beyond it, ValueError, unless ``truncate`` keeps
    the first ``max_pool`` rows.
    """
    if isinstance(max_pool, bool) or not isinstance(max_pool, numbers.Integral) or max_pool < 1:
        raise ConfigurationError(f"max_pool must be an integer >= 1, got {max_pool!r}")
    if isinstance(ids, str):
        raise ValueError("ids must be a list of ids, not a string")
    names = list(ids)
    matrix = np.asarray(vectors, dtype=np.float64)
    if matrix.ndim != 2:
        raise ValueError(f"vectors must be a 2-D array (n × d), got shape {matrix.shape}")
    if matrix.shape[0] != len(names):
        raise ValueError(f"{len(names)} ids but {matrix.shape[0]} vector rows: give one vector per id")
    if not names:
        raise ValueError("no candidates: a cluster tree needs at least one vector")
    if matrix.shape[1] == 0:
        raise ValueError("vectors have 0 dimensions")
    dropped = 0
    if len(names) > max_pool:
        if not truncate:
            need = 8 * len(names) ** 2 / 2**20
            raise ConfigurationError(
                f"{len(names):,} candidates exceed max_pool={max_pool:,}: the distance matrix would take "
                f"{need:,.0f} MiB (8 n² bytes). Pass fewer candidates, raise max_pool, or pass truncate=True to "
                f"keep the first {max_pool:,} (give them best first)"
            )
        dropped = len(names) - max_pool
        names = names[:max_pool]
        matrix = matrix[:max_pool]
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise ValueError(f"ids[{i}] is {name!r} ({type(name).__name__}): ids must be strings")
    repeated = [name for name, count in Counter(names).items() if count > 1]
    if repeated:
        raise ValueError(f"ids must be unique: {repeated[0]!r} appears more than once")
    units = _normalised_rows(matrix)

    merges, heights = _single_linkage(units)
    sizes, node_vectors = _node_vectors(units, merges)
    for array in (merges, heights, sizes, node_vectors):
        array.setflags(write=False)
    return ClusterTree(tuple(names), merges, heights, sizes, node_vectors, dropped)


def search(tree: ClusterTree, query: npt.ArrayLike, *, tolerance: float = 0.0,
           allowed: npt.ArrayLike | None = None) -> TreeHit:
    """The paper's Algorithm 2: a breadth-first pass over every node of the tree, keeping the node nearest the query
    (cosine), and every leaf under it, most similar first.

    Every node is visited (the BFS's ``2n - 1`` nodes), so the answer is the nearest node anywhere in the tree: a
    leaf for a question as specific as one clause, an inner node (a cluster) where the cluster's centroid is nearer
    the question than any one member, the adaptive selection of the paper. Ties go to the node the BFS meets first
    (nearer the root, the larger set). ``tolerance`` (cosine, default 0: the paper's rule) takes the node nearest
    the root among those within ``tolerance`` of the best, for noisy members of one large cluster.

    ``allowed`` (one boolean per leaf): the leaves a filter lets through (a law, a day). Only nodes holding at least
    one allowed leaf compete, and only allowed leaves are returned: one tree of the whole collection serves every
    filter. The result is never empty while one leaf is allowed.
    """
    if not (isinstance(tolerance, numbers.Real) and np.isfinite(tolerance) and tolerance >= 0):
        raise ValueError(f"tolerance must be a finite number >= 0, got {tolerance!r}")
    q = np.asarray(query, dtype=np.float64)
    if q.shape != (tree.vectors.shape[1],):
        raise ValueError(f"query must be a vector of {tree.vectors.shape[1]} dimensions, got shape {q.shape}")
    q = _normalised_rows(q[None, :], what="query")[0]
    n = tree.n_leaves
    mask = None if allowed is None else np.asarray(allowed, dtype=bool)
    if mask is not None and mask.shape != (n,):
        raise ValueError(f"allowed must hold one flag per leaf ({n}), got shape {mask.shape}")
    if mask is not None and not mask.any():
        raise ValueError("no leaf is allowed: a filtered search needs at least one leaf")

    similarities = np.einsum("ij,j->i", tree.vectors, q)  # every node: the BFS's distances, in one pass
    if mask is not None:
        similarities = np.where(allowed_nodes(tree, mask), similarities, -np.inf)
    best = float(similarities.max())
    candidates = np.flatnonzero(similarities >= best - tolerance)
    depths = tree.depths
    chosen = int(min(candidates, key=lambda u: (depths[u], -u)))  # the BFS meets the shallower node first

    leaves = np.asarray(tree.leaves(chosen), dtype=np.int64)
    if mask is not None:
        leaves = leaves[mask[leaves]]
    leaf_sims = tree.vectors[leaves] @ q
    order = sorted(range(len(leaves)), key=lambda i: (-leaf_sims[i], tree.ids[leaves[i]]))
    return TreeHit(
        leaf_ids=tuple(tree.ids[leaves[i]] for i in order),
        node_similarity=float(similarities[chosen]),
        depth=int(depths[chosen]),
        node=chosen,
        leaf_similarities=tuple(float(leaf_sims[i]) for i in order),
    )


def allowed_nodes(tree: ClusterTree, allowed: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """For every node, whether at least one of its leaves is ``allowed``: the leaves of a node are one run of the
    tree's leaf order (`ClusterTree.spans`), so this is a difference of prefix sums, in numpy."""
    order, start, end = tree.spans
    running = np.concatenate(([0], np.cumsum(allowed[order], dtype=np.int64)))
    return (running[end] - running[start]) > 0


def tree_from_merges(ids: Sequence[str], vectors: npt.ArrayLike, merges: npt.ArrayLike,
                     heights: npt.ArrayLike) -> ClusterTree:
    """A tree saved as its merges (`ClusterTree.merges`, `.heights`), with its node vectors recomputed from the
    leaves' (``vectors``, one row per id): what a cache keeps is the structure, not ``2n - 1`` vectors."""
    units = _normalised_rows(np.asarray(vectors, dtype=np.float64))
    pairs = np.asarray(merges, dtype=np.int64).reshape(-1, 2)
    lengths = np.asarray(heights, dtype=np.float64)
    if len(units) != len(ids) or len(pairs) != max(len(ids) - 1, 0) or len(lengths) != len(pairs):
        raise ValueError(f"a saved tree of {len(ids)} ids needs {len(ids)} vectors and {max(len(ids) - 1, 0)} merges, "
                         f"got {len(units)} and {len(pairs)}")
    sizes, node_vectors = _node_vectors(units, pairs)
    for array in (pairs, lengths, sizes, node_vectors):
        array.setflags(write=False)
    return ClusterTree(tuple(ids), pairs, lengths, sizes, node_vectors)


def _normalised_rows(matrix: npt.NDArray[np.float64], what: str = "vectors") -> npt.NDArray[np.float64]:
    if not np.isfinite(matrix).all():
        row = int(np.flatnonzero(~np.isfinite(matrix).all(axis=1))[0])
        raise ValueError(f"{what} row {row} holds NaN or infinity")
    norms = np.linalg.norm(matrix, axis=1)
    if (norms == 0).any():
        raise ValueError(f"{what} row {int(np.flatnonzero(norms == 0)[0])} is all zeros: it has no direction")
    return matrix / norms[:, None]


def _single_linkage(units: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Merges and heights of single linkage: Prim's minimum spanning tree, then the edges in increasing order.

    Memory is one ``n × n`` float64 matrix; ties between equal distances are broken by Prim's order (lowest index
    first), so the result is deterministic.
    """
    n = len(units)
    if n == 1:
        return np.empty((0, 2), dtype=np.int64), np.empty(0, dtype=np.float64)
    dense = n <= DENSE_LIMIT
    dist = None
    if dense:
        dist = units @ units.T
        np.subtract(1.0, dist, out=dist)
        np.maximum(dist, 0.0, out=dist)  # rounding can make 1 - cos(x, x) a hair below 0

    def distances(j: int) -> npt.NDArray[np.float64]:
        if dist is not None:
            return dist[j]
        row = np.einsum("ij,j->i", units, units[j])  # einsum: no BLAS thread pool (see index.local._exact)
        np.subtract(1.0, row, out=row)
        return np.maximum(row, 0.0, out=row)

    done = np.zeros(n, dtype=bool)
    best = distances(0).copy()
    nearest = np.zeros(n, dtype=np.int64)  # the tree vertex each outside vertex is nearest to
    done[0] = True
    best[0] = np.inf
    edge_a = np.empty(n - 1, dtype=np.int64)
    edge_b = np.empty(n - 1, dtype=np.int64)
    edge_w = np.empty(n - 1, dtype=np.float64)
    for step in range(n - 1):
        j = int(np.argmin(best))
        edge_a[step], edge_b[step], edge_w[step] = nearest[j], j, best[j]
        done[j] = True
        best[j] = np.inf
        row = distances(j)
        closer = row < best
        closer &= ~done
        best[closer] = row[closer]
        nearest[closer] = j
    dist = None  # free the matrix before the union-find

    parent = list(range(n))
    label = list(range(n))  # the tree node currently standing for each union-find root
    size = [1] * n
    merges = np.empty((n - 1, 2), dtype=np.int64)
    heights = np.empty(n - 1, dtype=np.float64)
    for i, e in enumerate(np.argsort(edge_w, kind="stable")):
        ra, rb = _find(parent, int(edge_a[e])), _find(parent, int(edge_b[e]))
        la, lb = label[ra], label[rb]
        merges[i] = (la, lb) if la < lb else (lb, la)
        heights[i] = edge_w[e]
        if size[ra] < size[rb]:
            ra, rb = rb, ra
        parent[rb] = ra
        size[ra] += size[rb]
        label[ra] = n + i
    return merges, heights


def _find(parent: list[int], x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _node_vectors(
    units: npt.NDArray[np.float64], merges: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Leaf counts and unit centroids of every node (an inner node whose leaves cancel out gets a zero vector)."""
    n, d = units.shape
    sums = np.empty((2 * n - 1, d), dtype=np.float64)
    sums[:n] = units
    sizes = np.ones(2 * n - 1, dtype=np.int64)
    for i, (a, b) in enumerate(merges):
        np.add(sums[a], sums[b], out=sums[n + i])
        sizes[n + i] = sizes[a] + sizes[b]
    norms = np.linalg.norm(sums[n:], axis=1)
    norms[norms == 0] = 1.0
    sums[n:] /= norms[:, None]
    return sizes, sums
