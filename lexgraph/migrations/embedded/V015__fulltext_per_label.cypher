// A full-text index per kind of search entry (issue 34): on Neo4j, `provision_tokens` and `chunk_tokens` replace
// `lexgraph_tokens`. The embedded backend keeps one tantivy index per part in files beside the graph
// (lexgraph/index/local.py): nothing changes here; the version is kept so that both backends share migration
// numbers.
RETURN 1;
