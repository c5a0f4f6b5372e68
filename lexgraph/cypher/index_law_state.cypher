// What an index part of a law is derived from: the law's title and stored versions. A new version (or a changed
// title) makes the part stale, and so does a new known_until (a clause's period ends earlier).
MATCH (l:Law)-[:HAS_VERSION]->(v:LawVersion)
RETURN l.law_id AS law_id, l.title AS title, v.revision_id AS revision_id, v.content_hash AS content_hash,
       v.known_until AS known_until
ORDER BY law_id, revision_id
