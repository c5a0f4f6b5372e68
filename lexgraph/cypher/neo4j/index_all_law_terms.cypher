// Every indexed law's term counts, to sum them into the collection's (`index_collection_terms_record`).
MATCH (p:IndexPart)
WHERE p.terms IS NOT NULL
RETURN p.name AS name, p.token_count AS token_count, p.terms AS terms, p.term_counts AS term_counts
