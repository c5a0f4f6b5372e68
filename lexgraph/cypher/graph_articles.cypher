// Neighbourhood view (lexgraph graph): every wording of some articles (the caller keeps the (law_id, path) pairs
// it asked for), to caption them and pick the wording in force on a day.
MATCH (v:LawVersion)-[:CONTAINS]->(p:Provision)
WHERE v.law_id IN $law_ids AND p.path IN $paths
RETURN DISTINCT p.uid AS uid, p.law_id AS law_id, p.path AS path, p.kind AS kind, p.title AS title,
       p.caption AS caption, p.text AS text, p.valid_from AS valid_from, p.valid_until AS valid_until
