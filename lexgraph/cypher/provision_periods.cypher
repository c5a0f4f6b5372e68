// Every period in which one clause had a text (to tell "never existed" from "not in force then").
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(p:Provision {path: $path})
RETURN DISTINCT p.uid AS uid, p.valid_from AS valid_from, p.valid_until AS valid_until
ORDER BY valid_from
