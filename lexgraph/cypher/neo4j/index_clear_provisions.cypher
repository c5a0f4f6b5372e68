// Take a part's provisions out of the search indexes before the part is rebuilt.
MATCH (n:Provision {search_part: $part})
REMOVE n.tokens, n.embedding, n.search_title, n.search_laws, n.search_part, n.search_owner, n.search_owner_kind,
       n.search_from, n.search_until, n.index_key
