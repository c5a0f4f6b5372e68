// Neighbourhood view (lexgraph graph): the precedents, books and guidelines whose chunks cite a precedent, with
// how many chunks do. LadybugDB reads `o:Precedent:Document` as either label; Neo4j's version is in cypher/neo4j/.
MATCH (p:Precedent {uid: $uid})<-[r:CITES]-(c:Chunk)-[:PART_OF]->(o:Precedent:Document)
RETURN label(o) AS label, o.uid AS uid, o.date AS date, count(r) AS count
