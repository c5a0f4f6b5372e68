// Indexed laws' term counts (`lexgraph.index.law_terms`): each part's terms, their counts and its token count; the
// parts named in $names, or every law's part when $names is null (to sum them into the collection's).
MATCH (p:IndexPart)
WHERE p.terms IS NOT NULL AND ($names IS NULL OR p.name IN $names)
RETURN p.name AS name, p.token_count AS token_count, p.terms AS terms, p.term_counts AS term_counts
ORDER BY name
