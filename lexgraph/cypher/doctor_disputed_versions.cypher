// Versions whose gap holds an amendment the sources disagree about: the stored 附則 name it in force, the law's
// e-Gov revision list has no revision for it (`lexgraph sync` records both in the gap's `conflict`). The days
// concerned are read as unknown until a later sync or a file of that revision settles it.
MATCH (v:LawVersion)
WHERE v.gap CONTAINS $marker
RETURN v.law_id AS law_id, v.revision_id AS revision_id, v.gap AS gap
ORDER BY law_id, revision_id LIMIT 20
