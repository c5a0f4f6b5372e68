// e-Gov sync: LawVersion gains scheduled (BOOLEAN), Law gains synced_on and repealed_on (DATE), as in
// migrations/embedded/V010__egov_sync.cypher. Neo4j needs no DDL for new properties; this file keeps the two
// migration histories in step.
