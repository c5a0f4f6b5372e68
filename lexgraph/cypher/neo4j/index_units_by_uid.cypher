// The indexed units behind some hits, as their search entries hold them.
MATCH (node:ProvisionSearch)
WHERE node.uid IN $uids
RETURN node.uid AS uid, node.unit_label AS label, node.part AS part, node.law_id AS law_id, node.laws AS laws,
       node.path AS path, node.name AS title, node.text AS text, node.owner_uid AS owner_uid,
       node.owner_kind AS owner_kind, node.valid_from AS valid_from, node.valid_until AS valid_until
UNION ALL
MATCH (node:ChunkSearch)
WHERE node.uid IN $uids
RETURN node.uid AS uid, node.unit_label AS label, node.part AS part, node.law_id AS law_id, node.laws AS laws,
       node.path AS path, node.name AS title, node.text AS text, node.owner_uid AS owner_uid,
       node.owner_kind AS owner_kind, node.valid_from AS valid_from, node.valid_until AS valid_until
