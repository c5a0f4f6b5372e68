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


def anchor_files_finding(store: GraphStore) -> Finding:
    """The anchor field's files a Neo4j store keeps in its database (`index.neo4j_files`), reported as the search
    indexes are: each file present or not, its size and SHA-256, whether the database still holds all its chunks,
    whether the statutes' field was built from the graph as it stands, and whether this machine's cache holds it
    (a first search fetches what it does not). A file missing is no problem (a store may have no citation between
    clauses, or no judgment texts given), but the learned mode then ranks as the hybrid, so the command that
    builds it is named; a file damaged, written by another version or built from another state of the graph is a
    problem, with the command that writes it again."""
    from lexgraph.index.anchors import ANCHOR_FILE, FIELD_FILE, graph_digest
    from lexgraph.index.neo4j_files import FORMATS, REWRITE, cache_folder, chunks_problem, is_cached, stored_files
    from lexgraph.index.tokenize import TOKENIZER_VERSION
    from lexgraph.index.units import part_fingerprints

    where = store.location
    build = {FIELD_FILE: f"`lexgraph index --statute-anchors --store {where}` (the statutes' citations)",
             ANCHOR_FILE: f"`lexgraph index --anchors DIR --store {where}` (a folder of judgment texts)"}
    kept = stored_files(store)
    records = sorted(kept.values(), key=lambda record: record.name)
    said: list[str] = []
    problems: list[str] = []
    fixes: list[str] = []
    for name in (FIELD_FILE, ANCHOR_FILE):
        record = kept.get(name)
        if record is None:
            said.append(f"{name}: not kept")
            fixes.append(f"build {name} with {build[name]}")
            continue
        facts = [f"{record.size:,} bytes in {record.chunks} chunk{'s' if record.chunks != 1 else ''}",
                 f"SHA-256 {record.sha256[:16]}"]
        wrong, fix = None, f"{name}: {REWRITE[name]}"
        if record.format != FORMATS[name] or record.tokenizer != TOKENIZER_VERSION:
            wrong = (f"written by another version of lexgraph (format {record.format!r}, tokenizer "
                     f"{record.tokenizer!r}; this one reads {FORMATS[name]!r}, {TOKENIZER_VERSION!r})")
        elif (damaged := chunks_problem(store, record)) is not None:
            wrong = f"damaged in the database ({damaged})"
        elif name == FIELD_FILE and record.graph != graph_digest(part_fingerprints(store)):
            wrong = ("built from another state of the graph (laws or judgments ingested or synced since); the "
                     "learned mode reads it as it is until it is built again")
            fix = f"{name}: build it again with `lexgraph index --store {where}`"
        elif name == FIELD_FILE:
            facts.append("built from the graph as it stands")
        if wrong is not None:
            problems.append(f"{name}: {wrong}")
            fixes.append(fix)
            said.append(f"{name}: {wrong}")
            continue
        facts.append("in this machine's cache" if is_cached(records, record)
                     else "not in this machine's cache yet (the first search fetches it)")
        said.append(f"{name}: " + ", ".join(facts))
    if records and not problems:
        said.append(f"cache {cache_folder(records)}")
    if not records:
        said.append("the learned mode (the default) ranks as the hybrid, and says so")
    return Finding("anchor field", not problems, "; ".join(said), "; ".join(fixes))
