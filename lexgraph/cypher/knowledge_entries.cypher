// Stored contract-review knowledge (every entry with $every, or the one $uid names), oldest first: the 1.0
// columns and, for entries written before 1.0, the format-0 ones (answer/knowledge.py reads either).
MATCH (k:Knowledge)
WHERE $every OR k.uid = $uid
RETURN k.uid AS uid, k.schema_version AS schema_version, k.title AS title, k.contract_types AS contract_types,
       k.problem_pattern AS problem_pattern, k.risk AS risk, k.recommended_clause AS recommended_clause,
       k.note AS note, k.legal_basis AS legal_basis, k.created_at AS created_at, k.contract_type AS contract_type,
       k.issue AS issue, k.recommendation AS recommendation
ORDER BY created_at, uid
