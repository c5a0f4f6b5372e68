// The CITES edges from one law's clauses to laws cited as a whole: what linking compares against to add and remove
// them, as law_cites_out does for the edges to clauses.
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(p:Provision)-[:CITES]->(t:Law)
RETURN DISTINCT p.uid AS from_uid, t.law_id AS to_uid
