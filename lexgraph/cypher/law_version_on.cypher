// The version of a law in force on a day (a scheduled version whose day e-Gov leaves open is in force on none).
MATCH (v:LawVersion {law_id: $law_id})
WHERE (v.enforced_from IS NULL OR v.enforced_from <= $day) AND (v.enforced_until IS NULL OR v.enforced_until > $day)
  AND NOT (coalesce(v.scheduled, false) AND v.enforced_from IS NULL)
RETURN v.revision_id AS revision_id, v.law_id AS law_id, v.enforced_from AS enforced_from,
       v.enforced_until AS enforced_until, v.amended_by AS amended_by, v.source AS source,
       v.dated_by AS dated_by, v.known_in_force_on AS known_in_force_on, v.known_until AS known_until,
       v.gap AS gap, v.amendments AS amendments, v.parser AS parser, v.scheduled AS scheduled
