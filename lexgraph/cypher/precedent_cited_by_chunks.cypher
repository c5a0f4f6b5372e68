// The chunks citing one precedent, with the edge properties: moved onto the full node when a stub is filled in.
MATCH (c:Chunk)-[r:CITES]->(p:Precedent {uid: $uid})
RETURN c.uid AS from_uid, r.surface AS surface, r.char_start AS char_start, r.char_end AS char_end,
       r.part AS part, r.status AS status, r.extractor AS extractor, r.mentions AS mentions
