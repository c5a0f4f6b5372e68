// Approximate nearest units by one of the vector indexes (provision_embedding, chunk_embedding: names from the
// code, never from user text), over-fetched ($fetch > $k) so that the filter can run inside the ranking; the
// caller widens $fetch, then falls back to the exact query, when fewer than $k pass. The index's scores are the
// exact cosine (it does not quantize: `ensure_vector_indexes`); equal scores are ordered by uid, as in the
// embedded backend.
CALL db.index.vector.queryNodes($index, $fetch, $vector) YIELD node, score AS similarity
WHERE (size($laws) = 0 OR any(law IN node.laws WHERE law IN $laws))
  AND ($as_of IS NULL OR ((node.valid_from IS NULL OR node.valid_from <= $as_of)
                          AND (node.valid_until IS NULL OR $as_of < node.valid_until)))
WITH node, 2 * similarity - 1 AS score
RETURN node.uid AS uid, score, node.unit_label AS label, node.part AS part, node.law_id AS law_id, node.laws AS laws,
       node.path AS path, node.name AS title, node.text AS text, node.owner_uid AS owner_uid,
       node.owner_kind AS owner_kind, node.valid_from AS valid_from, node.valid_until AS valid_until
ORDER BY score DESC, uid
LIMIT $k
