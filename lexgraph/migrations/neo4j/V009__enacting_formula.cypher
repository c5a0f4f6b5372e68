// The enacting formula of an ordinance: Law gains enact_statement (STRING), as in
// migrations/embedded/V009__enacting_formula.cypher. Neo4j needs no DDL for new properties; this file keeps the two
// migration histories in step. Laws stored before it have none until re-ingested.
