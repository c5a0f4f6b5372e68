// What a clause (and the clauses inside it) cites, as both were worded on $day.
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(p:Provision)
WHERE (p.path = $path OR p.path STARTS WITH $prefix)
  AND (p.valid_from IS NULL OR p.valid_from <= $day) AND (p.valid_until IS NULL OR p.valid_until > $day)
WITH DISTINCT p
MATCH (p)-[r:CITES]->(t:Provision)
WHERE (t.valid_from IS NULL OR t.valid_from <= $day) AND (t.valid_until IS NULL OR t.valid_until > $day)
MATCH (l:Law {law_id: t.law_id})
RETURN p.path AS from_path, r.surface AS surface, r.part AS part, r.mentions AS mentions, t.uid AS uid,
       t.law_id AS law_id, l.title AS law_title, t.path AS path, t.kind AS kind, t.text AS text,
       t.valid_from AS valid_from, t.valid_until AS valid_until
ORDER BY from_path, r.char_start, path
