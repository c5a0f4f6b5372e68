"""Build time and peak memory of the cluster tree (`lexgraph.retrieve.tree`), and how well its search finds a cluster.

Why: the tree holds a dense ``n × n`` distance matrix, so its cost grows with the square of the candidate pool; the
retrieval issue bounds the pool at 2,000 and asks what that costs at d = 384 (multilingual-e5-small). The quality
part backs the design choices written in the module's docstring with figures.

    .venv/bin/python bench/retrieve_tree.py [--sizes 500 1000 2000] [--dim 384] [--rounds 3] [--json]
    .venv/bin/python bench/retrieve_tree.py --quality [--seeds 200]

What is measured:

* build: wall time (time.perf_counter) of `build_tree` on a pool of planted clusters (see `planted`), best of
  ``--rounds``; peak memory of one build by tracemalloc (numpy reports its arrays to it; BLAS scratch space is not
  counted), against the ``8 n²`` bytes of the distance matrix; and the mean time of `search` over 200 queries.
  Peak RSS (ru_maxrss) of the whole process is printed at the end. numpy's BLAS may use several threads for the
  one matrix product; the rest is single-threaded.
* ``--quality``: on ``--seeds`` pools of planted clusters (random unit vectors sharing a common direction, as
  e5 embeddings do, cluster members = centre + noise), the share of queries (a fresh noisy draw around one
  centre) for which the search returns exactly the planted cluster holding the query's nearest neighbour, and the
  mean size of the result over the size of that cluster. Variants: inner-node vector = centroid of the leaves (the
  module's) or the plain mean of the two children (the other reading of the paper); returned node = the nearest
  of all nodes (the paper's BFS, and the module's) or the first node of a greedy descent whose children
  are both farther ("first peak"); tolerance
  0 or 0.01. Two regimes: 15 small clusters (2-6 members) and 8 large ones (15-40 members).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from lexgraph.retrieve.tree import ClusterTree, build_tree, search

Array = npt.NDArray[np.float64]


def unit(x: Array) -> Array:
    return x / np.linalg.norm(x, axis=-1, keepdims=True)


def planted(
    rng: np.random.Generator, clusters: int, d: int, sizes: tuple[int, int], noise: float = 0.5, common: float = 0.8
) -> tuple[Array, npt.NDArray[np.int64], Array]:
    """Unit vectors in ``clusters`` clusters of ``sizes`` members (inclusive), their labels, and the centres.

    Centres share a common direction (cosine ``common²`` between centres, like the anisotropy of e5 embeddings);
    a member is its centre plus isotropic noise of norm about ``noise``. Rows are shuffled.
    """
    base = unit(rng.standard_normal(d))
    counts = rng.integers(sizes[0], sizes[1] + 1, size=clusters)
    label = np.repeat(np.arange(clusters), counts)
    centres = unit(common * base + np.sqrt(1 - common**2) * unit(rng.standard_normal((clusters, d))))
    vectors = unit(centres[label] + noise * rng.standard_normal((len(label), d)) / np.sqrt(d))
    order = rng.permutation(len(label))
    return vectors[order], label[order], centres


def measure_build(sizes: list[int], dim: int, rounds: int) -> list[dict[str, Any]]:
    rows = []
    for n in sizes:
        rng = np.random.default_rng(n)
        vectors, _, centres = planted(rng, n // 5, dim, (2, 40))  # 21 members on average: rows to spare
        vectors = vectors[:n]
        ids = [f"c{i}" for i in range(n)]
        build_tree(ids, vectors, max_pool=max(n, 1))  # warm up BLAS and the allocator
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            tree = build_tree(ids, vectors, max_pool=max(n, 1))
            times.append(time.perf_counter() - start)
        tracemalloc.start()
        build_tree(ids, vectors, max_pool=max(n, 1))
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        queries = unit(centres[rng.integers(len(centres), size=200)] + 0.5 * rng.standard_normal((200, dim)) / dim**0.5)
        start = time.perf_counter()
        for q in queries:
            search(tree, q)
        per_query = (time.perf_counter() - start) / len(queries)
        rows.append({
            "n": n, "dim": dim, "build_s": round(min(times), 4), "peak_mib": round(peak / 2**20, 1),
            "distance_matrix_mib": round(8 * n * n / 2**20, 1), "search_ms": round(per_query * 1000, 3),
        })
    return rows


def first_peak(tree: ClusterTree, q: Array) -> frozenset[str]:
    """The other reading of the paper's rule: stop at the first node none of whose children is nearer."""
    node, sim = tree.root, float(tree.vectors[tree.root] @ q)
    while (children := tree.children(node)) is not None:
        nxt, nxt_sim = max(((c, float(tree.vectors[c] @ q)) for c in children), key=lambda cs: cs[1])
        if nxt_sim <= sim:
            break
        node, sim = nxt, nxt_sim
    return frozenset(tree.leaf_ids(node))


