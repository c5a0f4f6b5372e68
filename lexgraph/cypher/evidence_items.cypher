// The clauses ($provisions, with their law's title) and precedents ($precedents) selected as evidence, as a search
// shows them, in one read: on a server each query is a round trip. Both parts return the same columns,
// each filled by its own label ('' or false otherwise); a date column of the other label is a typed null
// (`CASE WHEN false …`), since the embedded engine types every column of a UNION and a bare NULL has no type.
UNWIND $provisions AS provision_uid
MATCH (p:Provision {uid: provision_uid})
MATCH (l:Law {law_id: p.law_id})
RETURN 'Provision' AS label, p.uid AS uid, l.title AS law_title, p.law_id AS law_id, p.path AS path,
       p.caption AS caption, p.text AS text, p.valid_from AS valid_from, p.valid_until AS valid_until,
       '' AS court, CASE WHEN false THEN p.valid_from END AS date, '' AS case_number, '' AS case_name,
       '' AS summary, false AS stub
UNION ALL
UNWIND $precedents AS precedent_uid
MATCH (p:Precedent {uid: precedent_uid})
RETURN 'Precedent' AS label, p.uid AS uid, '' AS law_title, '' AS law_id, '' AS path, '' AS caption, '' AS text,
       CASE WHEN false THEN p.date END AS valid_from, CASE WHEN false THEN p.date END AS valid_until,
       p.court AS court, p.date AS date, p.case_number AS case_number, p.case_name AS case_name,
       p.summary AS summary, p.stub AS stub
