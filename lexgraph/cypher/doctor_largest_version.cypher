// `lexgraph doctor`'s buffer-pool check: the stored version with the most clauses, whose whole read (law diff,
// export rdf --law) is the largest a bounded read path makes of this store.
MATCH (v:LawVersion)-[:CONTAINS]->(p:Provision)
RETURN v.revision_id AS revision_id, count(p) AS clauses
ORDER BY clauses DESC, revision_id
LIMIT 1
