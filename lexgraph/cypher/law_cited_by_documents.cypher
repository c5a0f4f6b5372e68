// Precedents, books and guidelines whose chunks cite one law as a whole (named with its number, no clause).
MATCH (t:Law {law_id: $law_id})<-[r:CITES]-(c:Chunk)
MATCH (c)-[:PART_OF]->(o:Precedent:Document)
RETURN label(o) AS label, o.uid AS uid, o.kind AS kind, o.title AS title, o.case_name AS case_name,
       o.case_number AS case_number, o.court AS court, o.decision_type AS decision_type, o.date AS date,
       c.uid AS chunk_uid, r.surface AS surface
ORDER BY date, uid, chunk_uid
