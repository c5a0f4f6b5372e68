// The unit's fields come with each hit (as index_units_by_uid reads them): one round trip, not two (issue 34).
// BM25 over the tokens, filtered inside the ranking: the full-text index yields matches best first and the
// WHERE keeps only the allowed ones. Equal scores are ordered by uid, as in the embedded backend: the best
// $k + 50 are read (the margin orders a tie across the k-th place too), then sorted.
CALL db.index.fulltext.queryNodes('lexgraph_tokens', $lucene) YIELD node, score
WHERE ($label IS NULL OR $label IN labels(node))
  AND (size($laws) = 0 OR any(law IN node.search_laws WHERE law IN $laws))
  AND ($as_of IS NULL OR ((node.search_from IS NULL OR node.search_from <= $as_of)
                          AND (node.search_until IS NULL OR $as_of < node.search_until)))
WITH node, score
LIMIT $k + 50
RETURN node.uid AS uid, score,
       CASE WHEN node:Chunk THEN 'Chunk' ELSE 'Provision' END AS label, node.search_part AS part,
       CASE WHEN node:Chunk THEN '' ELSE node.law_id END AS law_id, node.search_laws AS laws,
       CASE WHEN node:Chunk THEN coalesce(node.section, '') ELSE node.path END AS path, node.search_title AS title,
       node.text AS text, node.search_owner AS owner_uid, node.search_owner_kind AS owner_kind,
       node.search_from AS valid_from, node.search_until AS valid_until
ORDER BY score DESC, uid
LIMIT $k
