// Neighbourhood view (lexgraph graph): the precedents, books and guidelines citing an article (the CITES_ARTICLE
// roll-up of their chunks' citations, any wording) or referring to it or a clause inside it (REFERS_TO).
// LadybugDB reads `o:Precedent:Document` as either label; Neo4j's version is in cypher/neo4j/.
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(t:Provision)
WHERE t.path = $path OR t.path STARTS WITH $prefix
WITH DISTINCT t
MATCH (o:Precedent:Document)-[r:CITES_ARTICLE|REFERS_TO]->(t)
RETURN label(o) AS label, o.uid AS uid, o.date AS date, label(r) AS rel, t.path AS path, r.count AS count
