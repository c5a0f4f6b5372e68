// Every stored law, for the catalogue and `lexgraph stats`.
MATCH (l:Law)
RETURN l.law_id AS law_id, l.title AS title, l.law_num AS law_num, l.law_type AS law_type,
       l.aliases AS aliases, l.kana AS kana, l.promulgated AS promulgated,
       l.enact_statement AS enact_statement, l.repealed_on AS repealed_on
ORDER BY l.law_id
