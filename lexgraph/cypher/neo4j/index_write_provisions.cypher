// Give indexed provisions their search properties: Sudachi tokens (full-text index, whitespace analyzer), the
// embedding (vector index), the heading shown with a hit, the laws it belongs to or cites, and its dates.
UNWIND $rows AS r
MATCH (n:Provision {uid: r.uid})
SET n.tokens = r.tokens, n.embedding = r.embedding, n.search_title = r.title, n.search_laws = r.laws,
    n.search_part = r.part, n.search_owner = r.owner_uid, n.search_owner_kind = r.owner_kind,
    n.search_from = r.valid_from, n.search_until = r.valid_until, n.index_key = $index_key
