// The CITES edges leaving some clauses (by uid), with the citing clause's text and the span of the citation in it,
// so that the words right after a citation (…の規定にかかわらず, …を準用する) can be read. One read per search.
MATCH (p:Provision)-[r:CITES]->(t:Provision)
WHERE p.uid IN $uids
RETURN p.uid AS from_uid, p.text AS text, r.char_start AS char_start, r.char_end AS char_end, t.uid AS to_uid,
       t.law_id AS law_id, t.path AS path, t.valid_from AS valid_from,
       t.valid_until AS valid_until
