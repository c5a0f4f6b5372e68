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
RETURN node.uid AS uid, score
ORDER BY score DESC, uid
LIMIT $k
