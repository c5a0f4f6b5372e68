"""Parsed values into the store: e-Gov statutes (`statutes`), the clauses' cross-references (`crossrefs`),
judgments, books and guidelines (`documents`) and the edges of what they cite (`linking`).

The parsing lives below, in `statutes/`, `citations/` and `documents/`, which never touch a database; this package
is where parsing meets the store, and the only one that writes domain nodes to it."""
