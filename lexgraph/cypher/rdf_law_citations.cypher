// `lexgraph export rdf --law / --all`: the cross-references leaving one law's wordings (see rdf_law_wordings).
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(p:Provision)-[:CITES]->(t:Provision)
RETURN DISTINCT p.path AS path, p.valid_from AS valid_from, t.law_id AS to_law_id, t.path AS to_path,
       t.valid_from AS to_valid_from
ORDER BY path, valid_from, to_law_id, to_path, to_valid_from
