// What each index part was built from (its fingerprint), with which embedder and tokenizer.
MATCH (p:IndexPart)
RETURN p.name AS name, p.fingerprint AS fingerprint, p.rows AS rows, p.built_at AS built_at,
       p.embedder AS embedder, p.tokenizer AS tokenizer, p.dim AS dim
ORDER BY name
