// Neighbourhood view (lexgraph graph): the articles a book or guideline cites (CITES_ARTICLE, with the number of
// citations of its chunks).
MATCH (o:Document {uid: $uid})-[r:CITES_ARTICLE]->(t:Provision)
RETURN 'CITES_ARTICLE' AS rel, t.law_id AS law_id, t.path AS path, r.count AS count
