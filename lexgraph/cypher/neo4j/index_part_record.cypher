MERGE (p:IndexPart {name: $name})
SET p.fingerprint = $fingerprint, p.rows = $rows, p.built_at = $built_at, p.embedder = $embedder,
    p.tokenizer = $tokenizer, p.dim = $dim
