// Paragraph titles, as migrations/embedded/V014__paragraph_titles.cypher: a paragraph's `title` was
// e-Gov's printed number (「２」, nothing for the first); the parser now writes 第二項, and this fills the paragraphs
// stored before, numbered 1 to 99. Lists are 0-based here.
MATCH (p:Provision {kind: 'paragraph'})
WITH p, last(split(p.path, '/')) AS seg
WHERE seg =~ 'p[1-9][0-9]?'
WITH p, toInteger(substring(seg, 1)) AS n, ['', '一', '二', '三', '四', '五', '六', '七', '八', '九'] AS d
SET p.title = '第' + (CASE WHEN n >= 20 THEN d[n / 10] + '十' WHEN n >= 10 THEN '十' ELSE '' END) + d[n % 10] + '項';
