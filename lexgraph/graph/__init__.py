"""The citation graph as pictures and neighbourhoods: a document-level view of one node's surroundings
(`neighbourhood`), drawn with Graphviz (`render`)."""

from lexgraph.graph.neighbourhood import NODE_KINDS, GraphEdge, GraphNode, Neighbourhood, neighbourhood, resolve_node

__all__ = ["NODE_KINDS", "GraphEdge", "GraphNode", "Neighbourhood", "neighbourhood", "resolve_node"]
