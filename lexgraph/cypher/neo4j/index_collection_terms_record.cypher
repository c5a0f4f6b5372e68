// Every indexed law's term counts summed, written after each refresh that changed a part.
MERGE (c:IndexTerms {name: 'laws'})
SET c.token_count = $token_count, c.terms = $terms, c.term_counts = $term_counts
