"""Graph stores: the contract in `base`, the embedded backend (default, a directory) and Neo4j (a Bolt URI).

`open_store` picks the backend from the location, so the CLI's ``--store`` / ``LEXGRAPH_STORE`` takes either a
directory or a URI. Both backends are imported lazily: the embedded engine and the Neo4j driver are heavy, and
the driver is an optional extra (``pip install 'lexgraph[neo4j]'``).
"""

from __future__ import annotations

from lexgraph.config import NEO4J_URI_SCHEMES, BufferPool, is_server_location
from lexgraph.errors import StoreUnavailable
from lexgraph.store.base import GraphStore

__all__ = ["NEO4J_URI_SCHEMES", "GraphStore", "open_store"]


def open_store(location: str, *, read_only: bool = False,
               buffer_pool: BufferPool | int | str | None = None) -> GraphStore:
    """Open the store at ``location``: a Neo4j URI (credentials may sit in it, as in
    ``bolt://neo4j:secret@localhost:7687``, or come from ``NEO4J_USERNAME`` / ``NEO4J_PASSWORD``), or else a
    directory for the embedded backend, whose engine gets `buffer_pool` (None: `config.buffer_pool`'s setting; a
    Neo4j server sizes its own memory). Raises `StoreUnavailable` when the store cannot be opened."""
    if is_server_location(location):
        try:
            from lexgraph.store.neo4j import Neo4jStore
        except ModuleNotFoundError as err:
            if err.name is None or not err.name.startswith("neo4j"):
                raise  # a bug in lexgraph, not a missing driver
            raise StoreUnavailable(
                f"{location.split('://', 1)[0]}:// stores need the Neo4j driver: install lexgraph[neo4j] "
                f"(pip install 'lexgraph[neo4j]')"
            ) from None
        return Neo4jStore(location.strip(), read_only=read_only)
    from lexgraph.store.embedded import EmbeddedStore

    return EmbeddedStore(location, read_only=read_only, buffer_pool_size=buffer_pool)
