// A full-text index per kind of search entry (issue 34): `provision_tokens` on ProvisionSearch, `chunk_tokens` on
// ChunkSearch, in place of `lexgraph_tokens` over both. A search for chunks ran the one index over every entry and
// kept the chunks (and a search for clauses streamed past the chunks' matches); each kind now searches its own
// entries only. Same analyzer (`whitespace`: the tokens are Sudachi terms lexgraph writes), same property, so
// Neo4j fills the new indexes from the entries already written: nothing is indexed again by lexgraph. Clients
// outside lexgraph (neo4j-graphrag's HybridRetriever, LangChain's keyword_index_name) name the new indexes
// (docs/neo4j.md, "Using the indexes from outside lexgraph").
CREATE FULLTEXT INDEX provision_tokens IF NOT EXISTS FOR (n:ProvisionSearch) ON EACH [n.tokens]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}};
CREATE FULLTEXT INDEX chunk_tokens IF NOT EXISTS FOR (n:ChunkSearch) ON EACH [n.tokens]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}};
DROP INDEX lexgraph_tokens IF EXISTS;
