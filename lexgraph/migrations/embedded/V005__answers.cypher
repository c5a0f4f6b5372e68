// Answers: every question asked and every answer given, with what the answer cites.
// (:Question)-[:ANSWERED_BY]->(:Answer)-[:CITES]->(:Provision | :Precedent | :Chunk). The full turn (prompt, raw
// replies, validation errors, retries, latency, token usage) is in the turn log (JSONL); the graph keeps what a
// later reader needs to audit an answer against the clauses it relied on.
CREATE NODE TABLE IF NOT EXISTS Question(
  uid STRING PRIMARY KEY, text STRING, asked_at STRING, as_of DATE, mode STRING, prompt_style STRING,
  model STRING);
CREATE NODE TABLE IF NOT EXISTS Answer(
  uid STRING PRIMARY KEY, status STRING, extractive BOOLEAN, body STRING, error STRING, attempts INT64,
  latency_s DOUBLE, created_at STRING);
CREATE REL TABLE IF NOT EXISTS ANSWERED_BY(FROM Question TO Answer);
ALTER TABLE CITES ADD IF NOT EXISTS FROM Answer TO Provision;
ALTER TABLE CITES ADD IF NOT EXISTS FROM Answer TO Precedent;
ALTER TABLE CITES ADD IF NOT EXISTS FROM Answer TO Chunk;
