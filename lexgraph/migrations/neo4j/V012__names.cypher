// Names a person reads (lexgraph/store/names.py): every node gains `name`, as in
// migrations/embedded/V012__names.cypher; Neo4j needs no DDL for a new property. An index on the clauses' names lets
// Browser find one as it is written: MATCH (p:Provision {name: '民法 第七百九条'}) RETURN p.
CREATE INDEX provision_name IF NOT EXISTS FOR (n:Provision) ON (n.name);
