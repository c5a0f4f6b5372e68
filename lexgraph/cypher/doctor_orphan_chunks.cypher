// Chunks that belong to no precedent or document: left behind by an interrupted write (should be none).
MATCH (c:Chunk)
WHERE NOT EXISTS { MATCH (c)-[:PART_OF]->() }
RETURN c.uid AS uid LIMIT 20
