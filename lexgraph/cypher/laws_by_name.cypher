// Stored laws whose title, law number, id or alias is exactly the given name.
MATCH (l:Law)
WHERE l.title = $name OR l.law_num = $name OR l.law_id = $name OR list_contains(l.aliases, $name)
RETURN l.law_id AS law_id, l.title AS title, l.law_num AS law_num, l.law_type AS law_type,
       l.aliases AS aliases, l.kana AS kana, l.promulgated AS promulgated, l.repealed_on AS repealed_on
