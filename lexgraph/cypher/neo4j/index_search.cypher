// One search of each kind of unit asked for ($searches: a row per kind, with its label, ProvisionSearch or
// ChunkSearch, its vector index, its Lucene query and whether it is scanned exactly), all in one round trip (issue
// 34): BM25 over the tokens and the nearest units by embedding, each filtered inside its own ranking, as a hybrid
// search fuses them. One full-text index spans both kinds, as tantivy's does in the embedded backend, so that BM25's
// statistics (term rarity, average length), and with them the scores, are the same on both backends; a search's
// Lucene query excludes the chunks (clauses) or requires its kind's `unit_label` with a boost of 0 (chunks)
// (neo4j_index.lucene_query, migration V016), so the index yields only that kind's entries, with the scores they
// would have without it.
// search.lucene null: no BM25 list; $vector null: no dense list. Each row is one kind's: its lists as [uid, score]
// pairs, best first, ties by uid, as the embedded backend orders them (the driver decodes a row at a time, which
// cost more than the search); no embedding travels, and only the first $detail of each list bring their fields
// (`details`), the hits a fused top 10 is mostly made of: another one shown is read afterwards
// (index_units_by_uid). A chunk's fields include what it cites (`cites`, as chunks_citations reads it), which the
// search's evidence is ranked from: no round trip of its own for the chunks the search already brought.
// The dense list is the kind's vector index (search.index, a name from the code) asked for $fetch > $k neighbours,
// whose scores are the exact cosine (the index does not quantize: `ensure_vector_indexes`); with search.exact, a
// kind with no more units than $fetch, the allowed units are scanned exactly instead. $k is the largest k asked
// (LIMIT takes no row's value); the code cuts each kind's lists to its own.
UNWIND $searches AS search
CALL {
  WITH search
  UNWIND CASE WHEN search.lucene IS NULL THEN [] ELSE [1] END AS _
  // $text_limit: the hits kept (k + 50) when no filter follows, so that Lucene can skip the entries that cannot
  // reach them (a clause search of the whole archive: 15 ms, against 269 ms streaming every match); else all
  CALL db.index.fulltext.queryNodes('lexgraph_tokens', search.lucene, {limit: $text_limit}) YIELD node, score
  WHERE (size($laws) = 0 OR any(law IN node.laws WHERE law IN $laws))
    AND ($as_of IS NULL OR ((node.valid_from IS NULL OR node.valid_from <= $as_of)
                            AND (node.valid_until IS NULL OR $as_of < node.valid_until)))
  // the best $k + 50 in the index's order: the margin orders a tie across the k-th place by uid too
  WITH node, score
  LIMIT $k + 50
  WITH node, node.uid AS uid, score
  ORDER BY score DESC, uid
  LIMIT $k
  RETURN collect({uid: uid, score: score, node: node}) AS text
}
CALL {
  WITH search
  UNWIND CASE WHEN $vector IS NULL OR search.exact THEN [] ELSE [1] END AS _
  CALL db.index.vector.queryNodes(search.index, $fetch, $vector) YIELD node, score
  WHERE (size($laws) = 0 OR any(law IN node.laws WHERE law IN $laws))
    AND ($as_of IS NULL OR ((node.valid_from IS NULL OR node.valid_from <= $as_of)
                            AND (node.valid_until IS NULL OR $as_of < node.valid_until)))
  // the index yields its neighbours best first: only the best $k + 50 allowed are read further (their uids)
  WITH node, score
  LIMIT $k + 50
  WITH node, node.uid AS uid, 2 * score - 1 AS score
  ORDER BY score DESC, uid
  LIMIT $k
  RETURN collect({uid: uid, score: score, node: node}) AS nearest
}
CALL {
  WITH search
  UNWIND CASE WHEN $vector IS NOT NULL AND search.exact AND search.label = 'ChunkSearch' THEN [1] ELSE [] END AS _
  MATCH (node:ChunkSearch)
  WHERE node.embedding IS NOT NULL
    AND (size($laws) = 0 OR any(law IN node.laws WHERE law IN $laws))
    AND ($as_of IS NULL OR ((node.valid_from IS NULL OR node.valid_from <= $as_of)
                            AND (node.valid_until IS NULL OR $as_of < node.valid_until)))
  WITH node, node.uid AS uid, 2 * vector.similarity.cosine(node.embedding, $vector) - 1 AS score
  ORDER BY score DESC, uid
  LIMIT $k
  RETURN collect({uid: uid, score: score, node: node}) AS exact_chunks
}
CALL {
  WITH search
  UNWIND CASE WHEN $vector IS NOT NULL AND search.exact AND search.label = 'ProvisionSearch' THEN [1] ELSE [] END AS _
  MATCH (node:ProvisionSearch)
  WHERE node.embedding IS NOT NULL
    AND (size($laws) = 0 OR any(law IN node.laws WHERE law IN $laws))
    AND ($as_of IS NULL OR ((node.valid_from IS NULL OR node.valid_from <= $as_of)
                            AND (node.valid_until IS NULL OR $as_of < node.valid_until)))
  WITH node, node.uid AS uid, 2 * vector.similarity.cosine(node.embedding, $vector) - 1 AS score
  ORDER BY score DESC, uid
  LIMIT $k
  RETURN collect({uid: uid, score: score, node: node}) AS exact_provisions
}
WITH search, text, nearest + exact_chunks + exact_provisions AS nearest
RETURN search.kind AS kind, [x IN text | [x.uid, x.score]] AS text, [x IN nearest | [x.uid, x.score]] AS nearest,
       [n IN [x IN text[..$detail] + nearest[..$detail] | x.node] |
        n {.uid, label: n.unit_label, .part, .law_id, .laws, .path, title: n.name, .text, .owner_uid, .owner_kind,
           .valid_from, .valid_until,
           cites: CASE WHEN search.label = 'ChunkSearch' THEN
             [(n)<-[:INDEXED_AS]-(:Chunk)-[:CITES]->(t) WHERE t:Provision OR t:Precedent |
              CASE WHEN t:Provision THEN [t.uid, 'Provision', t.law_id, t.path] ELSE [t.uid, 'Precedent', '', ''] END]
           END}] AS details
