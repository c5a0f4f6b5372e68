"""Files derived from the graph kept in a Neo4j database: the anchor field's two files (``anchor_field.bin``, the
statutes' anchors folded into arrays; ``anchors.jsonl.gz``, the judgments' anchors), which an embedded store keeps
beside its index and a Neo4j store has no folder for.

Why the files themselves, as bytes, and not the anchors as graph data: the field is derived data a search maps,
not something a person reads (the whole archive's is 108 MB of arrays: 8.2 M postings, which as relationships would
be millions of writes and, rebuilt into arrays at every process's first search, seconds to minutes). Kept as the
very bytes the embedded store writes, a search on Neo4j reads them through the same loader and its checks
(`retrieve.anchor_field.read_field`, `index.anchors.read_anchors`), so it ranks exactly as the embedded store does
with the same data, by construction.

How they are kept: ``(:IndexFile {name, sha256, size, chunks, format, tokenizer, graph, written_at})`` records one
file; its bytes are ``(:IndexFileChunk {name, sha256, seq, data})`` nodes of `CHUNK_BYTES` each (a byte array per
node: one transaction of a few MB each, never one of the whole file). A write puts every chunk under the new
content's hash first, then switches the record to it in one transaction, then removes the chunks of other hashes:
a write killed half-way leaves the record and chunks written before, which a search still reads whole, and its
own stray chunks, which the next write removes. Every write is a named, parameterised query (``index_file_*``).

How a search reads them: into a local cache folder keyed by the contents' hashes (`fetch_files`), each file
written to a temporary name, its size, chunk sequence and SHA-256 checked against the record, and only then
renamed into place; a file already cached is used when its size and hash still match the record (checked once per
process), else fetched again. The cache is data: the loaders check it as they check an embedded store's files, and
nothing in it is ever executed. A record of another format or tokenizer (written by another version) is refused,
as is a copy whose bytes do not match its record, naming the command that writes it again.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from lexgraph.documents.datafiles import replaced
from lexgraph.errors import InputError
from lexgraph.index.anchors import ANCHOR_FILE, ANCHORS_FORMAT, FIELD_FILE, FIELD_FORMAT
from lexgraph.index.tokenize import TOKENIZER_VERSION
from lexgraph.store.base import GraphStore
from lexgraph.store.rows import (
    DATABASE_IDENTITY,
    INDEX_FILE_CHUNK_SIZES,
    INDEX_FILE_CHUNKS,
    INDEX_FILES,
    IndexFilesRow,
)

#: Bytes per chunk node: small enough for one transaction on a server with a 1 GiB heap, few enough that the
#: whole archive's field (108 MB) is 26 of them.
CHUNK_BYTES = 4 << 20
#: The largest file a fetch accepts: a record is the database's word, not ours, and one that claims more would fill
#: the disk (the whole 2020 archive's field is 108 MB).
MAX_FILE_BYTES = 2 << 30
#: Chunks read per query when a file is fetched: bounds the memory a fetch holds (32 MB) whatever the file's size.
_CHUNKS_PER_READ = 8
#: The files kept this way and the format each must be in: the version of lexgraph reading them reads these.
FORMATS: Mapping[str, str] = {FIELD_FILE: FIELD_FORMAT, ANCHOR_FILE: ANCHORS_FORMAT}
#: The command that writes each file again on a Neo4j store.
REWRITE: Mapping[str, str] = {
    FIELD_FILE: "build it again with `lexgraph index --rebuild-anchors --store URI` (or copy an embedded store "
                "that has it: `lexgraph copy --to URI`)",
    ANCHOR_FILE: "build it again with `lexgraph index --anchors DIR --store URI` (or copy an embedded store that "
                 "has it: `lexgraph copy --to URI`)",
}
ANCHOR_CACHE_ENV = "LEXGRAPH_ANCHOR_CACHE"


@dataclass(frozen=True)
class StoredFile:
    """One file's record in the database."""

    name: str
    sha256: str
    size: int
    chunks: int
    format: str
    tokenizer: str
    graph: str | None

    @classmethod
    def of(cls, row: IndexFilesRow) -> StoredFile:
        return cls(str(row.name), str(row.sha256 or ""), int(row.size or 0), int(row.chunks or 0),
                   str(row.format or ""), str(row.tokenizer or ""), None if row.graph is None else str(row.graph))


def stored_files(store: GraphStore) -> dict[str, StoredFile]:
    """The records of the files kept in the database, by name (only names this version keeps: `FORMATS`)."""
    return {row.name: StoredFile.of(row) for row in store.rows(INDEX_FILES) if row.name in FORMATS}


