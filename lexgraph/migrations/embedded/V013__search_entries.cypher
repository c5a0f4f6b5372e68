// Search entries: on Neo4j the search fields of indexed clauses and chunks move to their own nodes. The
// embedded backend keeps them in files beside the graph (lexgraph/index/local.py), never on the graph's nodes:
// nothing changes here; the version is kept so that both backends share migration numbers.
RETURN 1;
