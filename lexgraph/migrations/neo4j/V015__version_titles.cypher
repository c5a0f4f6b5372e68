// The title of each version of a law: LawVersion gains title (STRING), as in
// migrations/embedded/V015__version_titles.cypher. Neo4j needs no DDL for new properties; this file keeps the two
// migration histories in step. Versions stored before it have none until their law is synced or ingested again.
