// The precedents a precedent's chunks cite (stubs are decisions not stored yet).
MATCH (c:Chunk {owner_uid: $uid})-[r:CITES]->(p:Precedent)
RETURN p.uid AS uid, p.court AS court, p.date AS date, p.decision_type AS decision_type,
       p.case_number AS case_number, p.stub AS stub, count(r) AS chunks, min(r.surface) AS surface
ORDER BY date
