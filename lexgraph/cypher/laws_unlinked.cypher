// Laws whose clauses were never linked (an ingest stopped before linking, or ran with --no-link).
MATCH (l:Law)
WHERE l.cited_laws IS NULL
RETURN l.law_id AS law_id
ORDER BY law_id
