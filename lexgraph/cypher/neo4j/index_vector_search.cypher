// Approximate nearest units by one of the vector indexes (provision_embedding, chunk_embedding: names from the
// code, never from user text), over-fetched ($fetch > $k) so that the filter can run inside the ranking; the
// caller widens $fetch, then falls back to the exact query, when fewer than $k pass. The index finds the
// candidates; their scores are the exact cosine of the stored vectors (the index may quantize them), so that the
// ranking, ties by uid, is the embedded backend's.
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node
WHERE (size($laws) = 0 OR any(law IN node.search_laws WHERE law IN $laws))
  AND ($as_of IS NULL OR ((node.search_from IS NULL OR node.search_from <= $as_of)
                          AND (node.search_until IS NULL OR $as_of < node.search_until)))
WITH node, vector.similarity.cosine(node.embedding, $vector) AS similarity
RETURN node.uid AS uid, 2 * similarity - 1 AS score
ORDER BY score DESC, uid
LIMIT $k
