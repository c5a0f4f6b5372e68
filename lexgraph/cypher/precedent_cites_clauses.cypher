// The clauses a precedent's chunks cite (the wording in force on its date), with how often.
MATCH (c:Chunk {owner_uid: $uid})-[r:CITES]->(t:Provision)
MATCH (l:Law {law_id: t.law_id})
RETURN l.title AS law_title, t.law_id AS law_id, t.path AS path, t.uid AS clause_uid, count(r) AS chunks,
       min(r.surface) AS surface
ORDER BY law_id, path
