// Versions with no clauses, or with no law node: left behind by an interrupted write (should be none). A revision
// e-Gov lists with its day left open (scheduled, no day) has no clauses by design: its text waits for its day.
MATCH (v:LawVersion)
WHERE (NOT EXISTS { MATCH (v)-[:CONTAINS]->(:Provision) }
       AND NOT (coalesce(v.scheduled, false) AND v.enforced_from IS NULL))
   OR NOT EXISTS { MATCH (:Law)-[:HAS_VERSION]->(v) }
RETURN v.revision_id AS revision_id LIMIT 20
