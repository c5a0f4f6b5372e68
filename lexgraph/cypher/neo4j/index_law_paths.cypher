// The uid, path and period of every indexed clause of one law: the learned fusion counts a law's articles and
// lists an article's clauses from them, as from the embedded index's path column.
MATCH (node:ProvisionSearch {law_id: $law_id})
RETURN node.uid AS uid, node.path AS path, node.valid_from AS valid_from, node.valid_until AS valid_until
