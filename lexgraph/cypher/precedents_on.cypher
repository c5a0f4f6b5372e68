// The precedents (stubs included) decided on one day: the candidates a precedent citation can mean.
MATCH (p:Precedent)
WHERE p.date = $day
RETURN p.uid AS uid, p.court AS court, p.decision_type AS decision_type, p.case_number AS case_number,
       p.stub AS stub
