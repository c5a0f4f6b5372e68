// Versions whose text an older e-Gov parser read (NULL: stored before migration V007): their clauses may carry
// ruby line breaks (「（失踪⏎の宣告）」) and their periods ignore what the 附則 say about amendments in between. A revision listed with its day left open has no text, so no parser.
MATCH (v:LawVersion)
WHERE (v.parser IS NULL OR v.parser < $parser) AND NOT (coalesce(v.scheduled, false) AND v.enforced_from IS NULL)
RETURN v.law_id AS law_id, v.revision_id AS revision_id, v.source AS source
ORDER BY law_id, revision_id LIMIT 20
