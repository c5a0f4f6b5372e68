// What one clause wording ($uid, a key from clause_wordings_on) cites, as worded on $day. Read from the citing
// wording by its key along its own CITES edges, so that memory is bounded by that wording's citations.
MATCH (p:Provision {uid: $uid})-[r:CITES]->(t:Provision)
WHERE (t.valid_from IS NULL OR t.valid_from <= $day) AND (t.valid_until IS NULL OR t.valid_until > $day)
MATCH (l:Law {law_id: t.law_id})
RETURN p.path AS from_path, r.surface AS surface, r.part AS part, r.mentions AS mentions, r.char_start AS char_start,
       t.uid AS uid, t.law_id AS law_id, l.title AS law_title, t.path AS path, t.kind AS kind, t.text AS text,
       t.valid_from AS valid_from, t.valid_until AS valid_until
