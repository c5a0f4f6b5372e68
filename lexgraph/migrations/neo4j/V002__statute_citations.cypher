// Cross-references between clauses: (:Provision)-[:CITES]->(:Provision), with the mention's surface,
// offsets, part, status, extractor and mention count as properties; Law.cited_laws lists the other
// laws a law cites. Neo4j needs no DDL for either; the relationship index serves "which extractor made these edges".
CREATE INDEX cites_extractor IF NOT EXISTS FOR ()-[r:CITES]-() ON (r.extractor);
