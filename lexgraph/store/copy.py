"""Copy a whole graph from one store into another: an embedded store into Neo4j for Neo4j Browser, or back.

Nodes go first, label by label, then each relationship type, as the source exports them (`GraphStore.export_nodes`,
`export_relationships`): the embedded store by its bulk ``COPY … TO`` Parquet path, one scan per label and type;
Neo4j by a keyset walk on its ordered key indexes. Each batch is one transaction of upserts keyed as the data model
says (``UNWIND … MERGE`` on the constrained keys in Neo4j), so running the copy again changes nothing, and a copy
that stopped halfway can simply be run again. Labels, keys and types come from the data model (`NODE_SPECS`,
`REL_SPECS`), never from user input.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lexgraph.errors import ConfigurationError
from lexgraph.store.base import NODE_SPECS, REL_SPECS, GraphStore, Row

DEFAULT_BATCH = 10_000
"""Rows per transaction: Neo4j's own write batch (`lexgraph.store.neo4j.BATCH_SIZE`)."""


@dataclass
class CopySummary:
    nodes: dict[str, int] = field(default_factory=dict)
    relationships: dict[str, int] = field(default_factory=dict)
    #: When the source has a search index, which the copy does not carry: how to index the copy from the source's
    #: cached vectors, so that nothing is embedded again (`IndexFromCache`); None when the source has no index.
    index: IndexFromCache | None = None
    #: The anchor field's files copied with the graph (name → bytes): from the source's index folder or database
    #: into the target's, where its learned search reads them once the copy is indexed.
    anchors: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        said = {"index": self.index.to_json()} if self.index is not None else {}
        anchors = {"anchors": dict(self.anchors)} if self.anchors else {}
        return {"nodes": dict(self.nodes), "relationships": dict(self.relationships), **said, **anchors}


@dataclass(frozen=True)
class IndexFromCache:
    """How to give a copy the source's search index without embedding anything: `lexgraph index` on the target
    with the source's embedding cache and the model its index was built with. Both must be named: unnamed, a new
    store's index is built with the default model, whose vectors the cache of an index built with another model
    (the int8 one of a whole-archive store) does not hold, and every text would be embedded again (hours for the
    whole archive)."""

    target: str
    embedder: str
    cache: str

    @property
    def command(self) -> str:
        return (f"LEXGRAPH_CACHE_DIR={shlex.quote(self.cache)} lexgraph index --store {shlex.quote(self.target)} "
                f"--embedder {shlex.quote(self.embedder)}")

    def to_json(self) -> dict[str, Any]:
        return {"embedder": self.embedder, "cache": self.cache, "command": self.command}


def copy_store(source: GraphStore, target: GraphStore, *, batch: int = DEFAULT_BATCH,
               on_batch: Callable[[str, int], None] | None = None) -> CopySummary:
    """Upsert every node and relationship of `source` into `target`, `batch` rows per transaction; returns what
    was copied. `on_batch(label or type, copied so far)` is called after each transaction."""
    if batch <= 0:
        raise ConfigurationError("batch must be positive")
    summary = CopySummary()
    present = source.counts().nodes
    for spec in NODE_SPECS:
        if spec.label not in present:
            continue
        copied = 0
        for rows in source.export_nodes(spec.label, batch):
            with target.transaction() as tx:
                tx.upsert_nodes(spec.label, _with_all_columns(rows))
            copied += len(rows)
            if on_batch is not None:
                on_batch(spec.label, copied)
        summary.nodes[spec.label] = copied
    for rel in REL_SPECS:
        copied = 0
        if present.get(rel.from_label) and present.get(rel.to_label):
            for rows in source.export_relationships(rel, batch):
                with target.transaction() as tx:
                    tx.upsert_relationships(rel.rel_type, _with_all_columns(rows), from_label=rel.from_label,
                                            to_label=rel.to_label)
                copied += len(rows)
                if on_batch is not None:
                    on_batch(rel.rel_type, copied)
        summary.relationships[rel.rel_type] = summary.relationships.get(rel.rel_type, 0) + copied
    return summary


def _with_all_columns(rows: list[Row]) -> list[Row]:
    """Every row with the same keys (missing ones None), so that one statement writes the batch. Rows that
    already share their keys (a bulk export's always do) are returned as they are."""
    if not rows:
        return rows
    first = rows[0].keys()
    if all(row.keys() == first for row in rows):
        return rows
    columns = list(dict.fromkeys(k for row in rows for k in row))
    return [{k: row.get(k) for k in columns} for row in rows]
