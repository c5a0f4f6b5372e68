// Neo4j: the composite index on (law_id, path) finds the clause and the clauses inside it directly. The wordings in
// force on $day (see the shared clause_wordings_on).
MATCH (t:Provision {law_id: $law_id})
WHERE (t.path = $path OR t.path STARTS WITH $prefix)
  AND (t.valid_from IS NULL OR t.valid_from <= $day) AND (t.valid_until IS NULL OR t.valid_until > $day)
RETURN DISTINCT t.uid AS uid, t.path AS path
ORDER BY path, uid
