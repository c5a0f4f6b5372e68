MERGE (p:IndexPart {name: $name})
SET p.fingerprint = $fingerprint, p.rows = $rows, p.built_at = $built_at, p.embedder = $embedder,
    p.tokenizer = $tokenizer, p.dim = $dim, p.suppl_vectors = $suppl_vectors,
    // a law's part: its term counts, for the law-level evidence of the hybrid search (null for the chunks' part)
    p.terms = $terms, p.term_counts = $term_counts, p.token_count = $token_count
