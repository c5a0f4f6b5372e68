// The clause nodes of some paths of some laws with their validity, no text, as provision_spans_of_path reads one:
// the in-force decision's input for a search's hits in one read (read/revisions.py `ClauseSpans.read`). Every
// path is read in every law named; the caller keeps the (law, path) pairs it asked for.
MATCH (v:LawVersion)-[:CONTAINS]->(p:Provision)
WHERE v.law_id IN $law_ids AND p.path IN $paths
RETURN DISTINCT v.law_id AS law_id, p.uid AS uid, p.path AS path, p.kind AS kind, p.seq AS seq,
       p.valid_from AS valid_from, p.valid_until AS valid_until,
       CASE WHEN p.kind IN ['paragraph', 'item', 'subitem'] THEN p.heading ELSE NULL END AS heading
