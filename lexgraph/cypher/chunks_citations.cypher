// What some chunks cite: clauses (the wording in force at the chunk's date) and precedents. The evidence of a
// search is ranked from these edges (retrieve/evidence.py).
UNWIND $uids AS chunk_uid
MATCH (c:Chunk {uid: chunk_uid})
MATCH (c)-[:CITES]->(p:Provision)
RETURN c.uid AS chunk, p.uid AS target, 'Provision' AS label, p.law_id AS law_id, p.path AS path
UNION ALL
UNWIND $uids AS chunk_uid
MATCH (c:Chunk {uid: chunk_uid})
MATCH (c)-[:CITES]->(p:Precedent)
RETURN c.uid AS chunk, p.uid AS target, 'Precedent' AS label, '' AS law_id, '' AS path
