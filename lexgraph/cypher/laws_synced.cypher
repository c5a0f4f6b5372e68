// The laws `lexgraph sync` keeps current from e-Gov's revision lists, with the day of their last successful sync.
MATCH (l:Law)
WHERE l.synced_on IS NOT NULL
RETURN l.law_id AS law_id, l.synced_on AS synced_on
ORDER BY l.law_id
