// Search entries: what search needs of an indexed clause or chunk (Sudachi tokens, the 384-float
// embedding, the search heading, filter fields) moves off the node a person reads in Neo4j Browser into its own
// node, (:Provision)-[:INDEXED_AS]->(:ProvisionSearch) and (:Chunk)-[:INDEXED_AS]->(:ChunkSearch), as Neo4j's
// GraphRAG examples keep embeddings on chunk nodes apart from the entities. The full-text index follows the
// tokens; the vector indexes are made again by the next `lexgraph index` (ensure_vector_indexes: on the new
// labels). The old search properties and part records go, so `lexgraph index` rebuilds every part (from the
// embedding cache: nothing is embedded again) and `doctor` says so until then.
DROP INDEX lexgraph_tokens IF EXISTS;
DROP INDEX provision_embedding IF EXISTS;
DROP INDEX chunk_embedding IF EXISTS;
DROP INDEX provision_search_part IF EXISTS;
DROP INDEX chunk_search_part IF EXISTS;
CREATE FULLTEXT INDEX lexgraph_tokens IF NOT EXISTS FOR (n:ProvisionSearch|ChunkSearch) ON EACH [n.tokens]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}};
CREATE CONSTRAINT provision_search_uid IF NOT EXISTS FOR (n:ProvisionSearch) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT chunk_search_uid IF NOT EXISTS FOR (n:ChunkSearch) REQUIRE n.uid IS UNIQUE;
CREATE INDEX provision_search_part IF NOT EXISTS FOR (n:ProvisionSearch) ON (n.part);
CREATE INDEX chunk_search_part IF NOT EXISTS FOR (n:ChunkSearch) ON (n.part);
CREATE INDEX provision_search_law IF NOT EXISTS FOR (n:ProvisionSearch) ON (n.law_id);
MATCH (n:Provision) WHERE n.index_key IS NOT NULL
CALL { WITH n REMOVE n.tokens, n.embedding, n.search_title, n.search_laws, n.search_part, n.search_owner,
       n.search_owner_kind, n.search_from, n.search_until, n.index_key } IN TRANSACTIONS OF 5000 ROWS;
MATCH (n:Chunk) WHERE n.index_key IS NOT NULL
CALL { WITH n REMOVE n.tokens, n.embedding, n.search_title, n.search_laws, n.search_part, n.search_owner,
       n.search_owner_kind, n.search_from, n.search_until, n.index_key } IN TRANSACTIONS OF 5000 ROWS;
MATCH (p:IndexPart) DETACH DELETE p;
MATCH (t:IndexTerms) DETACH DELETE t;
