// Clauses that no version contains: left behind by an interrupted write (should be none).
MATCH (p:Provision)
WHERE NOT EXISTS { MATCH (:LawVersion)-[:CONTAINS]->(p) }
RETURN p.uid AS uid LIMIT 20
