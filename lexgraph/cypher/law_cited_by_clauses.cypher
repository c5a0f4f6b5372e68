// Which clauses cite one law as a whole (named with its number, no clause), as worded on $day. Read from the law's
// node along its own CITES edges, so that memory is bounded by the citations of that law.
MATCH (t:Law {law_id: $law_id})<-[r:CITES]-(p:Provision)
WHERE (p.valid_from IS NULL OR p.valid_from <= $day) AND (p.valid_until IS NULL OR p.valid_until > $day)
MATCH (l:Law {law_id: p.law_id})
RETURN r.surface AS surface, r.part AS part, r.mentions AS mentions, p.uid AS uid, p.law_id AS law_id,
       l.title AS law_title, p.path AS path, p.kind AS kind, p.text AS text, p.valid_from AS valid_from,
       p.valid_until AS valid_until
ORDER BY law_id, path
