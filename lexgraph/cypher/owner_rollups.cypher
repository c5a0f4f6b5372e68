// The document-level edges of one precedent or document, replaced with its chunks. (LadybugDB reads
// `o:Precedent:Document` as either label; Neo4j's version is in cypher/neo4j/.)
MATCH (o:Precedent:Document {uid: $uid})-[r:CITES_ARTICLE|REFERS_TO]->(t:Provision)
RETURN label(o) AS owner_label, label(r) AS rel_type, t.uid AS to_uid
