// What each index part was built from (its fingerprint), with which embedder and tokenizer, and whether its 附則
// clauses have vectors (null: a part written before that was recorded, which has them).
MATCH (p:IndexPart)
RETURN p.name AS name, p.fingerprint AS fingerprint, p.rows AS rows, p.built_at AS built_at,
       p.embedder AS embedder, p.tokenizer AS tokenizer, p.dim AS dim, p.suppl_vectors AS suppl_vectors
ORDER BY name
