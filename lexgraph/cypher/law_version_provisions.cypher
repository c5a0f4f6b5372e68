// Every clause of every stored version of one law: enough to recompute its timeline after a new version arrives.
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(p:Provision)
RETURN v.revision_id AS revision_id, p.uid AS uid, p.path AS path, p.kind AS kind, p.num AS num,
       p.title AS title, p.caption AS caption, p.heading AS heading, p.text AS text, p.sentences AS sentences,
       p.seq AS seq, p.valid_from AS valid_from, p.valid_until AS valid_until, p.content_hash AS content_hash
