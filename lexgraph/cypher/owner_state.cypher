// What the store holds of one precedent or document: its content hash and whether it is a stub, so that an
// ingest can tell unchanged from new from changed.
OPTIONAL MATCH (p:Precedent {uid: $uid})
OPTIONAL MATCH (d:Document {uid: $uid})
RETURN p.content_hash AS precedent_hash, p.stub AS stub, d.content_hash AS document_hash
