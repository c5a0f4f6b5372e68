// Two versions of one law in force on the same day: the timeline is inconsistent (should be none). Each version
// is paired only with the later versions of its own law (an index seek on LawVersion.law_id), not with every
// version in the store; the hint keeps the planner from the range seek on revision_id, which reads half the store
// for each version.
MATCH (a:LawVersion)
WHERE a.enforced_from IS NOT NULL
MATCH (b:LawVersion {law_id: a.law_id})
USING INDEX b:LawVersion(law_id)
WHERE a.revision_id < b.revision_id AND b.enforced_from IS NOT NULL
  AND a.enforced_from < coalesce(b.enforced_until, date('9999-12-31'))
  AND b.enforced_from < coalesce(a.enforced_until, date('9999-12-31'))
RETURN a.revision_id AS first, b.revision_id AS second
ORDER BY first, second
LIMIT 20
