// Neo4j: the composite index on (law_id, path) finds the clause directly. The clause nodes of one path of one law
// with their validity and, for a paragraph or item, the heading that gives its division, as
// law_provision_spans.cypher reads them; no text (read/revisions.py `ClauseSpans`).
MATCH (p:Provision {law_id: $law_id, path: $path})
RETURN p.uid AS uid, p.path AS path, p.kind AS kind, p.seq AS seq, p.valid_from AS valid_from,
       p.valid_until AS valid_until,
       CASE WHEN p.kind IN ['paragraph', 'item', 'subitem'] THEN p.heading ELSE NULL END AS heading
