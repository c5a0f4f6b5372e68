// Versions with no clauses, or with no law node: left behind by an interrupted write (should be none).
MATCH (v:LawVersion)
WHERE NOT EXISTS { MATCH (v)-[:CONTAINS]->(:Provision) } OR NOT EXISTS { MATCH (:Law)-[:HAS_VERSION]->(v) }
RETURN v.revision_id AS revision_id LIMIT 20
