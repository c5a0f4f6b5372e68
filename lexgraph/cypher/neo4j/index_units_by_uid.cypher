// The indexed units behind some hits, as the index shows them.
MATCH (n:Provision)
WHERE n.uid IN $uids AND n.index_key IS NOT NULL
RETURN n.uid AS uid, 'Provision' AS label, n.search_part AS part, n.law_id AS law_id, n.search_laws AS laws,
       n.path AS path, n.search_title AS title, n.text AS text, n.search_owner AS owner_uid,
       n.search_owner_kind AS owner_kind, n.search_from AS valid_from, n.search_until AS valid_until
UNION ALL
MATCH (n:Chunk)
WHERE n.uid IN $uids AND n.index_key IS NOT NULL
RETURN n.uid AS uid, 'Chunk' AS label, n.search_part AS part, '' AS law_id, n.search_laws AS laws,
       coalesce(n.section, '') AS path, n.search_title AS title, n.text AS text, n.search_owner AS owner_uid,
       n.search_owner_kind AS owner_kind, n.search_from AS valid_from, n.search_until AS valid_until
