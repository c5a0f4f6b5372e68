// One precedent (or stub) by its key.
MATCH (p:Precedent {uid: $uid})
RETURN p.uid AS uid, p.court AS court, p.date AS date, p.decision_type AS decision_type,
       p.case_number AS case_number, p.case_name AS case_name, p.reporter AS reporter, p.holdings AS holdings,
       p.summary AS summary, p.referenced AS referenced, p.source AS source, p.stub AS stub, p.problems AS problems