def file_sha256(path: Path) -> str:
    """The SHA-256 of the file at `path`, read in blocks (a kept file is up to `MAX_FILE_BYTES`)."""
    with open(path, "rb") as data:
        return hashlib.file_digest(data, "sha256").hexdigest()


def put_file(store: GraphStore, path: Path, *, name: str, format: str, graph: str | None = None) -> StoredFile:
    """Keep the file at `path` in the database as `name`, replacing what was kept under that name (see the module's
    docstring for why a killed write leaves the file kept before). Returns its record."""
    if name not in FORMATS:
        raise ValueError(f"not a file kept in the database: {name!r}")
    sha256, size = file_sha256(path), path.stat().st_size
    chunks = -(-size // CHUNK_BYTES)
    with open(path, "rb") as source:
        for seq in range(chunks):
            data = source.read(CHUNK_BYTES)
            with store.transaction() as tx:
                tx.query("index_file_chunk_write", name=name, sha256=sha256, seq=seq, data=data)
    record = StoredFile(name, sha256, size, chunks, format, TOKENIZER_VERSION, graph)
    with store.transaction() as tx:
        tx.query("index_file_record", name=name, sha256=sha256, size=size, chunks=chunks, format=format,
                 tokenizer=TOKENIZER_VERSION, graph=graph,
                 written_at=datetime.now(UTC).isoformat(timespec="seconds"))
    with store.transaction() as tx:
        tx.query("index_file_prune", name=name, sha256=sha256)
    return record


def anchor_cache_root() -> Path:
    """Where files fetched from a database are cached: ``LEXGRAPH_ANCHOR_CACHE``, else the user's cache."""
    chosen = os.environ.get(ANCHOR_CACHE_ENV)
    return Path(chosen).expanduser() if chosen else Path.home() / ".cache" / "lexgraph" / "anchors"


def resume_root(store: GraphStore, root: Path | None = None) -> Path:
    """The local folder where a build of the statutes' field on this database keeps each law's anchors until the
    field is written into it (`index.anchors.AnchorSpill`, one folder per state of the graph inside), so that a
    build killed half-way continues: a server store has no folder of its own beside its index. Under the cache's
    root (`anchor_cache_root`), named by the database's identity (its id and name, read from the server), so that
    the work kept for one database is never read back by a build on another."""
    identity = "\0".join(f"{row.id}\0{row.name}" for row in store.rows(DATABASE_IDENTITY))
    key = hashlib.sha256((identity or str(store.location)).encode()).hexdigest()[:24]
    return (root or anchor_cache_root()) / "builds" / key


#: (path, inode, size, mtime) of cached files whose SHA-256 this process has checked against their record.
_CHECKED: dict[tuple[str, int, int, int], str] = {}


def fetch_files(store: GraphStore, files: Sequence[StoredFile], root: Path | None = None) -> Path:
    """A local folder holding `files` as the database keeps them, fetched when not cached: the folder is named by
    the files' hashes, so a file written again is fetched into a new folder and a search never reads a stale one.
    Raises `InputError` naming the file, what is wrong and the fix when a record is of another format or
    tokenizer, or the database's copy is damaged (chunks missing, or bytes whose hash is not the record's)."""
    folder = cache_folder(files, root)
    fetch_into(store, files, folder, keep_cached=True)
    return folder


def cache_folder(files: Sequence[StoredFile], root: Path | None = None) -> Path:
    """The cache folder of `files` as a search names it: under `root` (else `anchor_cache_root`), keyed by the
    files' names and hashes."""
    key = hashlib.sha256("".join(f"{f.name}\0{f.sha256}\0" for f in sorted(files, key=lambda f: f.name))
                         .encode()).hexdigest()[:32]
    return (root or anchor_cache_root()) / key


def is_cached(files: Sequence[StoredFile], record: StoredFile, root: Path | None = None) -> bool:
    """Whether a search's local cache already holds `record` (one of `files`, the set a search fetches together)
    with its size and hash: what `lexgraph doctor` says, since a first search fetches what is not."""
    return _cached(cache_folder(files, root) / record.name, record)


def fetch_into(store: GraphStore, files: Sequence[StoredFile], folder: Path, *, keep_cached: bool = False) -> None:
    """Write `files` as the database keeps them into `folder`, each checked against its record (chunk sequence,
    size, SHA-256) before it is renamed into place: what `lexgraph copy` carries out of a Neo4j store, and what
    `fetch_files` fills its cache with. With `keep_cached`, a file already in `folder` with its record's size and
    hash is kept, not fetched again (the cache); without, every file is fetched, whatever the folder holds. Every
    record is checked before anything is fetched. Raises `InputError` as `fetch_files` does."""
    for record in files:
        refuse_unreadable(store, record)
    folder.mkdir(parents=True, exist_ok=True)
    for record in files:
        if not (keep_cached and _cached(folder / record.name, record)):
            _fetch(store, record, folder)


def refuse_unreadable(store: GraphStore, record: StoredFile) -> None:
    """`InputError` when the record is stale (`refuse_stale`) or claims a size no file written by lexgraph has."""
    refuse_stale(store, record)
    if not 0 <= record.size <= MAX_FILE_BYTES or record.chunks != -(-record.size // CHUNK_BYTES):
        raise InputError(f"{store.location}: the anchor field's {record.name} kept in the database has a record "
                         f"of {record.size} bytes in {record.chunks} chunks, which no file written by lexgraph "
                         f"has (at most {MAX_FILE_BYTES} bytes, {CHUNK_BYTES} a chunk); {REWRITE[record.name]}")


def written_as_now(record: StoredFile) -> bool:
    """Whether the record says its file is of the format and tokenizer this version of lexgraph writes."""
    return record.format == FORMATS[record.name] and record.tokenizer == TOKENIZER_VERSION


def refuse_stale(store: GraphStore, record: StoredFile) -> None:
    """`InputError` when the record says the file was written by a version of lexgraph that writes it otherwise."""
    expected = FORMATS[record.name]
    if not written_as_now(record):
        raise InputError(f"{store.location}: the anchor field's {record.name} kept in the database is of format "
                         f"{record.format!r}, tokenised by {record.tokenizer!r}; this version reads {expected!r}, "
                         f"tokenised by {TOKENIZER_VERSION!r}: {REWRITE[record.name]}")


def chunks_problem(store: GraphStore, record: StoredFile) -> str | None:
    """What is wrong with the chunks the database keeps for `record`, read by their sizes and not their bytes (a
    chunk missing, one of more bytes than a chunk holds, or chunks whose sizes do not add up to the record's), or
    None when they are whole. Their hash is checked only by a fetch, which reads the bytes."""
    sizes = {int(row.seq): int(row.size or 0) for row in store.rows(INDEX_FILE_CHUNK_SIZES, name=record.name,
                                                                   sha256=record.sha256)}
    missing = [seq for seq in range(record.chunks) if seq not in sizes]
    if missing:
        return f"chunk {missing[0]} of {record.chunks} is missing" + (
            f", and {len(missing) - 1} more" if len(missing) > 1 else "")
    if len(sizes) > record.chunks:
        return f"it has {len(sizes)} chunks, its record says {record.chunks}"
    if any(size > CHUNK_BYTES for size in sizes.values()):
        return f"a chunk holds more than {CHUNK_BYTES} bytes"
    if sum(sizes.values()) != record.size:
        return f"its chunks hold {sum(sizes.values())} bytes, its record says {record.size}"
    return None


def _cached(path: Path, record: StoredFile) -> bool:
    """Whether `path` is a regular file of the record's size and hash (the hash computed once per process for a
    file that has not changed since)."""
    try:
        status = path.lstat()
    except OSError:
        return False
    if not path.is_file() or path.is_symlink() or status.st_size != record.size:
        return False
    key = (str(path), status.st_ino, status.st_size, status.st_mtime_ns)
    found = _CHECKED.get(key)
    if found is None:
        found = _CHECKED[key] = file_sha256(path)
    return found == record.sha256


def _fetch(store: GraphStore, record: StoredFile, folder: Path) -> None:
    """Read the record's chunks into a temporary file in `folder`, check them, and rename it into place."""

    def refuse(what: str) -> InputError:
        return InputError(f"{store.location}: the anchor field's {record.name} kept in the database is damaged "
                          f"({what}); {REWRITE[record.name]}")

    digest = hashlib.sha256()
    size = 0
    expected_seq = 0
    with replaced(folder / record.name) as out:
        for first in range(0, record.chunks, _CHUNKS_PER_READ):
            last = min(first + _CHUNKS_PER_READ, record.chunks) - 1
            for row in store.rows(INDEX_FILE_CHUNKS, name=record.name, sha256=record.sha256, first=first,
                                  last=last):
                if int(row.seq) != expected_seq:
                    raise refuse(f"chunk {expected_seq} of {record.chunks} is missing")
                data = bytes(row.data or b"")
                if len(data) > CHUNK_BYTES or size + len(data) > record.size:
                    raise refuse(f"chunk {expected_seq} holds {len(data)} bytes, more than its record allows")
                digest.update(data)
                size += len(data)
                out.write(data)
                expected_seq += 1
        if expected_seq != record.chunks:
            raise refuse(f"chunk {expected_seq} of {record.chunks} is missing")
        if size != record.size:
            raise refuse(f"its chunks hold {size} bytes, its record says {record.size}")
        if digest.hexdigest() != record.sha256:
            raise refuse("its bytes' SHA-256 is not its record's")
