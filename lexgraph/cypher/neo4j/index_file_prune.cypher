// The chunks of a kept file that its record no longer points at (the content written before, or a write killed
// before its record was switched).
MATCH (c:IndexFileChunk {name: $name})
WHERE c.sha256 <> $sha256
DELETE c