def children_mean(tree: ClusterTree) -> ClusterTree:
    """The same tree with each inner node's vector the normalised plain mean of its two children's vectors."""
    vectors = np.array(tree.vectors)
    n = tree.n_leaves
    for i, (a, b) in enumerate(tree.merges):
        vectors[n + i] = unit(vectors[a] + vectors[b])
    return dataclasses.replace(tree, vectors=vectors)


def quality(seeds: int, dim: int) -> list[dict[str, Any]]:
    variants: dict[str, Callable[[ClusterTree, Array], frozenset[str]]] = {
        "centroid, all nodes (BFS), tol 0": lambda t, q: frozenset(search(t, q).leaf_ids),
        "centroid, all nodes (BFS), tol 0.01": lambda t, q: frozenset(search(t, q, tolerance=0.01).leaf_ids),
        "centroid, first peak": first_peak,
        "children mean, all nodes (BFS), tol 0": lambda t, q: frozenset(search(children_mean(t), q).leaf_ids),
        "children mean, first peak": lambda t, q: first_peak(children_mean(t), q),
    }
    rows = []
    for regime, clusters, sizes in (("clusters of 2-6", 15, (2, 6)), ("clusters of 15-40", 8, (15, 40))):
        exact = dict.fromkeys(variants, 0)
        ratio = dict.fromkeys(variants, 0.0)
        for seed in range(seeds):
            rng = np.random.default_rng(seed)
            vectors, label, centres = planted(rng, clusters, dim, sizes)
            query = unit(centres[rng.integers(clusters)] + 0.5 * rng.standard_normal(dim) / dim**0.5)
            ids = [f"c{i}" for i in range(len(vectors))]
            tree = build_tree(ids, vectors)
            nearest = int(np.argmax(vectors @ query))
            expected = frozenset(ids[i] for i in np.flatnonzero(label == label[nearest]))
            for name, run in variants.items():
                got = run(tree, query)
                exact[name] += got == expected
                ratio[name] += len(got) / len(expected)
        for name in variants:
            rows.append({"regime": regime, "variant": name, "exact": round(exact[name] / seeds, 3),
                         "size_ratio": round(ratio[name] / seeds, 2)})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000])
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quality", action="store_true", help="measure search quality on planted clusters instead")
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    rows = quality(args.seeds, args.dim) if args.quality else measure_build(args.sizes, args.dim, args.rounds)
    rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if args.json:
        json.dump({"rows": rows, "peak_rss_mib": round(rss_mib, 1)}, sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    if args.quality:
        print(f"{'regime':<18} {'variant':<32} {'exact':>6} {'size ratio':>10}   ({args.seeds} seeds, d={args.dim})")
        for row in rows:
            print(f"{row['regime']:<18} {row['variant']:<32} {row['exact']:>6.3f} {row['size_ratio']:>10.2f}")
    else:
        print(f"{'n':>6} {'d':>4} {'build s':>8} {'peak MiB':>9} {'n² matrix MiB':>14} {'search ms':>10}")
        for row in rows:
            print(f"{row['n']:>6} {row['dim']:>4} {row['build_s']:>8.3f} {row['peak_mib']:>9.1f} "
                  f"{row['distance_matrix_mib']:>14.1f} {row['search_ms']:>10.3f}")
    print(f"peak RSS of the process: {rss_mib:.0f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
