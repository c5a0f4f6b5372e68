// The HAS_PART edges between the clauses of one law (reached through its versions; see provision_as_of).
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(a:Provision)-[:HAS_PART]->(b:Provision)
RETURN DISTINCT a.uid AS parent, b.uid AS child
