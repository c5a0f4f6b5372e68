// Take a part's chunks out of the search indexes before the part is rebuilt: their search entries go.
MATCH (s:ChunkSearch {part: $part})
DETACH DELETE s
