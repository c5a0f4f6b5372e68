// Take a part's provisions out of the search indexes before the part is rebuilt: their search entries go.
MATCH (s:ProvisionSearch {part: $part})
DETACH DELETE s
