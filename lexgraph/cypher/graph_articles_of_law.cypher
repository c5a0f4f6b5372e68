// Neighbourhood view (lexgraph graph): every wording of some articles of one law, to caption them and pick the
// wording in force on a day. One law at a time, through its versions: asking for many laws' paths at once
// read every such path of every law with its text, and filled a 64 MiB pool on the whole archive.
MATCH (v:LawVersion {law_id: $law_id})-[:CONTAINS]->(p:Provision)
WHERE p.path IN $paths
RETURN DISTINCT p.uid AS uid, p.law_id AS law_id, p.path AS path, p.kind AS kind, p.title AS title,
       p.caption AS caption, p.text AS text, p.valid_from AS valid_from, p.valid_until AS valid_until
