// Precedents with a case number among theirs (a judgment may decide several joined cases: 「…第44号、…第45号」).
MATCH (p:Precedent)
WHERE p.case_number = $case_number OR p.case_number CONTAINS $case_number
RETURN p.uid AS uid, p.court AS court, p.date AS date, p.decision_type AS decision_type,
       p.case_number AS case_number, p.case_name AS case_name, p.reporter AS reporter, p.holdings AS holdings,
       p.summary AS summary, p.referenced AS referenced, p.source AS source, p.stub AS stub, p.problems AS problems
