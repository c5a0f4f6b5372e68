"""The anchor field's line in `lexgraph doctor`, for either backend: here, in retrieve, beside the loader a search
reads the field with (`anchor_field.read_field`), since the check reads each file with it; the search indexes' own
line is `index.health`. The client passes both checks to `store.doctor.examine`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from lexgraph.errors import InputError
from lexgraph.store.base import GraphStore
from lexgraph.store.doctor import Finding


def anchor_field_finding(store: GraphStore) -> Finding:
    """The anchor field's two files, reported as the search indexes are, on either backend: each file kept or
    not, its size, whether it can be read by this version, and whether the statutes' field was built from the graph
    as it stands (the digest it records against the graph's now). Only where the files live differs: beside an
    embedded store's index (`_beside_index`), or in a Neo4j store's database (`_in_database`, which also says
    whether this machine's cache holds them). A file missing is no problem (a store may have no citation between
    clauses, or no judgment texts given), but the learned mode then ranks as the hybrid, so the command that
    builds it is named; a file damaged, written by another version or built from another state of the graph is a
    problem, with the command that writes it again."""
    from lexgraph.index.anchors import ANCHOR_FILE, FIELD_FILE, graph_digest
    from lexgraph.index.units import part_fingerprints

    where = store.location
    on_server = store.index_kind != "files"
    kept, tail = _in_database(store) if on_server else _beside_index(store)
    build = {FIELD_FILE: f"`lexgraph index --statute-anchors --store {where}` (the statutes' citations)",
             ANCHOR_FILE: f"`lexgraph index --anchors DIR --store {where}` (a folder of judgment texts)"}
    copy = f" (or copy a store that has it: `lexgraph copy --to {where}`)" if on_server else ""
    rewrite = {FIELD_FILE: f"build it again with `lexgraph index --rebuild-anchors --store {where}`{copy}",
               ANCHOR_FILE: f"build it again with `lexgraph index --anchors DIR --store {where}`{copy}"}
    now = graph_digest(part_fingerprints(store)) if kept.get(FIELD_FILE) is not None else ""
    said: list[str] = []
    problems: list[str] = []
    fixes: list[str] = []
    for name in (FIELD_FILE, ANCHOR_FILE):
        file = kept.get(name)
        if file is None:
            said.append(f"{name}: not kept")
            fixes.append(f"build {name} with {build[name]}")
            continue
        wrong, fix = file.wrong, f"{name}: {rewrite[name]}"
        if wrong is None and name == FIELD_FILE and file.graph != now:
            built = f"graph {file.graph[:12]}" if file.graph else "a graph it did not record"
            wrong = (f"built from another state of the graph ({built}, the graph now {now[:12]}: laws or "
                     "judgments ingested or synced since); the learned mode reads it as it is until it is built again")
            fix = f"{name}: build it again with `lexgraph index --store {where}`"
        if wrong is not None:
            problems.append(f"{name}: {wrong}")
            fixes.append(fix)
            said.append(f"{name}: {wrong}")
            continue
        facts = list(file.facts)
        if name == FIELD_FILE:
            facts.append(f"built from the graph as it stands (graph {now[:12]})")
        said.append(f"{name}: " + ", ".join((*facts, *file.after)))
    if not problems:
        said.extend(tail)
    if not kept:
        said.append("the learned mode (the default) ranks as the hybrid, and says so")
    return Finding("anchor field", not problems, "; ".join(said), "; ".join(fixes))


@dataclass(frozen=True)
class _Kept:
    """One anchor file as the store keeps it: what is said of it (`facts` first, `after` past the graph's fact),
    what makes it unreadable (damaged, or of another version), and the graph digest it records (the field's)."""

    facts: tuple[str, ...]
    wrong: str | None = None
    graph: str | None = None
    after: tuple[str, ...] = ()


def _beside_index(store: GraphStore) -> tuple[dict[str, _Kept], list[str]]:
    """The anchor files beside an embedded store's index, each read by the loader a search reads it with (its
    checks are the ones a search makes, so a file it refuses is one every learned search would refuse)."""
    from lexgraph.index.anchors import ANCHOR_FILE, FIELD_FILE
    from lexgraph.index.backends import index_backend
    from lexgraph.retrieve.anchor_field import anchor_file_facts

    directory = Path(index_backend(store).location(store))
    kept: dict[str, _Kept] = {}
    for name in (FIELD_FILE, ANCHOR_FILE):
        path = directory / name
        if not path.exists() and not path.is_symlink():
            continue
        facts = (f"{path.lstat().st_size:,} bytes",)
        try:
            anchors, graph = anchor_file_facts(directory, name) or (0, None)
            kept[name] = _Kept((*facts, f"{anchors:,} anchors"), graph=graph)
        except InputError as error:
            kept[name] = _Kept(facts, wrong=f"cannot be read ({error})")
    return kept, ([f"in {directory}"] if kept else [])


def _in_database(store: GraphStore) -> tuple[dict[str, _Kept], list[str]]:
    """The anchor files a Neo4j store keeps in its database (`index.neo4j_files`): each record's size and
    SHA-256, whether the database still holds all its chunks (read by their sizes, not their bytes), and whether
    this machine's cache holds it (a first search fetches what it does not)."""
    from lexgraph.index.neo4j_files import (
        FORMATS,
        cache_folder,
        chunks_problem,
        is_cached,
        stored_files,
        written_as_now,
    )
    from lexgraph.index.tokenize import TOKENIZER_VERSION

    records = stored_files(store)
    listed = sorted(records.values(), key=lambda record: record.name)
    kept: dict[str, _Kept] = {}
    for name, record in records.items():
        facts = (f"{record.size:,} bytes in {record.chunks} chunk{'s' if record.chunks != 1 else ''}",
                 f"SHA-256 {record.sha256[:16]}")
        wrong = None
        if not written_as_now(record):
            wrong = (f"written by another version of lexgraph (format {record.format!r}, tokenizer "
                     f"{record.tokenizer!r}; this one reads {FORMATS[name]!r}, {TOKENIZER_VERSION!r})")
        elif (damaged := chunks_problem(store, record)) is not None:
            wrong = f"damaged in the database ({damaged})"
        cached = ("in this machine's cache" if is_cached(listed, record)
                  else "not in this machine's cache yet (the first search fetches it)")
        kept[name] = _Kept(facts, wrong, record.graph, (cached,))
    return kept, ([f"cache {cache_folder(listed)}"] if listed else [])
