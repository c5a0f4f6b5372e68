// The chunks of a kept file's content, their sequence numbers and sizes, not their bytes: what `lexgraph doctor`
// checks the database's copy by without fetching it.
MATCH (c:IndexFileChunk {name: $name, sha256: $sha256})
RETURN c.seq AS seq, size(c.data) AS size
ORDER BY seq
