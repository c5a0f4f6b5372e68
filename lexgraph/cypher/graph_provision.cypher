// Neighbourhood view (lexgraph graph): one clause by uid, to start from its article.
MATCH (p:Provision {uid: $uid})
RETURN p.uid AS uid, p.law_id AS law_id, p.path AS path, p.kind AS kind
