// The database's own identity (the id Neo4j gives a database when it is created, and its name): what names the
// local folder where a killed build of a file derived from it keeps its work, so that another database's work is
// never read back.
CALL db.info() YIELD id, name
RETURN id, name
