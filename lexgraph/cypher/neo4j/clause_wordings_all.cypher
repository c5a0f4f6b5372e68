// Neo4j: the composite index on (law_id, path) finds the clause and the clauses inside it directly. Every wording,
// past and present (see the shared clause_wordings_all).
MATCH (t:Provision {law_id: $law_id})
WHERE t.path = $path OR t.path STARTS WITH $prefix
RETURN DISTINCT t.uid AS uid, t.path AS path, t.valid_from AS valid_from, t.valid_until AS valid_until
ORDER BY path, uid
