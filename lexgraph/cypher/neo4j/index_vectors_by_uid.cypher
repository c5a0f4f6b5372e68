// The stored embeddings of some indexed units (the cluster tree clusters its candidates by them).
MATCH (n:ProvisionSearch)
WHERE n.uid IN $uids AND n.embedding IS NOT NULL
RETURN n.uid AS uid, n.embedding AS embedding
UNION ALL
MATCH (n:ChunkSearch)
WHERE n.uid IN $uids AND n.embedding IS NOT NULL
RETURN n.uid AS uid, n.embedding AS embedding
