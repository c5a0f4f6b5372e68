// Every indexed law's term counts summed (`lexgraph.index.law_terms`): the background of the law-level evidence.
MATCH (c:IndexTerms {name: 'laws'})
RETURN c.token_count AS token_count, c.terms AS terms, c.term_counts AS term_counts
