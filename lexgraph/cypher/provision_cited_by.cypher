// Which clauses cite a clause (or a clause inside it), as both were worded on $day.
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(t:Provision)
WHERE (t.path = $path OR t.path STARTS WITH $prefix)
  AND (t.valid_from IS NULL OR t.valid_from <= $day) AND (t.valid_until IS NULL OR t.valid_until > $day)
WITH DISTINCT t
MATCH (p:Provision)-[r:CITES]->(t)
WHERE (p.valid_from IS NULL OR p.valid_from <= $day) AND (p.valid_until IS NULL OR p.valid_until > $day)
MATCH (l:Law {law_id: p.law_id})
RETURN t.path AS to_path, r.surface AS surface, r.part AS part, r.mentions AS mentions, p.uid AS uid,
       p.law_id AS law_id, l.title AS law_title, p.path AS path, p.kind AS kind, p.text AS text,
       p.valid_from AS valid_from, p.valid_until AS valid_until
ORDER BY law_id, path, to_path
