// The unit's fields come with each hit (as index_units_by_uid reads them): one round trip, not two (issue 34).
// Approximate nearest units by one of the vector indexes (provision_embedding, chunk_embedding: names from the
// code, never from user text), over-fetched ($fetch > $k) so that the filter can run inside the ranking; the
// caller widens $fetch, then falls back to the exact query, when fewer than $k pass. The index finds the
// candidates; their scores are the exact cosine of the stored vectors (an index made before issue 34 quantizes
// them), so that the ranking, ties by uid, is the embedded backend's. Only the best $k + 50 by the index's own
// score (best first) are re-scored: reading all $fetch embeddings cost most of a hybrid search (issue 34).
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node
WHERE (size($laws) = 0 OR any(law IN node.search_laws WHERE law IN $laws))
  AND ($as_of IS NULL OR ((node.search_from IS NULL OR node.search_from <= $as_of)
                          AND (node.search_until IS NULL OR $as_of < node.search_until)))
WITH node
LIMIT $k + 50
WITH node, vector.similarity.cosine(node.embedding, $vector) AS similarity
RETURN node.uid AS uid, 2 * similarity - 1 AS score,
       CASE WHEN node:Chunk THEN 'Chunk' ELSE 'Provision' END AS label, node.search_part AS part,
       CASE WHEN node:Chunk THEN '' ELSE node.law_id END AS law_id, node.search_laws AS laws,
       CASE WHEN node:Chunk THEN coalesce(node.section, '') ELSE node.path END AS path, node.search_title AS title,
       node.text AS text, node.search_owner AS owner_uid, node.search_owner_kind AS owner_kind,
       node.search_from AS valid_from, node.search_until AS valid_until
ORDER BY score DESC, uid
LIMIT $k
