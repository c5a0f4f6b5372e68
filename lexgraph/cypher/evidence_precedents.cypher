// The precedents selected as evidence, as a search shows them.
UNWIND $uids AS precedent_uid
MATCH (p:Precedent {uid: precedent_uid})
RETURN p.uid AS uid, p.court AS court, p.date AS date, p.case_number AS case_number, p.case_name AS case_name,
       p.reporter AS reporter, p.summary AS summary, p.stub AS stub
