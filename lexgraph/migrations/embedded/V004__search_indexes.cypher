// Search: the embedded backend keeps its BM25 and vector indexes in files beside the graph
// (<store>/index, see lexgraph/index/local.py), because LadybugDB's own extensions download at run time. Nothing
// changes in the graph; the version is kept so that both backends share migration numbers.
RETURN 1;
