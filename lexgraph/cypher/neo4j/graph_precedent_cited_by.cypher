// Neighbourhood view (lexgraph graph): the precedents, books and guidelines whose chunks cite a precedent, with
// how many chunks do.
MATCH (p:Precedent {uid: $uid})<-[r:CITES]-(c:Chunk)-[:PART_OF]->(o)
WHERE o:Precedent OR o:Document
RETURN CASE WHEN o:Precedent THEN 'Precedent' ELSE 'Document' END AS label, o.uid AS uid, o.date AS date,
       count(r) AS count
