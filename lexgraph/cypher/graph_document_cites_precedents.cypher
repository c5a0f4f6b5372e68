// Neighbourhood view (lexgraph graph): the precedents (stubs included) a book or guideline's chunks cite, with how
// many chunks cite each.
MATCH (o:Document {uid: $uid})<-[:PART_OF]-(c:Chunk)-[r:CITES]->(p:Precedent)
RETURN p.uid AS uid, p.date AS date, count(r) AS count
