// `lexgraph export rdf --law / --all`: every wording of one law's clauses, with each version that holds it. One
// law at a time, found through its versions, so that a whole-store export holds one law in memory.
MATCH (l:Law {law_id: $law_id})-[:HAS_VERSION]->(v:LawVersion)-[:CONTAINS]->(p:Provision)
RETURN p.uid AS uid, p.path AS path, p.kind AS kind, p.valid_from AS valid_from, p.valid_until AS valid_until,
       v.revision_id AS revision_id, l.title AS law_title
ORDER BY p.seq, uid, revision_id
