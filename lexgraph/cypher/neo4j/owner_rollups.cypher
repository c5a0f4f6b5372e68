// The document-level edges of one precedent or document, replaced with its chunks. The owner is found by label
// and key (a unique-constraint seek on Precedent.uid, then on Document.uid), never by a scan of every node.
CALL {
  MATCH (o:Precedent {uid: $uid}) RETURN o, 'Precedent' AS owner_label
  UNION
  MATCH (o:Document {uid: $uid}) RETURN o, 'Document' AS owner_label
}
MATCH (o)-[r:CITES_ARTICLE|REFERS_TO]->(t:Provision)
RETURN owner_label, type(r) AS rel_type, t.uid AS to_uid
