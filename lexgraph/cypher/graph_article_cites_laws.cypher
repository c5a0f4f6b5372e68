// Neighbourhood view (lexgraph graph): the laws one wording ($uid, a key from clause_wordings_all) cites as a whole
// (named with its number, no clause), with the wording's validity.
MATCH (p:Provision {uid: $uid})-[:CITES]->(t:Law)
RETURN p.path AS near_path, p.valid_from AS near_from, p.valid_until AS near_until, t.law_id AS law_id
