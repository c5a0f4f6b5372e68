// Neighbourhood view (lexgraph graph): some precedents (stubs included) by uid, to caption them.
MATCH (p:Precedent)
WHERE p.uid IN $uids
RETURN p.uid AS uid, p.court AS court, p.date AS date, p.decision_type AS decision_type,
       p.case_number AS case_number, p.case_name AS case_name, p.reporter AS reporter, p.stub AS stub
