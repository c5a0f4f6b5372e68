// Contract-review knowledge in the entry shape 1.0, as in migrations/embedded/V008: Knowledge gains
// schema_version, contract_types, problem_pattern, risk, recommended_clause and note. Neo4j needs no DDL for new
// properties; this file keeps the two migration histories in step. Entries written before keep their format-0
// properties (contract_type, issue, recommendation) and no schema_version: answer/knowledge.py reads both.
