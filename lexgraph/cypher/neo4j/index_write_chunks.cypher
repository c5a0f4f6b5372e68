// Index chunks: each gets a search entry (:ChunkSearch, linked by INDEXED_AS), as index_write_provisions.cypher
// gives clauses theirs: tokens, embedding, the heading shown with a hit as `name`, the text, the laws it cites and
// its date.
UNWIND $rows AS r
MATCH (n:Chunk {uid: r.uid})
MERGE (s:ChunkSearch {uid: r.uid})
SET s.unit_label = 'Chunk', s.name = r.title, s.text = n.text, s.law_id = '', s.path = coalesce(n.section, ''),
    s.tokens = r.tokens, s.embedding = r.embedding, s.laws = r.laws, s.part = r.part, s.owner_uid = r.owner_uid,
    s.owner_kind = r.owner_kind, s.valid_from = r.valid_from, s.valid_until = r.valid_until,
    s.index_key = $index_key
MERGE (n)-[:INDEXED_AS]->(s)
