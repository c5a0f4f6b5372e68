// The chunks of one precedent or document (replaced when its text changes).
MATCH (c:Chunk {owner_uid: $uid})
RETURN c.uid AS uid
