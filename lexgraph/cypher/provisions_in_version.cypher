// The clauses of one version in document order (for `law diff` and `law show` of a whole law).
MATCH (v:LawVersion {revision_id: $revision_id})-[:CONTAINS]->(p:Provision)
RETURN p.uid AS uid, p.path AS path, p.kind AS kind, p.num AS num, p.title AS title, p.caption AS caption,
       p.heading AS heading, p.text AS text, p.seq AS seq, p.valid_from AS valid_from,
       p.valid_until AS valid_until, p.content_hash AS content_hash
ORDER BY p.seq
