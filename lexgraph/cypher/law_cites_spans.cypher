// The resolved CITES edges leaving one law's clauses, with the span each citation takes in its citing clause's own
// text and the cited clause's law and path: the statutes' anchors (a citing sentence without its citations).
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(p:Provision)-[r:CITES]->(t:Provision)
WHERE r.status = 'resolved'
RETURN DISTINCT p.uid AS from_uid, r.char_start AS char_start, r.char_end AS char_end, t.law_id AS to_law,
       t.path AS to_path
