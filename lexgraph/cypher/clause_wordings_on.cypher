// The wordings of a clause and of the clauses inside it in force on $day, found through the law's versions (an
// index-free walk over one law's edges, not a scan of every clause). Citation reads start from these keys and
// follow each one's CITES edges by itself (provision_cites, provision_cited_by): one query joining both sides
// let LadybugDB scan every clause of the store into a hash join, which filled a 1 GiB buffer pool on the whole
// 8,502-law archive.
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(t:Provision)
WHERE (t.path = $path OR t.path STARTS WITH $prefix)
  AND (t.valid_from IS NULL OR t.valid_from <= $day) AND (t.valid_until IS NULL OR t.valid_until > $day)
RETURN DISTINCT t.uid AS uid, t.path AS path
ORDER BY path, uid
