// Neighbourhood view (lexgraph graph): the statute cross-references reaching an article — any wording of it, or of
// a clause inside it — with the validity of both ends (see graph_article_cites).
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(t:Provision)
WHERE t.path = $path OR t.path STARTS WITH $prefix
WITH DISTINCT t
MATCH (p:Provision)-[:CITES]->(t)
RETURN t.path AS near_path, t.valid_from AS near_from, t.valid_until AS near_until, p.law_id AS law_id,
       p.path AS path, p.valid_from AS valid_from, p.valid_until AS valid_until
