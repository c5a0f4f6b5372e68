// Precedents by their case name (事件名, from the judgment's header or the metadata): 原状回復等請求事件.
MATCH (p:Precedent)
WHERE p.case_name IN $case_names
RETURN p.uid AS uid, p.court AS court, p.date AS date, p.decision_type AS decision_type,
       p.case_number AS case_number, p.case_name AS case_name, p.reporter AS reporter, p.holdings AS holdings,
       p.summary AS summary, p.referenced AS referenced, p.source AS source, p.stub AS stub, p.problems AS problems
