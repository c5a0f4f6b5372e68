// Every wording of a clause and of the clauses inside it, past and present, found through the law's versions
// (see clause_wordings_on for why citation reads start from these keys).
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(t:Provision)
WHERE t.path = $path OR t.path STARTS WITH $prefix
RETURN DISTINCT t.uid AS uid, t.path AS path, t.valid_from AS valid_from, t.valid_until AS valid_until
ORDER BY path, uid
