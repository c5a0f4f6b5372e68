// Judgments, books and guidelines, their chunks, and what they cite. A Precedent may be a
// stub (`stub` true) made from a citation of a decision that is not stored yet; ingesting it fills the node in.
// `cited_laws` lists the laws a precedent or document cites, so that linking can be redone when they arrive.
CREATE NODE TABLE IF NOT EXISTS Precedent(
  uid STRING PRIMARY KEY, court STRING, date DATE, decision_type STRING, case_number STRING, case_name STRING,
  reporter STRING, bench STRING, holdings STRING, summary STRING, referenced STRING, source STRING,
  stub BOOLEAN, content_hash STRING, problems STRING[], cited_laws STRING[]);
CREATE NODE TABLE IF NOT EXISTS Document(
  uid STRING PRIMARY KEY, kind STRING, title STRING, date DATE, source STRING, url STRING, licence STRING,
  content_hash STRING, problems STRING[], cited_laws STRING[]);
CREATE NODE TABLE IF NOT EXISTS Chunk(
  uid STRING PRIMARY KEY, owner_uid STRING, seq INT64, section STRING, text STRING, char_start INT64,
  char_end INT64);
CREATE REL TABLE IF NOT EXISTS PART_OF(FROM Chunk TO Precedent, FROM Chunk TO Document);
ALTER TABLE CITES ADD IF NOT EXISTS FROM Chunk TO Provision;
ALTER TABLE CITES ADD IF NOT EXISTS FROM Chunk TO Precedent;
CREATE REL TABLE IF NOT EXISTS REFERS_TO(FROM Precedent TO Provision, surface STRING);
CREATE REL TABLE IF NOT EXISTS CITES_ARTICLE(FROM Precedent TO Provision, FROM Document TO Provision, count INT64);
