// How many other laws' clauses cite each law (Law.cited_laws lists, once each, the laws a law's clauses cite, set
// when its citations are linked): the citation prior of the hybrid search's law-level evidence. A law no other
// law cites has no row. count(*), not count(DISTINCT): the lists hold no repeats, and DISTINCT doubled the time.
MATCH (l:Law)
UNWIND l.cited_laws AS cited
WITH cited, l
WHERE cited <> l.law_id
RETURN cited AS law_id, count(*) AS citing
