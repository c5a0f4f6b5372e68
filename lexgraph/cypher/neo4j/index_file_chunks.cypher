// A kept file's bytes, chunks $first to $last of the content $sha256, in order: a fetch reads a few at a time so
// that its memory does not grow with the file.
MATCH (c:IndexFileChunk {name: $name, sha256: $sha256})
WHERE $first <= c.seq <= $last
RETURN c.seq AS seq, c.data AS data
ORDER BY seq
