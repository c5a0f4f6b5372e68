// The articles and paragraphs of one law, every stored wording, for the BM25 and vector indexes. Reached through
// the law's versions so that the engine follows adjacency instead of scanning every clause of the store.
MATCH (:Law {law_id: $law_id})-[:HAS_VERSION]->(:LawVersion)-[:CONTAINS]->(p:Provision)
WHERE p.kind = 'article' OR p.kind = 'paragraph'
RETURN DISTINCT p.uid AS uid, p.law_id AS law_id, p.path AS path, p.kind AS kind, p.title AS title,
       p.caption AS caption, p.text AS text, p.valid_from AS valid_from, p.valid_until AS valid_until
