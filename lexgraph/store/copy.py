"""Copy a whole graph from one store into another: an embedded store into Neo4j for Neo4j Browser, or back.

Nodes go first, label by label, in key order and in batches; then each relationship type, read from the batch of
source nodes it leaves. Writes are upserts keyed as the data model says, so running the copy again changes
nothing, and a copy that stopped halfway can simply be run again. Labels, keys and types come from the data model
(`NODE_SPECS`, `REL_SPECS`), never from user input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from lexgraph.store.base import NODE_SPECS, REL_SPECS, GraphStore, RelSpec, Row

DEFAULT_BATCH = 2000
_INTERNAL = ("_id", "_label", "_src", "_dst")  # LadybugDB's own fields in a returned node or relationship


@dataclass
class CopySummary:
    nodes: dict[str, int] = field(default_factory=dict)
    relationships: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"nodes": dict(self.nodes), "relationships": dict(self.relationships)}


def copy_store(source: GraphStore, target: GraphStore, *, batch: int = DEFAULT_BATCH,
               on_batch: Callable[[str, int], None] | None = None) -> CopySummary:
    """Upsert every node and relationship of `source` into `target`; returns what was copied."""
    if batch <= 0:
        raise ValueError("batch must be positive")
    summary = CopySummary()
    present = source.counts().nodes
    for spec in NODE_SPECS:
        if spec.label not in present:
            continue
        copied = 0
        for keys, rows in _node_batches(source, spec.label, spec.key, batch):
            with target.transaction() as tx:
                tx.upsert_nodes(spec.label, rows)
            copied += len(keys)
            if on_batch is not None:
                on_batch(spec.label, copied)
        summary.nodes[spec.label] = copied
    for rel in REL_SPECS:
        copied = _copy_relationships(source, target, rel, batch, on_batch)
        name = rel.rel_type
        summary.relationships[name] = summary.relationships.get(name, 0) + copied
    return summary


def _pages(store: GraphStore, label: str, key: str, batch: int, returns: str) -> Iterator[list[Row]]:
    """Rows of `label`'s nodes in key order, `batch` at a time: a keyset walk, so each page costs the same.
    `returns` is the RETURN expression, which must yield the node's key as ``key`` or the node as ``node``."""
    after: Any = None
    while True:
        where = f"WHERE n.{key} > $after " if after is not None else ""
        rows = store.run_read_only(
            f"MATCH (n:{label}) {where}RETURN {returns} ORDER BY n.{key} LIMIT $limit",
            {"after": after, "limit": batch} if after is not None else {"limit": batch},
        )
        if not rows:
            return
        yield rows
        last = rows[-1]
        after = last["key"] if "key" in last else _properties(last["node"])[key]
        if len(rows) < batch:
            return


def _node_batches(store: GraphStore, label: str, key: str, batch: int) -> Iterator[tuple[list[Any], list[Row]]]:
    """(keys, rows) of whole nodes, for copying them."""
    for rows in _pages(store, label, key, batch, "n AS node"):
        nodes = [_properties(row["node"]) for row in rows]
        yield [node[key] for node in nodes], _with_all_columns(nodes)


def _key_batches(store: GraphStore, label: str, key: str, batch: int) -> Iterator[list[Any]]:
    """Just the keys: what relationships are read by, without reading every node's text again per type."""
    for rows in _pages(store, label, key, batch, f"n.{key} AS key"):
        yield [row["key"] for row in rows]


def _copy_relationships(source: GraphStore, target: GraphStore, rel: RelSpec, batch: int,
                        on_batch: Callable[[str, int], None] | None) -> int:
    from_key = next(s.key for s in NODE_SPECS if s.label == rel.from_label)
    to_key = next(s.key for s in NODE_SPECS if s.label == rel.to_label)
    copied = 0
    for keys in _key_batches(source, rel.from_label, from_key, batch):
        rows = source.run_read_only(
            f"UNWIND $keys AS k MATCH (a:{rel.from_label} {{{from_key}: k}})-[r:{rel.rel_type}]->"
            f"(b:{rel.to_label}) RETURN a.{from_key} AS from_key, b.{to_key} AS to_key, r AS rel",
            {"keys": keys},
        )
        if not rows:
            continue
        payload = [{"from": row["from_key"], "to": row["to_key"], **_properties(row["rel"])} for row in rows]
        with target.transaction() as tx:
            tx.upsert_relationships(rel.rel_type, _with_all_columns(payload), from_label=rel.from_label,
                                    to_label=rel.to_label)
        copied += len(payload)
        if on_batch is not None:
            on_batch(rel.rel_type, copied)
    return copied


def _properties(value: Any) -> dict[str, Any]:
    """A node or relationship as a plain property dict, whichever backend returned it."""
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if k not in _INTERNAL and not k.startswith("_")}
    return dict(value)  # a neo4j Node or Relationship


def _with_all_columns(rows: list[Row]) -> list[Row]:
    """Every row with the same keys (missing ones None), so that one statement writes the batch."""
    columns = list(dict.fromkeys(k for row in rows for k in row))
    return [{k: row.get(k) for k in columns} for row in rows]
