// Laws whose clauses cite one of $law_ids (stored or not when they were linked): when one of those laws gains a
// version, its clause nodes change and the citing laws must be linked again.
UNWIND $law_ids AS cited
MATCH (l:Law)
WHERE cited IN l.cited_laws
RETURN DISTINCT l.law_id AS law_id
