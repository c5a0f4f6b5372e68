// The files derived from the graph that this database keeps for its search (the anchor field's), one row each:
// what a search checks before it reads their chunks (`index.neo4j_files`).
MATCH (f:IndexFile)
RETURN f.name AS name, f.sha256 AS sha256, f.size AS size, f.chunks AS chunks, f.format AS format,
       f.tokenizer AS tokenizer, f.graph AS graph
ORDER BY name
