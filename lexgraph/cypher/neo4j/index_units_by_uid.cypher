// The indexed units behind some hits, as their search entries hold them; a chunk with what it cites (`cites`, as
// chunks_citations reads it: the search's evidence needs no read of its own for it), a clause with null.
MATCH (node:ProvisionSearch)
WHERE node.uid IN $uids
RETURN node.uid AS uid, node.unit_label AS label, node.part AS part, node.law_id AS law_id, node.laws AS laws,
       node.path AS path, node.name AS title, node.text AS text, node.owner_uid AS owner_uid,
       node.owner_kind AS owner_kind, node.valid_from AS valid_from, node.valid_until AS valid_until,
       null AS cites
UNION ALL
MATCH (node:ChunkSearch)
WHERE node.uid IN $uids
RETURN node.uid AS uid, node.unit_label AS label, node.part AS part, node.law_id AS law_id, node.laws AS laws,
       node.path AS path, node.name AS title, node.text AS text, node.owner_uid AS owner_uid,
       node.owner_kind AS owner_kind, node.valid_from AS valid_from, node.valid_until AS valid_until,
       [(node)<-[:INDEXED_AS]-(:Chunk)-[:CITES]->(t) WHERE t:Provision OR t:Precedent |
        CASE WHEN t:Provision THEN [t.uid, 'Provision', t.law_id, t.path] ELSE [t.uid, 'Precedent', '', ''] END] AS cites
