// The kind of a search entry in Neo4j's full-text index: migrations/neo4j/V016__search_entry_kind.cypher.
// The embedded backend's tantivy index is built by `lexgraph index` and already holds each unit's kind; this file
// keeps the two migration histories in step.
