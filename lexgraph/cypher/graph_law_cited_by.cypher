// Neighbourhood view (lexgraph graph): the clauses citing a law as a whole (named with its number, no clause), with
// their validity, so that the caller can keep those in force on a day and fold them into their articles.
MATCH (t:Law {law_id: $law_id})<-[:CITES]-(p:Provision)
RETURN p.law_id AS law_id, p.path AS path, p.valid_from AS valid_from, p.valid_until AS valid_until
