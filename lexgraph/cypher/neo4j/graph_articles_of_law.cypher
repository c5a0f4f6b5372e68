// Neighbourhood view (lexgraph graph), Neo4j: the composite index on (law_id, path) finds the articles directly.
// Every wording of some articles of one law (see the shared graph_articles_of_law).
MATCH (p:Provision {law_id: $law_id})
WHERE p.path IN $paths
RETURN p.uid AS uid, p.law_id AS law_id, p.path AS path, p.kind AS kind, p.title AS title, p.caption AS caption,
       p.text AS text, p.valid_from AS valid_from, p.valid_until AS valid_until
