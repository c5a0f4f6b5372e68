// Precedents known only from citations (stubs), for the doctor's information.
MATCH (p:Precedent)
WHERE p.stub
RETURN count(p) AS stubs
