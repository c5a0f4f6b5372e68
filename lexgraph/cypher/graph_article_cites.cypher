// Neighbourhood view (lexgraph graph): the statute cross-references leaving an article — any wording of it, or of
// a clause inside it — with the validity of both ends, so that the caller can keep those in force on a day and
// fold the cited clauses into their articles.
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(p:Provision)
WHERE p.path = $path OR p.path STARTS WITH $prefix
WITH DISTINCT p
MATCH (p)-[:CITES]->(t:Provision)
RETURN p.path AS near_path, p.valid_from AS near_from, p.valid_until AS near_until, t.law_id AS law_id,
       t.path AS path, t.valid_from AS valid_from, t.valid_until AS valid_until
