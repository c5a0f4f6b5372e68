// Each indexed law's term counts (`lexgraph.index.law_terms`): its part's terms, their counts and its token count.
MATCH (p:IndexPart)
WHERE p.terms IS NOT NULL
RETURN p.name AS name, p.token_count AS token_count, p.terms AS terms, p.term_counts AS term_counts
ORDER BY name
