// Neo4j: the composite index on (law_id, path) finds the clause directly. Every period in which one clause had a text (to tell "never existed" from "not in force then").
MATCH (p:Provision {law_id: $law_id})
WHERE p.path = $path
RETURN p.uid AS uid, p.valid_from AS valid_from, p.valid_until AS valid_until
ORDER BY valid_from
