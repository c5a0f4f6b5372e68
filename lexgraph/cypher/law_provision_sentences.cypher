// The sentences of every clause node of one law, for reading its citations (linking).
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(p:Provision)
RETURN DISTINCT p.uid AS uid, p.kind AS kind, p.sentences AS sentences
