// The laws each chunk cites, so that a search restricted to a law finds the literature about it.
MATCH (c:Chunk)-[:CITES]->(p:Provision)
RETURN DISTINCT c.uid AS uid, p.law_id AS law_id
