"""lexgraph's ranking inside other frameworks' retriever interfaces: neo4j-graphrag (`graphrag`) and LangChain
(`langchain`), each an optional extra (``lexgraph[graphrag]``, ``lexgraph[langchain]``) imported only here.

Why wrappers and not a recipe for those frameworks' own retrievers: lexgraph's hybrid is a weighted mean of min-max
normalised BM25, dense and cited-clause scores with law-level evidence (docs/search.md), and its learned mode reads
the anchor field; no outside ranker reproduces either, and their vector retrievers, left to their defaults, search
too few HNSW candidates (docs/neo4j.md). A wrapper asks lexgraph, so an outside client gets exactly lexgraph's
ranking, and returns each hit as that framework's item, with the clause's caption and wording and no index data
(tokens, embeddings)."""
