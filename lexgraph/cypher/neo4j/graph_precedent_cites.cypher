// Neighbourhood view (lexgraph graph): the clauses a precedent cites (CITES_ARTICLE, with the number of citations
// of its chunks) or refers to (REFERS_TO, from the judgment's 参照法条).
MATCH (o:Precedent {uid: $uid})-[r:CITES_ARTICLE|REFERS_TO]->(t:Provision)
RETURN type(r) AS rel, t.law_id AS law_id, t.path AS path, r.count AS count
