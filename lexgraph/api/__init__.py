"""One door per job: the facades a `LexGraph` hands out, one class a module, sharing one `Session`.

Each facade owns one capability and everything it needs to do it (its settings, the refusals of bad input, the
parts of the session it reads), so that a change a user sees is made in one file:

    Reading     laws, clauses as of a day, cross-references, versions, diffs, precedents, citing documents
    Ingesting   laws, judgments and literature into the store; cross-references linked
    Syncing     laws brought up to e-Gov's revision lists
    Citing      citations in a text, resolved as of a day
    Indexing    the search index: built, refreshed, examined; the embedders
    Searching   ranked clauses and chunks, the retrievers, the queries outside clients of the indexes run
    Answering   answers with citations, the knowledge interview, the turn log
    Evaluating  retrieval, answers, multi-agent methods, the papers' experiments
    Graphing    the neighbourhood of a node, RDF
    Storing     counts, doctor, read-only Cypher, the schema, copies

This package sits below `lexgraph.client` (which builds the session and the facades) and above every package the
facades use; it is imported as a whole by nothing light (each facade imports its engines when a method runs).
"""

from __future__ import annotations
