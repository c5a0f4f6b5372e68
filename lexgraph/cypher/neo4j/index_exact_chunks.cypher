// Exact cosine search over the chunks a filter allows: used when the filter is too narrow for the HNSW index.
MATCH (node:Chunk)
WHERE node.embedding IS NOT NULL
  AND (size($laws) = 0 OR any(law IN node.search_laws WHERE law IN $laws))
  AND ($as_of IS NULL OR ((node.search_from IS NULL OR node.search_from <= $as_of)
                          AND (node.search_until IS NULL OR $as_of < node.search_until)))
WITH node, vector.similarity.cosine(node.embedding, $vector) AS similarity
RETURN node.uid AS uid, 2 * similarity - 1 AS score
ORDER BY score DESC, uid
LIMIT $k
