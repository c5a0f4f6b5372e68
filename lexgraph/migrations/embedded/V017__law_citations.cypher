// A law cited as a whole (a law named with its number, 「電気通信事業法（昭和五十九年法律第八十六号。以下「法」という。）」,
// with no clause): (:Provision)-[:CITES]->(:Law) from a statute's clause, (:Chunk)-[:CITES]->(:Law) from a judgment's
// or document's chunk, so that a table of authorities and `law cited-by LAW` list the texts that cite the law.
ALTER TABLE CITES ADD IF NOT EXISTS FROM Provision TO Law;
ALTER TABLE CITES ADD IF NOT EXISTS FROM Chunk TO Law;
