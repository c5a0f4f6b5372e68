// The kind of a search entry in the full-text index: `lexgraph_tokens` covers the entries of both kinds,
// as tantivy's one index does in the embedded backend, so that BM25's statistics and every score are the same on
// both backends. A search of one kind had to stream the other kind's matches too and drop them afterwards (the
// chunk search read past thousands of clauses). The index now also holds `unit_label` ('Provision' or 'Chunk'), and
// a search requires its kind there with a boost of 0: Lucene keeps statistics per field, so the `tokens` field's,
// and every score, stay as they were (index_search.cypher; tests/test_neo4j_search.py compares them).
DROP INDEX lexgraph_tokens IF EXISTS;
CREATE FULLTEXT INDEX lexgraph_tokens IF NOT EXISTS FOR (n:ProvisionSearch|ChunkSearch) ON EACH [n.tokens, n.unit_label]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}};
