// One clause node by its uid, with its text and period: the wording the in-force decision chose (read/in_force.py).
MATCH (p:Provision {uid: $uid})
RETURN p.uid AS uid, p.path AS path, p.kind AS kind, p.num AS num, p.title AS title, p.caption AS caption,
       p.heading AS heading, p.text AS text, p.sentences AS sentences, p.seq AS seq,
       p.valid_from AS valid_from, p.valid_until AS valid_until, p.content_hash AS content_hash
