// The stored versions of some laws, to decide whether an incoming file is new, a re-run or a conflict.
MATCH (v:LawVersion)
WHERE v.law_id IN $law_ids
RETURN v.law_id AS law_id, v.revision_id AS revision_id, v.enforced_from AS enforced_from,
       v.enforced_until AS enforced_until, v.amended_by AS amended_by, v.source AS source,
       v.dated_by AS dated_by, v.known_in_force_on AS known_in_force_on, v.known_until AS known_until,
       v.gap AS gap, v.amendments AS amendments, v.parser AS parser, v.scheduled AS scheduled, v.content_hash AS content_hash,
       v.xml_format AS xml_format, v.title AS title
ORDER BY law_id, enforced_from
