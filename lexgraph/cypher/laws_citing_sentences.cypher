// The sentences of the clauses of a few laws (`law_ids`) that can hold a citation (paragraphs, items, subitems:
// an article repeats its paragraphs' text), for the statutes' anchors; many laws a query, as laws_cites_spans.
MATCH (l:Law)-[:HAS_VERSION]->(:LawVersion)-[:CONTAINS]->(p:Provision)
WHERE l.law_id IN $law_ids AND p.kind IN ['paragraph', 'item', 'subitem']
RETURN DISTINCT l.law_id AS law_id, p.uid AS uid, p.kind AS kind, p.sentences AS sentences
