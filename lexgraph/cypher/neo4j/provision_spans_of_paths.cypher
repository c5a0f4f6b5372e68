// Neo4j: the composite index on (law_id, path) finds each clause directly. The clause nodes of some paths of some
// laws, as provision_spans_of_path.cypher reads one (read/revisions.py `ClauseSpans.read`); every path is read in
// every law named, and the caller keeps the (law, path) pairs it asked for.
UNWIND $law_ids AS law_id
UNWIND $paths AS path
MATCH (p:Provision {law_id: law_id, path: path})
RETURN law_id AS law_id, p.uid AS uid, p.path AS path, p.kind AS kind, p.seq AS seq, p.valid_from AS valid_from,
       p.valid_until AS valid_until,
       CASE WHEN p.kind IN ['paragraph', 'item', 'subitem'] THEN p.heading ELSE NULL END AS heading
