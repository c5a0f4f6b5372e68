// Contract-review knowledge: (:Knowledge)-[:CITES]->(:Provision).
CREATE CONSTRAINT knowledge_uid IF NOT EXISTS FOR (n:Knowledge) REQUIRE n.uid IS UNIQUE;
