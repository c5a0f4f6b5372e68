// The indexed units of one clause (an article's paragraphs, or one paragraph) that pass the filter: what a
// question's own citations retrieve.
MATCH (node:ProvisionSearch {law_id: $law_id})
WHERE (node.path = $path OR node.path STARTS WITH $prefix)
  AND ($as_of IS NULL OR ((node.valid_from IS NULL OR node.valid_from <= $as_of)
                          AND (node.valid_until IS NULL OR $as_of < node.valid_until)))
RETURN node.uid AS uid, node.unit_label AS label, node.part AS part, node.law_id AS law_id, node.laws AS laws,
       node.path AS path, node.name AS title, node.text AS text, node.owner_uid AS owner_uid,
       node.owner_kind AS owner_kind, node.valid_from AS valid_from, node.valid_until AS valid_until
