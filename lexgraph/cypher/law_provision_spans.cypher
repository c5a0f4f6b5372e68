// Every clause node of one law with its validity, for in-memory lookups (citation resolution and linking):
// one read per law instead of one per citation. No text: the cited laws are many and only their shape is needed;
// the heading of a citing clause gives the division it sits in (第一節 written alone is that chapter's).
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(p:Provision)
RETURN DISTINCT p.uid AS uid, p.path AS path, p.kind AS kind, p.seq AS seq, p.valid_from AS valid_from,
       p.valid_until AS valid_until,
       CASE WHEN p.kind IN ['paragraph', 'item', 'subitem'] THEN p.heading ELSE NULL END AS heading
