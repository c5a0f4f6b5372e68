// Cross-references between clauses: (:Provision)-[:CITES]->(:Provision). One edge per cited clause
// node, from every clause node whose wording cites it while both were in force. `cited_laws` on a Law lists every
// other law its clauses cite, stored or not, so that when one of them is ingested or amended the citing law is
// linked again.
CREATE REL TABLE IF NOT EXISTS CITES(FROM Provision TO Provision, surface STRING, char_start INT64,
  char_end INT64, part STRING, status STRING, extractor STRING, mentions INT64);
ALTER TABLE Law ADD IF NOT EXISTS cited_laws STRING[];
