// One chunk of a kept file's bytes, under the hash of the whole content: written before the file's record points
// at that hash, so a search never reads a file half-written.
MERGE (c:IndexFileChunk {name: $name, sha256: $sha256, seq: $seq})
SET c.data = $data
