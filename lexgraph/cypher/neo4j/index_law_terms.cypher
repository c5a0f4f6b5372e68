// Some indexed laws' term counts (`lexgraph.index.law_terms`): each part's terms, their counts and its token count.
MATCH (p:IndexPart)
WHERE p.name IN $names AND p.terms IS NOT NULL
RETURN p.name AS name, p.token_count AS token_count, p.terms AS terms, p.term_counts AS term_counts
ORDER BY name
