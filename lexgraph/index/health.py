"""The search indexes' line in `lexgraph doctor`: here, above the store, because the store's own checks
(`store.doctor`) must not import the index that is built from it; the client passes this check to `examine`."""

from __future__ import annotations

from lexgraph.index.build import index_status
from lexgraph.store.base import GraphStore
from lexgraph.store.doctor import Finding


def index_finding(store: GraphStore) -> Finding:
    """The search indexes are derived from the graph: stale when a law gained a version, or a judgment changed,
    since they were built. Not having built them yet is fine (nothing is wrong, search just needs them)."""
    status = index_status(store)
    if status.embedder is None:
        return Finding("search indexes", True, f"not built yet: {status.problem}")
    if status.problem is not None:
        return Finding("search indexes", False, status.problem, "run `lexgraph index --rebuild`")
    stale = status.stale
    if not stale:
        rows = sum(p.rows for p in status.parts)
        return Finding("search indexes", True, f"{len(status.parts)} parts, {rows} units, up to date "
                       f"({status.embedder})")
    by_status: dict[str, list[str]] = {}
    for part in stale:
        by_status.setdefault(part.status, []).append(part.part)
    detail = "; ".join(f"{len(parts)} {state} (e.g. {parts[0]})" for state, parts in sorted(by_status.items()))
    return Finding("search indexes", False, f"{len(stale)} of {len(status.parts)} parts out of date: {detail}",
                   "run `lexgraph index` (it rebuilds only those parts)")
