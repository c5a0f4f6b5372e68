"""lexgraph: Japanese law as a versioned citation graph.

`LexGraph` is imported lazily so that light modules (numerals, citations) load without the database engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lexgraph.version import __version__

if TYPE_CHECKING:
    from lexgraph.client import LexGraph

__all__ = ["LexGraph", "__version__"]


def __getattr__(name: str) -> Any:
    if name == "LexGraph":
        from lexgraph.client import LexGraph

        return LexGraph
    raise AttributeError(name)
