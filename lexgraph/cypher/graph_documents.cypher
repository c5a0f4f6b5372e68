// Neighbourhood view (lexgraph graph): some books, guidelines and other documents by uid, to caption them.
MATCH (d:Document)
WHERE d.uid IN $uids
RETURN d.uid AS uid, d.kind AS kind, d.title AS title, d.date AS date, d.source AS source
