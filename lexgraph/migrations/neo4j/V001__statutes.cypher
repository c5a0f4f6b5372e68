// Laws, their versions and clauses: keys are unique, and the lookups lexgraph makes on every
// query (a law's clauses by path, versions by law) are indexed.
CREATE CONSTRAINT law_id IF NOT EXISTS FOR (n:Law) REQUIRE n.law_id IS UNIQUE;
CREATE CONSTRAINT law_version_id IF NOT EXISTS FOR (n:LawVersion) REQUIRE n.revision_id IS UNIQUE;
CREATE CONSTRAINT provision_uid IF NOT EXISTS FOR (n:Provision) REQUIRE n.uid IS UNIQUE;
CREATE INDEX provision_law_path IF NOT EXISTS FOR (n:Provision) ON (n.law_id, n.path);
CREATE INDEX law_version_law IF NOT EXISTS FOR (n:LawVersion) ON (n.law_id);
CREATE INDEX law_title IF NOT EXISTS FOR (n:Law) ON (n.title);
