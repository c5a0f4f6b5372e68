// A law cited as a whole, as in migrations/embedded/V017: (:Provision)-[:CITES]->(:Law) and
// (:Chunk)-[:CITES]->(:Law). Neo4j needs no DDL for a new pair of labels on a relationship type; this file keeps the
// two migration histories in step.
