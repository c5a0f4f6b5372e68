// Honest periods (docs/statutes.md): LawVersion gains known_until (DATE), gap and amendments (JSON
// strings) and parser (INTEGER), as in migrations/embedded/V007__honest_periods.cypher. Neo4j needs no DDL for
// new properties; this file keeps the two migration histories in step. Versions stored before it have none of
// these properties until their law is re-ingested (`lexgraph doctor` says which).
