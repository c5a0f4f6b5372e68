// Neighbourhood view (lexgraph graph): the statute cross-references leaving one wording ($uid, a key from
// clause_wordings_all: any wording of an article or of a clause inside it), with the validity of both ends, so that
// the caller can keep those in force on a day and fold the cited clauses into their articles. Read from the
// wording by its key, so that memory is bounded by its own citations.
MATCH (p:Provision {uid: $uid})-[:CITES]->(t:Provision)
RETURN p.path AS near_path, p.valid_from AS near_from, p.valid_until AS near_until, t.law_id AS law_id,
       t.path AS path, t.valid_from AS valid_from, t.valid_until AS valid_until
