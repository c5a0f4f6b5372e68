// The title each stored version of a law bore, with the day it took effect, for the former titles of
// renamed laws: a title that a later version no longer bears was the law's name until that version's day.
MATCH (l:Law)-[:HAS_VERSION]->(v:LawVersion)
WHERE v.title IS NOT NULL AND v.title <> ''
RETURN l.law_id AS law_id, l.title AS law_title, v.title AS title, v.enforced_from AS enforced_from
ORDER BY law_id, enforced_from
