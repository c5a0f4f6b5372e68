// Laws, their versions and clauses. LadybugDB needs typed tables; Neo4j gets the same
// labels through constraints in migrations/neo4j/V001__statutes.cypher.
CREATE NODE TABLE IF NOT EXISTS Law(
  law_id STRING PRIMARY KEY, title STRING, law_num STRING, law_type STRING, aliases STRING[],
  kana STRING, era STRING, year INT64, num STRING, promulgated DATE);
CREATE NODE TABLE IF NOT EXISTS LawVersion(
  revision_id STRING PRIMARY KEY, law_id STRING, enforced_from DATE, enforced_until DATE, amended_by STRING,
  source STRING, dated_by STRING, known_in_force_on DATE, content_hash STRING, xml_format STRING);
CREATE NODE TABLE IF NOT EXISTS Provision(
  uid STRING PRIMARY KEY, law_id STRING, path STRING, kind STRING, num STRING, title STRING, caption STRING,
  heading STRING, text STRING, sentences STRING, seq INT64, valid_from DATE, valid_until DATE,
  content_hash STRING);
CREATE REL TABLE IF NOT EXISTS HAS_VERSION(FROM Law TO LawVersion);
CREATE REL TABLE IF NOT EXISTS NEXT(FROM LawVersion TO LawVersion);
CREATE REL TABLE IF NOT EXISTS CONTAINS(FROM LawVersion TO Provision);
CREATE REL TABLE IF NOT EXISTS HAS_PART(FROM Provision TO Provision);
