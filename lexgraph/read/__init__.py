"""Reading the stored graph by domain: a law and its clauses as of a date, diffs and cross-references (`laws`),
precedents and the documents citing a clause (`documents`), and the versions citations resolve against
(`revisions`). Above `store/` (it queries it through the contract) and below `ingest/`, `graph/` and the client."""
