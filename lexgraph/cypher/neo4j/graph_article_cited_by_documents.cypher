// Neighbourhood view (lexgraph graph): the precedents, books and guidelines citing an article (the CITES_ARTICLE
// roll-up of their chunks' citations, any wording) or referring to it or a clause inside it (REFERS_TO).
MATCH (t:Provision {law_id: $law_id})
WHERE t.path = $path OR t.path STARTS WITH $prefix
MATCH (o)-[r:CITES_ARTICLE|REFERS_TO]->(t)
WHERE o:Precedent OR o:Document
RETURN CASE WHEN o:Precedent THEN 'Precedent' ELSE 'Document' END AS label, o.uid AS uid, o.date AS date,
       type(r) AS rel, t.path AS path, r.count AS count
