// Approximate nearest units by one of the vector indexes (provision_embedding, chunk_embedding: names from the
// code, never from user text), over-fetched ($fetch ≥ $k) so that the filter can run inside the ranking; the
// caller widens $fetch, then falls back to the exact query, when fewer than $k pass.
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score
WHERE (size($laws) = 0 OR any(law IN node.search_laws WHERE law IN $laws))
  AND ($as_of IS NULL OR ((node.search_from IS NULL OR node.search_from <= $as_of)
                          AND (node.search_until IS NULL OR $as_of < node.search_until)))
RETURN node.uid AS uid, 2 * score - 1 AS score
LIMIT $k
