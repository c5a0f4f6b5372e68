// Honest periods (docs/statutes.md): what a version's 附則 say about amendments the store does not hold.
// known_until: the first day an amendment between this version and the next may have changed its wording;
// gap: those amendments (JSON list); amendments: every amending law its 附則 name, with its 施行期日 (JSON list);
// parser: the version of the e-Gov parser that read its text (NULL: before this migration, when <Ruby> leaked
// line breaks into the text). Versions stored before this migration have none of these until re-ingested.
ALTER TABLE LawVersion ADD IF NOT EXISTS known_until DATE;
ALTER TABLE LawVersion ADD IF NOT EXISTS gap STRING;
ALTER TABLE LawVersion ADD IF NOT EXISTS amendments STRING;
ALTER TABLE LawVersion ADD IF NOT EXISTS parser INT64;
