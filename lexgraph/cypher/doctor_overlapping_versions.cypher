// Two versions of one law in force on the same day: the timeline is inconsistent (should be none).
MATCH (a:LawVersion), (b:LawVersion)
WHERE a.law_id = b.law_id AND a.revision_id < b.revision_id
  AND a.enforced_from IS NOT NULL AND b.enforced_from IS NOT NULL
  AND a.enforced_from < coalesce(b.enforced_until, date('9999-12-31'))
  AND b.enforced_from < coalesce(a.enforced_until, date('9999-12-31'))
RETURN a.revision_id AS first, b.revision_id AS second LIMIT 20
