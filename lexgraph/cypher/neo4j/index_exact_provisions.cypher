// Exact cosine search over the provisions' search entries a filter allows: used when the filter is too narrow for the
// HNSW index. The unit's fields come with each hit (one round trip, not two).
MATCH (node:ProvisionSearch)
WHERE node.embedding IS NOT NULL
  AND (size($laws) = 0 OR any(law IN node.laws WHERE law IN $laws))
  AND ($as_of IS NULL OR ((node.valid_from IS NULL OR node.valid_from <= $as_of)
                          AND (node.valid_until IS NULL OR $as_of < node.valid_until)))
WITH node, 2 * vector.similarity.cosine(node.embedding, $vector) - 1 AS score
RETURN node.uid AS uid, score, node.unit_label AS label, node.part AS part, node.law_id AS law_id, node.laws AS laws,
       node.path AS path, node.name AS title, node.text AS text, node.owner_uid AS owner_uid,
       node.owner_kind AS owner_kind, node.valid_from AS valid_from, node.valid_until AS valid_until
ORDER BY score DESC, uid
LIMIT $k
