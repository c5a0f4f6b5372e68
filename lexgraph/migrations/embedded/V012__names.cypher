// Names a person reads (lexgraph/store/names.py): every node gains `name`, the caption Neo4j Browser
// shows (民法 第七百十条第一項, 最二小判 令和4.6.17（原状回復等請求事件）, 91244 ¶3, 民法（令和5年6月14日改正）).
// Written with the node at ingest and carried by `copy`; nodes stored before this migration have none until their
// law, judgment or document is ingested again.
ALTER TABLE Law ADD IF NOT EXISTS name STRING;
ALTER TABLE LawVersion ADD IF NOT EXISTS name STRING;
ALTER TABLE Provision ADD IF NOT EXISTS name STRING;
ALTER TABLE Precedent ADD IF NOT EXISTS name STRING;
ALTER TABLE Document ADD IF NOT EXISTS name STRING;
ALTER TABLE Chunk ADD IF NOT EXISTS name STRING;
ALTER TABLE Question ADD IF NOT EXISTS name STRING;
ALTER TABLE Answer ADD IF NOT EXISTS name STRING;
ALTER TABLE Knowledge ADD IF NOT EXISTS name STRING;
