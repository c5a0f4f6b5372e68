// The clauses selected as evidence, with their law's title, as a search shows them.
UNWIND $uids AS provision_uid
MATCH (p:Provision {uid: provision_uid})
MATCH (l:Law {law_id: p.law_id})
RETURN p.uid AS uid, l.title AS law_title, p.law_id AS law_id, p.path AS path, p.kind AS kind, p.title AS title,
       p.caption AS caption, p.text AS text, p.valid_from AS valid_from, p.valid_until AS valid_until
