// Period facts as ordinary properties, beside the JSON `gap` / `amendments` lexgraph reads back, so that
// a Cypher user can read them without a JSON parser (the same columns as migrations/neo4j/V011):
// known_up_to: on the newest version, the last day its wording is known in force (never "now");
// gap_start / gap_end: the gap after this version ([known_until, the next stored version's start));
// gap_amendments: each amendment in the gap as lexgraph describes it (「平成三十年法律第五十九号 (from 2022-04-01)」);
// gap_law_nums / gap_days: its law number and its day (ISO date, or "unknown" where the 附則 leave it open);
// amendment_law_nums / amendment_days: the same for every amending law the version's 附則 name.
// Versions stored before this migration get the dates here; the lists when their law is ingested again.
ALTER TABLE LawVersion ADD IF NOT EXISTS known_up_to DATE;
ALTER TABLE LawVersion ADD IF NOT EXISTS gap_start DATE;
ALTER TABLE LawVersion ADD IF NOT EXISTS gap_end DATE;
ALTER TABLE LawVersion ADD IF NOT EXISTS gap_amendments STRING[];
ALTER TABLE LawVersion ADD IF NOT EXISTS gap_law_nums STRING[];
ALTER TABLE LawVersion ADD IF NOT EXISTS gap_days STRING[];
ALTER TABLE LawVersion ADD IF NOT EXISTS amendment_law_nums STRING[];
ALTER TABLE LawVersion ADD IF NOT EXISTS amendment_days STRING[];
MATCH (v:LawVersion) WHERE v.known_until IS NOT NULL SET v.gap_start = v.known_until, v.gap_end = v.enforced_until;
MATCH (v:LawVersion) WHERE v.enforced_until IS NULL AND (v.enforced_from IS NOT NULL OR v.known_in_force_on IS NOT NULL)
SET v.known_up_to = CASE WHEN v.known_in_force_on IS NULL THEN v.enforced_from
                         WHEN v.enforced_from IS NULL OR v.known_in_force_on > v.enforced_from THEN v.known_in_force_on
                         ELSE v.enforced_from END;
