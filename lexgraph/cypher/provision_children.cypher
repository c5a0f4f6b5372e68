// The direct parts of one clause node (article → paragraphs → items).
MATCH (a:Provision {uid: $uid})-[:HAS_PART]->(b:Provision)
RETURN b.uid AS uid, b.path AS path, b.kind AS kind, b.title AS title, b.text AS text, b.seq AS seq
ORDER BY b.seq
