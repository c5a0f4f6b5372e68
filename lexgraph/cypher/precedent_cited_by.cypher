// The documents whose chunks cite a precedent.
MATCH (c:Chunk)-[r:CITES]->(p:Precedent {uid: $uid})
RETURN c.owner_uid AS uid, count(r) AS chunks, min(r.surface) AS surface
ORDER BY uid
