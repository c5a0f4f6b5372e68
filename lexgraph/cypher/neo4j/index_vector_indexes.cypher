// The vector indexes and their dimensions: `lexgraph index` rebuilds one whose dimensions are not the embedder's,
// and `lexgraph doctor` reports the mismatch (a vector of another length is left out of the index); one that
// quantizes its vectors (Neo4j 5.23+'s default) is made again without, so that its scores are exact.
SHOW VECTOR INDEXES YIELD name, labelsOrTypes, properties, options, state
RETURN name, labelsOrTypes AS labels, properties, options.indexConfig['vector.dimensions'] AS dimensions, state,
       options.indexConfig['vector.quantization.enabled'] AS quantized
ORDER BY name
