// Paragraph titles: a paragraph's `title` was e-Gov's printed number (「２」, nothing for the first), so
// 2,008 of 3,371 paragraphs had none. The parser now writes it as a lawyer names it, 第二項, one style for every
// paragraph (the printed number stays at the head of the text); this fills the paragraphs stored before, numbered
// 1 to 99 (one numbered otherwise gets its title when its law is ingested again). Lists are 1-based here.
MATCH (p:Provision)
WHERE p.kind = 'paragraph'
WITH p, string_split(p.path, '/') AS parts
WITH p, parts[size(parts)] AS seg
WHERE seg =~ 'p[1-9][0-9]?'
WITH p, CAST(substring(seg, 2, 2) AS INT64) AS n, ['一', '二', '三', '四', '五', '六', '七', '八', '九'] AS d
SET p.title = '第' + (CASE WHEN n >= 20 THEN d[n / 10] + '十' WHEN n >= 10 THEN '十' ELSE '' END)
    + (CASE WHEN n % 10 = 0 THEN '' ELSE d[n % 10] END) + '項';
