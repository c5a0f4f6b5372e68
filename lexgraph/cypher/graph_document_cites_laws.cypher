// Neighbourhood view (lexgraph graph): the laws a book or guideline's chunks cite as a whole (named with their
// number, no clause), with how many chunks cite each.
MATCH (o:Document {uid: $uid})<-[:PART_OF]-(c:Chunk)-[r:CITES]->(t:Law)
RETURN t.law_id AS law_id, count(r) AS count
