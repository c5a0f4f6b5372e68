// Judgment chunks with what an index filters on: the owner, its date, and its content hash (for staleness).
MATCH (c:Chunk)-[:PART_OF]->(o:Precedent)
RETURN c.uid AS uid, c.text AS text, c.section AS section, c.seq AS seq, o.uid AS owner_uid,
       'precedent' AS owner_kind, o.case_name AS owner_title, o.date AS day, o.content_hash AS owner_hash
