// What the chunk part of an index is derived from: every precedent and document that has chunks, with its hash.
MATCH (c:Chunk)-[:PART_OF]->(o:Precedent)
RETURN DISTINCT o.uid AS owner_uid, o.content_hash AS owner_hash
UNION
MATCH (c:Chunk)-[:PART_OF]->(o:Document)
RETURN DISTINCT o.uid AS owner_uid, o.content_hash AS owner_hash
