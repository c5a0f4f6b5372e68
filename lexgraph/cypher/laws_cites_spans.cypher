// The resolved CITES edges leaving the clauses of a few laws (`law_ids`), with the span each citation takes in its
// citing clause's own text and the cited clause's law and path: the statutes' anchors. Asked for many laws at once
// because each query costs the engine a pass of its own: one law at a time, the whole archive's 8,502 queries took
// most of the field's build. Reached from the law's key through its versions (adjacency, not a scan).
MATCH (l:Law)-[:HAS_VERSION]->(:LawVersion)-[:CONTAINS]->(p:Provision)-[r:CITES]->(t:Provision)
WHERE l.law_id IN $law_ids AND r.status = 'resolved'
RETURN DISTINCT l.law_id AS law_id, p.uid AS from_uid, r.char_start AS char_start, r.char_end AS char_end,
       t.law_id AS to_law, t.path AS to_path
