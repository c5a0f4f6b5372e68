// The document-level edges of one precedent or document, replaced with its chunks.
MATCH (o {uid: $uid})-[r:CITES_ARTICLE|REFERS_TO]->(t:Provision)
WHERE o:Precedent OR o:Document
RETURN labels(o)[0] AS owner_label, type(r) AS rel_type, t.uid AS to_uid
