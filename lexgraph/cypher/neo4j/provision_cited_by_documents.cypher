// Precedents, books and guidelines whose chunks cite a clause (or a clause inside it): every wording of it, or
// only the one in force on $day when $any_day is false. Each row says which clause node (wording) was cited.
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(t:Provision)
WHERE (t.path = $path OR t.path STARTS WITH $prefix)
  AND ($any_day OR ((t.valid_from IS NULL OR t.valid_from <= $day) AND (t.valid_until IS NULL OR t.valid_until > $day)))
WITH DISTINCT t
MATCH (c:Chunk)-[r:CITES]->(t)
MATCH (c)-[:PART_OF]->(o)
WHERE o:Precedent OR o:Document
RETURN labels(o)[0] AS label, o.uid AS uid, o.kind AS kind, o.title AS title, o.case_name AS case_name,
       o.case_number AS case_number, o.court AS court, o.decision_type AS decision_type, o.date AS date,
       c.uid AS chunk_uid, r.surface AS surface, t.uid AS clause_uid, t.path AS path, t.valid_from AS valid_from,
       t.valid_until AS valid_until
ORDER BY date, uid, chunk_uid
