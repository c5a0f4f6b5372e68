// Search: BM25 through a full-text index with the whitespace analyzer over the Sudachi
// tokens lexgraph writes (so BM25 means what the embedded backend's tantivy index means), and a record per
// index part of what it was built from. The vector indexes are created by `lexgraph index`, which knows the
// embedder's dimensions.
CREATE FULLTEXT INDEX lexgraph_tokens IF NOT EXISTS FOR (n:Provision|Chunk) ON EACH [n.tokens]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}};
CREATE CONSTRAINT index_part_name IF NOT EXISTS FOR (n:IndexPart) REQUIRE n.name IS UNIQUE;
CREATE INDEX provision_search_part IF NOT EXISTS FOR (n:Provision) ON (n.search_part);
CREATE INDEX chunk_search_part IF NOT EXISTS FOR (n:Chunk) ON (n.search_part);
