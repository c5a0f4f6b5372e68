// Answers: (:Question)-[:ANSWERED_BY]->(:Answer)-[:CITES]->(:Provision | :Precedent | :Chunk).
CREATE CONSTRAINT question_uid IF NOT EXISTS FOR (n:Question) REQUIRE n.uid IS UNIQUE;
CREATE CONSTRAINT answer_uid IF NOT EXISTS FOR (n:Answer) REQUIRE n.uid IS UNIQUE;
