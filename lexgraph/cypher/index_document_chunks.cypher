// Book, guideline and other literature chunks with their owner, its date and its content hash.
MATCH (c:Chunk)-[:PART_OF]->(o:Document)
RETURN c.uid AS uid, c.text AS text, c.section AS section, c.seq AS seq, o.uid AS owner_uid,
       o.kind AS owner_kind, o.title AS owner_title, o.date AS day, o.content_hash AS owner_hash
