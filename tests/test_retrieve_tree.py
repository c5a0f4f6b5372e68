"""Cluster-tree retrieval: single linkage against references, search on planted clusters, limits, properties."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexgraph.retrieve.tree import (
    DEFAULT_MAX_POOL,
    ClusterTree,
    allowed_nodes,
    build_tree,
    search,
    tree_from_merges,
)
from tests.capabilities import require

Array = npt.NDArray[np.float64]


def unit(x: Array) -> Array:
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


def names(n: int) -> list[str]:
    return [f"民法|{i + 1}" for i in range(n)]


def cosine_distance(u: Array, v: Array) -> float:
    """1 - cos, computed pair by pair from the raw vectors (independently of the module's matrix product)."""
    return 1.0 - float(np.dot(u, v)) / (math.sqrt(float(np.dot(u, u))) * math.sqrt(float(np.dot(v, v))))


def brute_force_single_linkage(vectors: Array) -> list[tuple[frozenset[frozenset[int]], float]]:
    """Textbook O(n³) agglomerative clustering: merge the two clusters with the closest pair of members, repeat."""
    n = len(vectors)
    dist = [[cosine_distance(vectors[i], vectors[j]) for j in range(n)] for i in range(n)]
    clusters = [frozenset([i]) for i in range(n)]
    merges = []
    while len(clusters) > 1:
        best: tuple[float, int, int] | None = None
        for a in range(len(clusters)):
            for b in range(a + 1, len(clusters)):
                d = min(dist[i][j] for i in clusters[a] for j in clusters[b])
                if best is None or d < best[0]:
                    best = (d, a, b)
        assert best is not None
        d, a, b = best
        merges.append((frozenset([clusters[a], clusters[b]]), d))
        clusters = [c for i, c in enumerate(clusters) if i not in (a, b)] + [clusters[a] | clusters[b]]
    return merges


def tree_merges(tree: ClusterTree) -> list[tuple[frozenset[frozenset[int]], float]]:
    return [
        (frozenset([frozenset(tree.leaves(int(a))), frozenset(tree.leaves(int(b)))]), float(h))
        for (a, b), h in zip(tree.merges, tree.heights, strict=True)
    ]


# Single linkage against references ----------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_single_linkage_matches_brute_force(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n, d = int(rng.integers(2, 30)), int(rng.integers(2, 12))
    vectors = rng.standard_normal((n, d)) * rng.uniform(0.1, 10, size=(n, 1))  # not normalised: build does it
    tree = build_tree(names(n), vectors)
    expected = brute_force_single_linkage(vectors)
    got = tree_merges(tree)
    assert [m for m, _ in got] == [m for m, _ in expected]
    np.testing.assert_allclose([h for _, h in got], [h for _, h in expected], atol=1e-12)


def test_single_linkage_chains() -> None:
    # Ten points along an arc, 0.1 rad apart (0.9 rad end to end), and one point 0.5 rad above the arc's middle.
    # Single linkage chains the whole arc first (nine merges at 1 - cos 0.1), although the arc's ends are farther
    # apart than the off point is from the arc; complete or average linkage would take the off point in earlier.
    arc = [[math.cos(0.1 * i), math.sin(0.1 * i), 0.0] for i in range(10)]
    off = [math.cos(0.45) * math.cos(0.5), math.sin(0.45) * math.cos(0.5), math.sin(0.5)]
    vectors = np.array([*arc, off])
    tree = build_tree(names(11), vectors)
    np.testing.assert_allclose(tree.heights[:9], 1 - math.cos(0.1), atol=1e-12)
    assert set(tree.leaves(tree.n_leaves + 8)) == set(range(10))
    assert tree.heights[9] == pytest.approx(1 - math.cos(0.5) * math.cos(0.05))
    assert [m for m, _ in tree_merges(tree)][-1] == frozenset([frozenset(range(10)), frozenset([10])])
    np.testing.assert_allclose(tree.heights, [h for _, h in brute_force_single_linkage(vectors)], atol=1e-12)


def test_same_dendrogram_as_scipy() -> None:
    require("scipy")
    from scipy.cluster import hierarchy
    for seed in range(5):
        rng = np.random.default_rng(100 + seed)
        vectors = rng.standard_normal((60, 16))
        z = hierarchy.linkage(vectors, method="single", metric="cosine")
        ours = build_tree(names(60), vectors).linkage()
        np.testing.assert_array_equal(ours[:, [0, 1, 3]], z[:, [0, 1, 3]])
        np.testing.assert_allclose(ours[:, 2], z[:, 2], atol=1e-12)


def test_inner_nodes_hold_the_normalised_centroid_of_their_leaves() -> None:
    rng = np.random.default_rng(7)
    vectors = rng.standard_normal((25, 6))
    tree = build_tree(names(25), vectors)
    units = unit(vectors)
    for node in range(tree.root + 1):
        leaves = list(tree.leaves(node))
        assert tree.sizes[node] == len(leaves)
        np.testing.assert_allclose(tree.vectors[node], unit(units[leaves].mean(axis=0)), atol=1e-12)


# Search on planted clusters -----------------------------------------------------------------------------------------


def planted(seed: int, clusters: int, sizes: tuple[int, int], d: int = 384) -> tuple[list[str], Array, Array, Array]:
    """A pool like e5 embeddings of related passages: ids, vectors, cluster labels, and a query.

    Cluster centres are random unit vectors sharing a common direction (cosine 0.64 between centres: embeddings
    are anisotropic); members are centre + isotropic noise of norm ≈ 0.5; the query is a fresh draw around one
    centre. Rows are shuffled, so clusters are not contiguous.
    """
    rng = np.random.default_rng(seed)
    base = unit(rng.standard_normal(d))
    counts = rng.integers(sizes[0], sizes[1] + 1, size=clusters)
    label = np.repeat(np.arange(clusters), counts)
    centres = unit(0.8 * base + 0.6 * unit(rng.standard_normal((clusters, d))))
    vectors = unit(centres[label] + 0.5 * rng.standard_normal((len(label), d)) / math.sqrt(d))
    order = rng.permutation(len(label))
    query = unit(centres[rng.integers(clusters)] + 0.5 * rng.standard_normal(d) / math.sqrt(d))
    return [f"chunk{i:04d}" for i in range(len(label))], vectors[order], label[order], query


def expected_cluster(ids: list[str], vectors: Array, label: Array, query: Array) -> set[str]:
    nearest = int(np.argmax(vectors @ query))
    return {ids[i] for i in np.flatnonzero(label == label[nearest])}


@pytest.mark.parametrize("seed", range(30))
def test_search_returns_the_planted_cluster_of_the_nearest_neighbour(seed: int) -> None:
    # 12 small clusters (2-4 members, like the clauses one question touches): the paper's rule, tolerance 0.
    ids, vectors, label, query = planted(seed, 12, (2, 4))
    hit = search(build_tree(ids, vectors), query)
    assert set(hit.leaf_ids) == expected_cluster(ids, vectors, label, query)
    assert hit.depth > 0
    assert hit.node_similarity > max(hit.leaf_similarities)  # the centroid is nearer than any one member


@pytest.mark.parametrize("seed", range(30))
def test_search_with_tolerance_returns_large_planted_clusters_whole(seed: int) -> None:
    # 8 clusters of 15-40 members: sub-cluster centroids are as near as the cluster's to within noise, and a
    # tolerance of 0.01 keeps the search from splitting the cluster (see the module docstring).
    ids, vectors, label, query = planted(1000 + seed, 8, (15, 40))
    hit = search(build_tree(ids, vectors), query, tolerance=0.01)
    assert set(hit.leaf_ids) == expected_cluster(ids, vectors, label, query)


def test_result_order_and_explanation() -> None:
    ids, vectors, _, query = planted(3, 12, (2, 4))
    tree = build_tree(ids, vectors)
    hit = search(tree, query)
    sims = {i: float(v @ query) for i, v in zip(ids, vectors, strict=True)}
    assert list(hit.leaf_similarities) == sorted(hit.leaf_similarities, reverse=True)
    assert hit.leaf_similarities == pytest.approx([sims[i] for i in hit.leaf_ids])
    assert set(hit.leaf_ids) == set(tree.leaf_ids(hit.node))
    assert hit.node_similarity == pytest.approx(float(tree.vectors[hit.node] @ query))
    assert hit.to_json()["leaf_ids"] == list(hit.leaf_ids)


def test_unstructured_pool_returns_a_node_on_the_descent() -> None:
    # No clusters: whatever is returned is the nearest node of the greedy path, never empty.
    rng = np.random.default_rng(5)
    tree = build_tree(names(200), rng.standard_normal((200, 32)))
    hit = search(tree, rng.standard_normal(32))
    assert hit.leaf_ids


# Small trees, limits and validation ---------------------------------------------------------------------------------


def test_one_and_two_candidates() -> None:
    one = build_tree(["民法|709"], [[0.0, 2.0]])
    assert (one.root, one.merges.shape, one.linkage().shape) == (0, (0, 2), (0, 4))
    hit = search(one, [1.0, 0.0])
    assert (hit.leaf_ids, hit.depth, hit.node) == (("民法|709",), 0, 0)
    assert hit.node_similarity == pytest.approx(0.0)

    two = build_tree(["a", "b"], [[1.0, 0.0], [0.0, 1.0]])
    assert two.children(two.root) == (0, 1)
    assert search(two, [1.0, 0.1]).leaf_ids == ("a",)
    assert search(two, [1.0, 1.0]).leaf_ids == ("a", "b")  # the centroid is the query's direction: ties by id


def test_identical_vectors_merge_at_height_zero() -> None:
    tree = build_tree(["a", "b", "c"], [[1.0, 0.0], [2.0, 0.0], [0.0, 1.0]])
    assert tree.heights[0] == 0.0
    assert set(tree.leaves(int(tree.merges[0][0])) + tree.leaves(int(tree.merges[0][1]))) == {0, 1}


def test_pool_bound_is_enforced_with_a_clear_message() -> None:
    vectors = np.eye(5)
    with pytest.raises(ValueError, match=r"5 candidates exceed max_pool=4: .* truncate=True"):
        build_tree(names(5), vectors, max_pool=4)
    tree = build_tree(names(5), vectors, max_pool=4, truncate=True)
    assert tree.ids == tuple(names(4))
    assert tree.dropped == 1
    assert DEFAULT_MAX_POOL == 2000
    with pytest.raises(ValueError, match=r"2,001 candidates exceed max_pool=2,000") as error:
        build_tree(names(2001), np.ones((2001, 2)))
    assert "the distance matrix would take 31 MiB (8 n² bytes)" in str(error.value)


@pytest.mark.parametrize(
    ("ids", "vectors", "message"),
    [
        ([], np.empty((0, 3)), "no candidates"),
        (["a"], [1.0, 2.0], "must be a 2-D array"),
        (["a", "b"], [[1.0, 0.0]], "2 ids but 1 vector rows"),
        (["a", "a"], [[1.0, 0.0], [0.0, 1.0]], "ids must be unique: 'a'"),
        (["a", "b"], [[1.0, 0.0], [0.0, 0.0]], "vectors row 1 is all zeros"),
        (["a", "b"], [[1.0, 0.0], [math.nan, 1.0]], "vectors row 1 holds NaN"),
        (["a", 2], [[1.0, 0.0], [0.0, 1.0]], r"ids\[1\] is 2"),
        ("ab", [[1.0, 0.0], [0.0, 1.0]], "not a string"),
    ],
)
def test_build_validation(ids: list[str], vectors: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build_tree(ids, vectors)  # type: ignore[arg-type]


def test_search_validation() -> None:
    tree = build_tree(["a", "b"], [[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="query must be a vector of 2 dimensions"):
        search(tree, [1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="query row 0 is all zeros"):
        search(tree, [0.0, 0.0])
    with pytest.raises(ValueError, match="tolerance must be a finite number >= 0"):
        search(tree, [1.0, 0.0], tolerance=-0.1)
    with pytest.raises(ValueError, match="node 3 is not in this tree"):
        tree.leaves(3)


def test_tree_arrays_are_read_only() -> None:
    tree = build_tree(["a", "b"], [[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="read-only"):
        tree.vectors[0, 0] = 5.0
    with pytest.raises(AttributeError):
        tree.dropped = 3  # type: ignore[misc]


# Properties ---------------------------------------------------------------------------------------------------------


@st.composite
def pools(draw: st.DrawFn) -> tuple[list[str], Array]:
    """Random pools, with repeated rows (ties, zero distances) and opposite rows (centroids that cancel) at times."""
    n = draw(st.integers(1, 40))
    d = draw(st.integers(1, 8))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    vectors = rng.standard_normal((n, d))
    if n > 2 and draw(st.booleans()):
        vectors[1] = vectors[0]
    if n > 3 and draw(st.booleans()):
        vectors[3] = -vectors[2]
    if draw(st.booleans()):  # coarse grid: many equal distances
        vectors = np.round(vectors)
        vectors[~vectors.any(axis=1)] = 1.0
    return names(n), vectors


@settings(max_examples=200, deadline=None)
@given(pools())
def test_leaves_partition_the_ids(pool: tuple[list[str], Array]) -> None:
    ids, vectors = pool
    tree = build_tree(ids, vectors)
    n = len(ids)
    assert tree.leaves(tree.root) == tuple(range(n))
    assert sorted(int(c) for c in tree.merges.flatten()) == list(range(tree.root))  # every node but the root once
    for i, (a, b) in enumerate(tree.merges):
        left, right = set(tree.leaves(int(a))), set(tree.leaves(int(b)))
        assert not left & right
        assert left | right == set(tree.leaves(n + i))
        assert a < b and b < n + i
    assert list(tree.heights) == sorted(tree.heights)
    norms = np.linalg.norm(tree.vectors, axis=1)
    assert np.all((np.abs(norms - 1) < 1e-9) | (norms == 0))


@settings(max_examples=100, deadline=None)
@given(pools())
def test_merge_heights_equal_the_brute_force_ones(pool: tuple[list[str], Array]) -> None:
    # With ties the merge order may differ, but the multiset of heights (the MST's edge lengths) may not.
    ids, vectors = pool
    expected = sorted(h for _, h in brute_force_single_linkage(vectors))
    np.testing.assert_allclose(sorted(build_tree(ids, vectors).heights), expected, atol=1e-9)


@settings(max_examples=200, deadline=None)
@given(pools(), st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.01, 0.5]))
def test_search_result_is_never_empty(pool: tuple[list[str], Array], seed: int, tolerance: float) -> None:
    ids, vectors = pool
    tree = build_tree(ids, vectors)
    query = np.random.default_rng(seed).standard_normal(vectors.shape[1])
    if not query.any():
        return
    hit = search(tree, query, tolerance=tolerance)
    assert hit.leaf_ids
    assert set(hit.leaf_ids) == set(tree.leaf_ids(hit.node))
    assert len(hit.leaf_similarities) == len(hit.leaf_ids)
    # The depth is the node's distance from the root.
    depth, node = 0, hit.node
    parents = _parents(tree)
    while node != tree.root:
        node, depth = parents[node], depth + 1
    assert depth == hit.depth


def _parents(tree: ClusterTree) -> dict[int, int]:
    return {int(c): tree.n_leaves + i for i, pair in enumerate(tree.merges) for c in pair}


# The paper's Algorithm 2: every node visited ---------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(10))
def test_search_returns_the_leaves_of_the_node_nearest_the_query_among_all_nodes(seed: int) -> None:
    # Brute force from the definition: each node's members, their mean, its cosine with the query; the best node.
    rng = np.random.default_rng(seed)
    vectors = unit(rng.standard_normal((40, 8)))
    tree = build_tree(names(40), vectors)
    query = rng.standard_normal(8)
    query /= np.linalg.norm(query)
    best, expected = -2.0, frozenset()
    for node in range(2 * tree.n_leaves - 1):
        members = tree.leaves(node)
        mean = vectors[list(members)].mean(axis=0)
        similarity = float(mean @ query) / float(np.linalg.norm(mean))
        if similarity > best + 1e-12:
            best, expected = similarity, frozenset(members)
    hit = search(tree, query)
    assert frozenset(tree.leaves(hit.node)) == expected
    assert hit.node_similarity == pytest.approx(best)
    assert hit.depth == tree.depths[hit.node]


def test_allowed_leaves_restrict_the_nodes_that_compete_and_the_leaves_returned() -> None:
    ids, vectors, _, query = planted(7, 12, (2, 4))
    tree = build_tree(ids, vectors)
    whole = search(tree, query)
    allowed = np.array([leaf not in whole.leaf_ids for leaf in ids])  # the unfiltered answer filtered out
    hit = search(tree, query, allowed=allowed)
    assert hit.leaf_ids and not set(hit.leaf_ids) & set(whole.leaf_ids)
    assert set(hit.leaf_ids) == {leaf for leaf in tree.leaf_ids(hit.node) if leaf not in whole.leaf_ids}
    rng = np.random.default_rng(3)
    for _ in range(5):  # every node knows whether it holds an allowed leaf (prefix sums over the leaf order)
        mask = rng.random(len(ids)) < 0.2
        flags = allowed_nodes(tree, mask)
        assert [bool(flags[u]) for u in range(2 * tree.n_leaves - 1)] == [
            bool(mask[list(tree.leaves(u))].any()) for u in range(2 * tree.n_leaves - 1)]
    with pytest.raises(ValueError, match="no leaf is allowed"):
        search(tree, query, allowed=np.zeros(len(ids), dtype=bool))
    with pytest.raises(ValueError, match="one flag per leaf"):
        search(tree, query, allowed=np.ones(3, dtype=bool))


def test_a_tree_saved_as_its_merges_reads_back_the_same() -> None:
    ids, vectors, _, query = planted(11, 12, (2, 4))
    tree = build_tree(ids, vectors)
    again = tree_from_merges(ids, vectors, tree.merges, tree.heights)
    assert again.ids == tree.ids and (again.sizes == tree.sizes).all()
    np.testing.assert_allclose(again.vectors, tree.vectors, atol=1e-12)
    assert search(again, query) == search(tree, query)
    with pytest.raises(ValueError, match=f"needs {len(ids)} vectors"):
        tree_from_merges(ids, vectors[:5], tree.merges, tree.heights)
