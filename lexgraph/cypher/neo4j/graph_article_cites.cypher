// Neighbourhood view (lexgraph graph), Neo4j: the composite index on (law_id, path) finds the article and its
// clauses directly. The statute cross-references leaving an article (any wording of it or of a clause inside it),
// with the validity of both ends.
MATCH (p:Provision {law_id: $law_id})
WHERE p.path = $path OR p.path STARTS WITH $prefix
MATCH (p)-[:CITES]->(t:Provision)
RETURN p.path AS near_path, p.valid_from AS near_from, p.valid_until AS near_until, t.law_id AS law_id,
       t.path AS path, t.valid_from AS valid_from, t.valid_until AS valid_until
