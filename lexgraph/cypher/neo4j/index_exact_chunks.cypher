// The unit's fields come with each hit (as index_units_by_uid reads them): one round trip, not two (issue 34).
// Exact cosine search over the chunks a filter allows: used when the filter is too narrow for the HNSW index.
MATCH (node:Chunk)
WHERE node.embedding IS NOT NULL
  AND (size($laws) = 0 OR any(law IN node.search_laws WHERE law IN $laws))
  AND ($as_of IS NULL OR ((node.search_from IS NULL OR node.search_from <= $as_of)
                          AND (node.search_until IS NULL OR $as_of < node.search_until)))
WITH node, vector.similarity.cosine(node.embedding, $vector) AS similarity
RETURN node.uid AS uid, 2 * similarity - 1 AS score,
       CASE WHEN node:Chunk THEN 'Chunk' ELSE 'Provision' END AS label, node.search_part AS part,
       CASE WHEN node:Chunk THEN '' ELSE node.law_id END AS law_id, node.search_laws AS laws,
       CASE WHEN node:Chunk THEN coalesce(node.section, '') ELSE node.path END AS path, node.search_title AS title,
       node.text AS text, node.search_owner AS owner_uid, node.search_owner_kind AS owner_kind,
       node.search_from AS valid_from, node.search_until AS valid_until
ORDER BY score DESC, uid
LIMIT $k
