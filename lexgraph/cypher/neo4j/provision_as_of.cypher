// Neo4j: the composite index on (law_id, path) finds the clause directly. The text of one clause in force on a day: valid_from <= day < valid_until (open ends are NULL).
MATCH (p:Provision {law_id: $law_id, path: $path})
WHERE (p.valid_from IS NULL OR p.valid_from <= $day) AND (p.valid_until IS NULL OR p.valid_until > $day)
RETURN p.uid AS uid, p.path AS path, p.kind AS kind, p.num AS num, p.title AS title, p.caption AS caption,
       p.heading AS heading, p.text AS text, p.sentences AS sentences, p.seq AS seq,
       p.valid_from AS valid_from, p.valid_until AS valid_until, p.content_hash AS content_hash
