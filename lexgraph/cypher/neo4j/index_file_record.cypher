// A kept file's record, switched to the content whose chunks were all written: the one write that makes a new
// file the one searches read.
MERGE (f:IndexFile {name: $name})
SET f.sha256 = $sha256, f.size = $size, f.chunks = $chunks, f.format = $format, f.tokenizer = $tokenizer,
    f.graph = $graph, f.written_at = $written_at
