// Judgments, books and guidelines, their chunks, and what they cite: keys are unique, and
// the lookups made when resolving precedent citations (by date) and listing a document's chunks are indexed.
CREATE CONSTRAINT precedent_uid IF NOT EXISTS FOR (n:Precedent) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT document_uid IF NOT EXISTS FOR (n:Document) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT chunk_uid IF NOT EXISTS FOR (n:Chunk) REQUIRE n.uid IS UNIQUE;
CREATE INDEX precedent_date IF NOT EXISTS FOR (n:Precedent) ON (n.date);
CREATE INDEX precedent_case_number IF NOT EXISTS FOR (n:Precedent) ON (n.case_number);
CREATE INDEX chunk_owner IF NOT EXISTS FOR (n:Chunk) ON (n.owner_uid);
