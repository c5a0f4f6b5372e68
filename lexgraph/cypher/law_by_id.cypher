MATCH (l:Law {law_id: $law_id})
RETURN l.law_id AS law_id, l.title AS title, l.law_num AS law_num, l.law_type AS law_type,
       l.aliases AS aliases, l.kana AS kana, l.promulgated AS promulgated,
       l.enact_statement AS enact_statement, l.synced_on AS synced_on, l.repealed_on AS repealed_on
