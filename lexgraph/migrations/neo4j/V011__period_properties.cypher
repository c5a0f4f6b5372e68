// Period facts as ordinary properties, beside the JSON `gap` / `amendments` lexgraph reads back, so that
// Cypher reads them without APOC (as in migrations/embedded/V011__period_properties.cypher):
// known_up_to (DATE, newest version), gap_start / gap_end (DATE), gap_amendments / gap_law_nums / gap_days and
// amendment_law_nums / amendment_days (lists of strings; a day is an ISO date or "unknown"). Neo4j needs no DDL
// for new properties; this fills the dates of versions stored before it (the lists come with the next ingest).
// The Browser guide (docker/browser-guide.html) shows the query that reads them.
MATCH (v:LawVersion) WHERE v.known_until IS NOT NULL SET v.gap_start = v.known_until, v.gap_end = v.enforced_until;
MATCH (v:LawVersion) WHERE v.enforced_until IS NULL AND (v.enforced_from IS NOT NULL OR v.known_in_force_on IS NOT NULL)
SET v.known_up_to = CASE WHEN v.known_in_force_on IS NULL THEN v.enforced_from
                         WHEN v.enforced_from IS NULL OR v.known_in_force_on > v.enforced_from THEN v.known_in_force_on
                         ELSE v.enforced_from END;
