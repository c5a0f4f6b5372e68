// The indexed units of one clause (an article's paragraphs, or one paragraph) that pass the filter: what a
// question's own citations retrieve.
MATCH (n:Provision {law_id: $law_id})
WHERE n.index_key IS NOT NULL AND (n.path = $path OR n.path STARTS WITH $prefix)
  AND ($as_of IS NULL OR ((n.search_from IS NULL OR n.search_from <= $as_of)
                          AND (n.search_until IS NULL OR $as_of < n.search_until)))
RETURN n.uid AS uid, 'Provision' AS label, n.search_part AS part, n.law_id AS law_id, n.search_laws AS laws,
       n.path AS path, n.search_title AS title, n.text AS text, n.search_owner AS owner_uid,
       n.search_owner_kind AS owner_kind, n.search_from AS valid_from, n.search_until AS valid_until
