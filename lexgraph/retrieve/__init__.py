"""Retrieval: hybrid search, Reciprocal Rank Fusion, evidence through the citation graph, cluster-tree retrieval.

The ranking algorithms here are pure: they take ids, ranks and vectors and return frozen values, so that they can
be tested without a store and reused by every backend.

- `fusion`: Reciprocal Rank Fusion of ranked lists (BM25, dense, HyDE), with each list's rank kept for explanation;
- `evidence`: clauses and precedents ranked by RRF over the ranks of the chunks that cite them;
- `tree`: single-linkage cluster tree over a candidate pool, searched without a fixed k;
- `modes`: the registry of search modes (what each needs, how it ranks, its builder), light enough for the CLI;
- `options`: `SearchOptions`, light enough for the CLI to import;
- `builders`: the built-in modes' retrievers; `anchor_field`, `anchor_mode` and `learned`: the anchor field, the
  mode that ranks by it alone and the learned fusion; `citing_sentences`: the judgments' anchors scored sentence by
  sentence; `anchor_bm25`: the BM25 both score with; `anchor_health`: the anchor field's line in `lexgraph doctor`.

Recall@k and MRR are measured in `lexgraph.eval.metrics`.
"""
