// Neighbourhood view (lexgraph graph): the statute cross-references reaching one wording ($uid, a key from
// clause_wordings_all), with the validity of both ends (see graph_article_cites).
MATCH (t:Provision {uid: $uid})<-[:CITES]-(p:Provision)
RETURN t.path AS near_path, t.valid_from AS near_from, t.valid_until AS near_until, p.law_id AS law_id,
       p.path AS path, p.valid_from AS valid_from, p.valid_until AS valid_until
