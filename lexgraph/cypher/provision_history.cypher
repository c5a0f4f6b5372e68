// Every stored text of one clause (all validity periods), with the versions that contain each.
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(p:Provision {path: $path})
RETURN p.uid AS uid, p.path AS path, p.kind AS kind, p.num AS num, p.title AS title, p.caption AS caption,
       p.heading AS heading, p.text AS text, p.sentences AS sentences, p.seq AS seq,
       p.valid_from AS valid_from, p.valid_until AS valid_until, p.content_hash AS content_hash,
       collect(v.revision_id) AS revision_ids
ORDER BY valid_from
