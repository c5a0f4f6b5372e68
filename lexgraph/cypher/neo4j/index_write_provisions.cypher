// Index clauses: each gets a search entry (:ProvisionSearch, linked by INDEXED_AS) holding what search needs and a
// person reading the clause does not: the Sudachi tokens (full-text index, whitespace analyzer), the embedding
// (vector index), the heading shown with a hit as `name`, the text, the laws it belongs to and its dates. The
// clause itself keeps only its own properties (no embedding in its Browser panel).
UNWIND $rows AS r
MATCH (n:Provision {uid: r.uid})
MERGE (s:ProvisionSearch {uid: r.uid})
SET s.unit_label = 'Provision', s.name = r.title, s.text = n.text, s.law_id = n.law_id, s.path = n.path,
    s.tokens = r.tokens, s.embedding = r.embedding, s.laws = r.laws, s.part = r.part, s.owner_uid = r.owner_uid,
    s.owner_kind = r.owner_kind, s.valid_from = r.valid_from, s.valid_until = r.valid_until,
    s.index_key = $index_key
MERGE (n)-[:INDEXED_AS]->(s)
