// The vector indexes and their dimensions: `lexgraph index` rebuilds one whose dimensions are not the embedder's,
// and `lexgraph doctor` reports the mismatch (a vector of another length is left out of the index).
SHOW VECTOR INDEXES YIELD name, labelsOrTypes, properties, options, state
RETURN name, labelsOrTypes AS labels, properties, options.indexConfig['vector.dimensions'] AS dimensions, state
ORDER BY name
