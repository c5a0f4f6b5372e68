// Neighbourhood view (lexgraph graph), Neo4j: the composite index on (law_id, path) finds the article and its
// clauses directly. The statute cross-references reaching an article (any wording of it or of a clause inside it),
// with the validity of both ends.
MATCH (t:Provision {law_id: $law_id})
WHERE t.path = $path OR t.path STARTS WITH $prefix
MATCH (p:Provision)-[:CITES]->(t)
RETURN t.path AS near_path, t.valid_from AS near_from, t.valid_until AS near_until, p.law_id AS law_id,
       p.path AS path, p.valid_from AS valid_from, p.valid_until AS valid_until
