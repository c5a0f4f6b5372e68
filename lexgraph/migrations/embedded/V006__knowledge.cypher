// Contract-review knowledge captured by `lexgraph knowledge interview`, linked to the clauses it rests
// on: (:Knowledge)-[:CITES]->(:Provision), the wording in force when the entry was recorded.
CREATE NODE TABLE IF NOT EXISTS Knowledge(
  uid STRING PRIMARY KEY, title STRING, contract_type STRING, issue STRING, recommendation STRING,
  legal_basis STRING[], created_at STRING, interview STRING);
ALTER TABLE CITES ADD IF NOT EXISTS FROM Knowledge TO Provision;
