MATCH (p:IndexPart {name: $name})
DELETE p
