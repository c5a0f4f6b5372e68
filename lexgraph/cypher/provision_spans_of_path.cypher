// The clause nodes of one path of one law with their validity, no text: what the in-force decision needs to answer
// for one clause (read/revisions.py `ClauseSpans`) without reading the law's thousands of other clauses.
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(p:Provision {path: $path})
RETURN DISTINCT p.uid AS uid, p.path AS path, p.kind AS kind, p.seq AS seq, p.valid_from AS valid_from,
       p.valid_until AS valid_until,
       CASE WHEN p.kind IN ['paragraph', 'item', 'subitem'] THEN p.heading ELSE NULL END AS heading
