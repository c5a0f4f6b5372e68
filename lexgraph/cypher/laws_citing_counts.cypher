// How many other laws' clauses cite each law (Law.cited_laws lists the laws a law's clauses cite, set when its
// citations are linked): the citation prior of the hybrid search's law-level evidence. A law no other law cites
// has no row.
MATCH (l:Law)
UNWIND l.cited_laws AS cited
WITH cited, l
WHERE cited <> l.law_id
RETURN cited AS law_id, count(DISTINCT l.law_id) AS citing
