// The text of one clause in force on a day: valid_from <= day < valid_until (open ends are NULL). Reached
// through the law's versions, which is an index-free walk over a few thousand edges rather than a scan of
// every clause in the store (LadybugDB indexes only primary keys).
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(p:Provision {path: $path})
WHERE (p.valid_from IS NULL OR p.valid_from <= $day) AND (p.valid_until IS NULL OR p.valid_until > $day)
RETURN DISTINCT p.uid AS uid, p.path AS path, p.kind AS kind, p.num AS num, p.title AS title,
       p.caption AS caption, p.heading AS heading, p.text AS text, p.sentences AS sentences, p.seq AS seq,
       p.valid_from AS valid_from, p.valid_until AS valid_until, p.content_hash AS content_hash
