// Contract-review knowledge in the entry shape 1.0 (lexgraph/schemas/knowledge_entry.schema.json, whose
// example entry has contract_types, problem_pattern, risk, recommended_clause and note). Entries written before
// keep their format-0 columns (contract_type, issue, recommendation) and schema_version stays NULL on them:
// answer/knowledge.py reads both.
ALTER TABLE Knowledge ADD IF NOT EXISTS schema_version STRING;
ALTER TABLE Knowledge ADD IF NOT EXISTS contract_types STRING[];
ALTER TABLE Knowledge ADD IF NOT EXISTS problem_pattern STRING;
ALTER TABLE Knowledge ADD IF NOT EXISTS risk STRING;
ALTER TABLE Knowledge ADD IF NOT EXISTS recommended_clause STRING;
ALTER TABLE Knowledge ADD IF NOT EXISTS note STRING;
