// The NEXT chain between the versions of one law.
MATCH (a:LawVersion {law_id: $law_id})-[:NEXT]->(b:LawVersion)
RETURN a.revision_id AS earlier, b.revision_id AS later
