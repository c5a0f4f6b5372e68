// The clauses stored knowledge is linked to (every entry with $every, or $uid's): the basis as written and the
// wording cited.
MATCH (k:Knowledge)-[c:CITES]->(p:Provision)
WHERE $every OR k.uid = $uid
RETURN k.uid AS knowledge, c.surface AS basis, p.law_id AS law_id, p.path AS path, p.uid AS uid
ORDER BY knowledge, basis, uid
