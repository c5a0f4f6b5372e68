"""lexgraph: Japanese law as a versioned citation graph.

`LexGraph` is imported lazily so that light modules (numerals, citations) load without the database engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lexgraph.client import LexGraph

__all__ = ["LexGraph"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name == "LexGraph":
        from lexgraph.client import LexGraph

        return LexGraph
    raise AttributeError(name)
