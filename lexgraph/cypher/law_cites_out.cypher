// The CITES edges leaving one law's clauses: what linking compares against to add and remove edges.
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(p:Provision)-[:CITES]->(t:Provision)
RETURN DISTINCT p.uid AS from_uid, t.uid AS to_uid
