"""The embedded backend's search indexes: files beside the graph, rebuilt from it.

Layout of ``<store>/index/``:
- ``manifest.json``: the format, the tokenizer and embedder the index was built with, and each part's fingerprint
  (see `units.part_fingerprints`), which is how `doctor` tells a stale part;
- ``parts/<part>.parquet``: a part's units and their Sudachi tokens; ``parts/<part>.npy``: their embeddings, row
  for row. These are the durable product of `lexgraph index`; refreshing a part re-tokenises only changed units
  and re-embeds only text the embedding cache has not seen;
- ``bm25/``: a tantivy index over every part (``whitespace`` tokenizer over the pre-computed tokens, so BM25 means
  what Neo4j's full-text index over the same tokens means), rebuilt from the part files in seconds;
- ``vectors.usearch``: an HNSW graph over every embedding, built only when the collection is larger than
  `EXACT_LIMIT`. Below it, and whenever a filter leaves few candidates, search is exact (a dot product per row);
- ``rows.parquet``: every part's filter columns (uid, path, laws, validity, whether the row has a vector) in one
  file, which is what opening the index reads (`build_rows`): the whole archive has 8,502 parts, and reading them
  one by one made the first search of a process wait for all of them.

A unit without a vector (a 附則 clause, unless the index was built with them: `units.has_vector`) keeps its row
in its part's ``.npy`` as zeros, so that the rows stay aligned with the part's units; it is in neither the HNSW
graph nor the exact search, and `vectors_of` does not return it. BM25 finds it as any other.

Why files and not ``tokens``/``embedding`` properties in LadybugDB, as in Neo4j: the engine's own full-text and
vector extensions download at run time (which fails offline), so the indexes live outside the engine anyway, and
keeping 1.6 M × 384 floats in the graph as well would double the store for nothing.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import date
from functools import cached_property, partial
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from lexgraph.errors import IndexUnavailable
from lexgraph.index.law_terms import LawTermsReader, LawVocabulary, TermCounts, collection_of, count_terms
from lexgraph.index.parts import now as now  # re-exported: when a part was built
from lexgraph.index.query import LABELS, IndexHit, IndexKind, SearchFilter, UnitBatch, UnitColumns
from lexgraph.index.tokenize import TOKENIZER_VERSION
from lexgraph.index.units import (
    IndexUnit,
    UnitKind,
    article_path,
    law_part,
    natural_path,
    part_law_id,
    unit_from_row,
    unit_row,
)
from lexgraph.model import ANY_WORDING
from lexgraph.statutes.timeline import provision_law_id

FORMAT = 1
#: Above this many vectors an HNSW index answers unfiltered and loosely filtered searches.
EXACT_LIMIT = 100_000
TIE_MARGIN = 50
"""BM25 hits read past the k-th, so that a tie across the k-th place is ordered by uid like the rest."""
ROWS_FILE = "rows.parquet"
_ROW_COLUMNS = ("uid", "path", "laws", "valid_from", "valid_until")
_HAS_VECTOR = "vector"  # rows.parquet's column: whether the row has a vector (absent in older files: all have)
_EPOCH_ORDINAL = date(1970, 1, 1).toordinal()  # date32 counts days from 1970-01-01; the filters count ordinals
_NO_START = -(2**31)
_NO_END = 2**31 - 1
_UNIT_SCHEMA = pa.schema([
    ("uid", pa.string()), ("label", pa.string()), ("part", pa.string()), ("law_id", pa.string()),
    ("laws", pa.list_(pa.string())), ("path", pa.string()), ("title", pa.string()), ("text", pa.string()),
    ("owner_uid", pa.string()), ("owner_kind", pa.string()), ("valid_from", pa.date32()),
    ("valid_until", pa.date32()), ("tokens", pa.string()),
])


def index_directory(store_directory: str | os.PathLike[str]) -> Path:
    return Path(store_directory) / "index"


def part_file_stem(part: str) -> str:
    """Part names hold ``:``; file names get ``_`` (law ids are ASCII letters and digits)."""
    return part.replace(":", "_")


@dataclass(frozen=True)
class PartInfo:
    fingerprint: str
    rows: int
    built_at: str


@dataclass(frozen=True)
class Manifest:
    tokenizer: str
    embedder: str
    dim: int
    parts: Mapping[str, PartInfo]
    format: int = FORMAT
    #: Whether 附則 clauses have vectors (`units.has_vector`); an index written before this was recorded has them.
    suppl_vectors: bool = True

    @classmethod
    def read(cls, directory: Path) -> Manifest | None:
        """The manifest in `directory`, None if there is none. Read once per process while the file is unchanged
        (its inode, size and times; `write` replaces it with a new file and forgets it): a first search read the
        whole archive's, 8,502 parts and 1.1 MB, three times (the embedder it names, the index, the stale-part
        check). Its parts are a read-only mapping, since every reader gets the same one."""
        path = directory / "manifest.json"
        if not path.is_file():
            return None
        try:
            status = path.stat()
            key = (status.st_ino, status.st_size, status.st_mtime_ns, status.st_ctime_ns)
            known = _MANIFESTS.get(str(path.absolute()))
            if known is not None and known[0] == key:
                return known[1]
            raw = json.loads(path.read_text(encoding="utf-8"))
            manifest = cls(tokenizer=raw["tokenizer"], embedder=raw["embedder"], dim=int(raw["dim"]),
                           parts=MappingProxyType({name: PartInfo(**info) for name, info in raw["parts"].items()}),
                           format=int(raw["format"]), suppl_vectors=bool(raw.get("suppl_vectors", True)))
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise IndexUnavailable(f"{path} is unreadable ({err}); rebuild it with `lexgraph index --rebuild`"
                                   ) from None
        _MANIFESTS[str(path.absolute())] = (key, manifest)
        return manifest

    def write(self, directory: Path) -> None:
        payload = {"format": self.format, "tokenizer": self.tokenizer, "embedder": self.embedder, "dim": self.dim,
                   "suppl_vectors": self.suppl_vectors,
                   "parts": {name: vars(info) for name, info in sorted(self.parts.items())}}
        _MANIFESTS.pop(str((directory / "manifest.json").absolute()), None)  # this process reads it anew
        _atomic_write(directory / "manifest.json", json.dumps(payload, ensure_ascii=False, indent=1).encode())

    def compatible(self, embedder: str | None = None) -> bool:
        """Readable by this version (format and tokenizer), and built with `embedder` when one is named."""
        return (self.format == FORMAT and self.tokenizer == TOKENIZER_VERSION
                and (embedder is None or self.embedder == embedder))


_MANIFESTS: dict[str, tuple[tuple[int, int, int, int], Manifest]] = {}  # a manifest's path → (its file's key, it read)


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


@contextmanager
def index_lock(directory: Path) -> Iterator[None]:
    """One index build at a time per store; a second one gets a clear error instead of mixing files."""
    import fcntl

    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise IndexUnavailable(f"another `lexgraph index` is building {directory}; wait for it to finish") from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# -- part files ---------------------------------------------------------------------------------------------------
def write_part(directory: Path, part: str, units: Sequence[IndexUnit], tokens: Sequence[str],
               vectors: np.ndarray) -> None:
    parts = directory / "parts"
    parts.mkdir(parents=True, exist_ok=True)
    stem = part_file_stem(part)
    rows = [unit_row(u) | {"tokens": t} for u, t in zip(units, tokens, strict=True)]
    table = pa.Table.from_pylist(rows, schema=_UNIT_SCHEMA)
    tmp = parts / f"{stem}.parquet.tmp"
    pq.write_table(table, tmp)
    os.replace(tmp, parts / f"{stem}.parquet")
    with open(parts / f"{stem}.npy.tmp", "wb") as handle:
        np.save(handle, np.ascontiguousarray(vectors, dtype=np.float32))
    os.replace(parts / f"{stem}.npy.tmp", parts / f"{stem}.npy")
    if part_law_id(part) is not None:
        counted = count_terms(tokens)
        _atomic_write(law_terms_path(directory, part),
                      json.dumps({"total": counted.total, "counts": counted.counts}, ensure_ascii=False).encode())


def read_part_units(directory: Path, part: str, columns: Sequence[str] | None = None) -> pa.Table:
    path = directory / "parts" / f"{part_file_stem(part)}.parquet"
    try:
        return pq.read_table(path, columns=list(columns) if columns else None)
    except (OSError, pa.ArrowException) as err:
        raise IndexUnavailable(f"{path} is missing or damaged ({err}); run `lexgraph index --rebuild`") from None


def read_part_vectors(directory: Path, part: str) -> np.ndarray:
    path = directory / "parts" / f"{part_file_stem(part)}.npy"
    try:
        return np.load(path, mmap_mode="r")
    except (OSError, ValueError) as err:
        raise IndexUnavailable(f"{path} is missing or damaged ({err}); run `lexgraph index --rebuild`") from None


def remove_part(directory: Path, part: str) -> None:
    for suffix in (".parquet", ".npy", ".terms.json"):
        (directory / "parts" / f"{part_file_stem(part)}{suffix}").unlink(missing_ok=True)


def old_tokens(directory: Path, part: str) -> dict[str, tuple[tuple[str, str], str]]:
    """A part's stored ((title, text), tokens) by uid, so that a refresh tokenises only what changed: the tokens
    are those of the heading and the text (`IndexUnit.search_text`), so a new caption changes them too."""
    try:
        table = read_part_units(directory, part, ["uid", "title", "text", "tokens"])
    except IndexUnavailable:
        return {}
    columns = [table.column(c).to_pylist() for c in ("uid", "title", "text", "tokens")]
    return {uid: ((title, text), tokens) for uid, title, text, tokens in zip(*columns, strict=True)}


# -- building the searchable structures -----------------------------------------------------------------------
def _tantivy_schema() -> Any:
    import tantivy

    builder = tantivy.SchemaBuilder()
    builder.add_text_field("uid", stored=True, tokenizer_name="raw")
    builder.add_text_field("label", stored=False, tokenizer_name="raw")
    builder.add_text_field("laws", stored=False, tokenizer_name="raw")
    builder.add_text_field("tokens", stored=False, tokenizer_name="whitespace", index_option="freq")
    builder.add_integer_field("from_day", stored=False, indexed=True, fast=True)
    builder.add_integer_field("until_day", stored=False, indexed=True, fast=True)
    builder.add_bytes_field("unit", stored=True, indexed=False)
    return builder.build()


def _day(value: date | None, default: int) -> int:
    return default if value is None else value.toordinal()


def build_bm25(directory: Path, parts: Iterable[str]) -> None:
    """Rebuild ``bm25/`` from the part files, in a new folder swapped in at the end."""
    import tantivy

    target = directory / "bm25"
    fresh = directory / "bm25.new"
    shutil.rmtree(fresh, ignore_errors=True)
    fresh.mkdir(parents=True)
    index = tantivy.Index(_tantivy_schema(), path=str(fresh))
    writer = index.writer(heap_size=128_000_000, num_threads=1)
    for part in parts:
        table = read_part_units(directory, part)
        for row in table.to_pylist():
            doc = tantivy.Document()
            doc.add_text("uid", row["uid"])
            doc.add_text("label", row["label"])
            for law in row["laws"] or ():
                doc.add_text("laws", law)
            doc.add_text("tokens", row["tokens"])
            doc.add_integer("from_day", _day(row["valid_from"], _NO_START))
            doc.add_integer("until_day", _day(row["valid_until"], _NO_END))
            unit = {k: v for k, v in row.items() if k != "tokens"}
            doc.add_bytes("unit", json.dumps(unit, default=_iso, ensure_ascii=False).encode())
            writer.add_document(doc)
    writer.commit()
    writer.wait_merging_threads()
    old = directory / "bm25.old"
    shutil.rmtree(old, ignore_errors=True)
    if target.exists():
        os.replace(target, old)
    os.replace(fresh, target)
    shutil.rmtree(old, ignore_errors=True)


def law_terms_path(directory: Path, part: str) -> Path:
    return directory / "parts" / f"{part_file_stem(part)}.terms.json"


def read_law_terms(path: Path) -> TermCounts | None:
    """A law part's term counts, or None when the part has none (built before them)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as err:
        raise IndexUnavailable(f"{path} is damaged ({err}); run `lexgraph index --rebuild`") from None
    return TermCounts(data["counts"], int(data["total"]))


def build_collection_terms(directory: Path, parts: Iterable[str]) -> None:
    """``terms.json``: every law part's term counts summed, the background of the law-level evidence. Written
    whenever the parts change, so a search reads one file, and each candidate law's own file, not every law's."""
    by_law = {part: counted for part in parts if part_law_id(part) is not None
              and (counted := read_law_terms(law_terms_path(directory, part))) is not None}
    collection = collection_of(by_law)
    _atomic_write(directory / "terms.json", json.dumps({"total": collection.total, "counts": collection.counts},
                                                       ensure_ascii=False).encode())


def build_hnsw(directory: Path, parts: Sequence[str], dim: int) -> None:
    """The HNSW graph over every vector, keyed by global row (parts in manifest order); only for large sets."""
    from usearch.index import Index

    path = directory / "vectors.usearch"
    total = sum(read_part_vectors(directory, p).shape[0] for p in parts)
    if total <= EXACT_LIMIT:
        path.unlink(missing_ok=True)
        return
    hnsw = Index(ndim=dim, metric="ip", dtype="f32")
    offset = 0
    for part in parts:
        vectors = np.asarray(read_part_vectors(directory, part), dtype=np.float32)
        kept = np.flatnonzero(vector_rows(vectors))  # a unit without a vector is not a neighbour of anything
        if len(kept):
            hnsw.add((offset + kept).astype(np.uint64), vectors[kept], threads=1)
        offset += len(vectors)
    tmp = directory / "vectors.usearch.tmp"
    hnsw.save(str(tmp))
    os.replace(tmp, path)


def build_rows(directory: Path, parts: Sequence[str]) -> None:
    """``rows.parquet``: the filter columns of every part in `parts` (sorted, as the manifest lists them), one
    after another, with the part each row belongs to. Opening the index reads this one file instead of a file a
    part; a part's rows in it are checked against the manifest's count, and an index without it (or with a stale
    one) is read part by part as before."""
    tables = []
    for part in parts:
        table = read_part_units(directory, part, _ROW_COLUMNS)
        table = table.append_column("part", pa.array([part] * table.num_rows, pa.string()))
        tables.append(table.append_column(_HAS_VECTOR, pa.array(vector_rows(read_part_vectors(directory, part)))))
    schema = pa.schema([*(_UNIT_SCHEMA.field(c) for c in _ROW_COLUMNS), ("part", pa.string()),
                        (_HAS_VECTOR, pa.bool_())])
    table = pa.concat_tables(tables) if tables else schema.empty_table()
    tmp = directory / f"{ROWS_FILE}.tmp"
    pq.write_table(table, tmp)
    os.replace(tmp, directory / ROWS_FILE)


def _read_rows(directory: Path, names: Sequence[str], counts: Sequence[int]) -> dict[str, Any] | None:
    """The columns of ``rows.parquet`` when it holds exactly `names` with `counts` rows each, in that order; None
    when it is absent or was written for other parts (an index refreshed by an older version). The uid, path and
    laws columns stay Arrow arrays: a part's are made Python values when a search first reads them
    (`_PartRows`), since turning all 707,593 rows of the whole archive into strings cost half a second of the
    first search."""
    path = directory / ROWS_FILE
    try:  # a ParquetFile, not read_table: that imports pyarrow.dataset and pyarrow.compute, 0.1 s of a first search
        with pq.ParquetFile(path, read_dictionary=["part"]) as rows_file:
            table = rows_file.read()
    except (OSError, pa.ArrowException):  # absent or damaged: the parts are read one by one
        return None
    if table.num_rows != sum(counts) or table.column_names[:len(_ROW_COLUMNS) + 1] != [*_ROW_COLUMNS, "part"]:
        return None
    starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    if not _parts_in_order(table.column("part"), names, counts):
        return None
    return {
        "uid": table.column("uid").combine_chunks(), "path": table.column("path").combine_chunks(),
        "laws": table.column("laws").combine_chunks(),
        "from_day": _ordinals(table.column("valid_from"), _NO_START),
        "until_day": _ordinals(table.column("valid_until"), _NO_END),
        "starts": starts,
        "vector": (table.column(_HAS_VECTOR).to_numpy().astype(bool) if _HAS_VECTOR in table.column_names
                   else np.ones(table.num_rows, dtype=bool)),
    }


def vector_rows(vectors: np.ndarray) -> np.ndarray:
    """Which rows of a part's vectors are vectors: a unit embedded by no one is stored as a row of zeros (an
    embedding is a unit vector, never zero)."""
    return np.asarray(np.any(vectors != 0, axis=1), dtype=bool) if len(vectors) else np.zeros(0, dtype=bool)


def _parts_in_order(column: pa.ChunkedArray, names: Sequence[str], counts: Sequence[int]) -> bool:
    """Whether the part column holds `names[0]` `counts[0]` times, then `names[1]` `counts[1]` times, …: every
    row checked, as one comparison of the column's dictionary codes against the codes the names should have."""
    dictionary_column = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    if not pa.types.is_dictionary(dictionary_column.type) or dictionary_column.null_count:
        return False
    code_of = {name: code for code, name in enumerate(dictionary_column.dictionary.to_pylist())}
    wanted = np.fromiter((code_of.get(name, -1) for name in names), dtype=np.int64, count=len(names))
    if len(wanted) and wanted.min() < 0:
        return False
    codes = dictionary_column.indices.to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
    return bool(np.array_equal(codes, np.repeat(wanted, np.asarray(counts, dtype=np.int64))))


def _ordinals(column: pa.ChunkedArray, default: int) -> np.ndarray:
    """A date32 column as date ordinals (`date.toordinal`), `default` where the date is unknown: converted by
    numpy (days since 1970, NaT where unknown), without pyarrow.compute, which a search need not import."""
    days = column.to_numpy()
    known = ~np.isnat(days)
    return np.where(known, days.astype(np.int64) + _EPOCH_ORDINAL, np.int64(default)).astype(np.int64)


class _ColumnSlices(Mapping[str, pa.Array]):
    """One part's rows of the whole index's uid, path and laws columns (`_read_rows`), sliced when read."""

    def __init__(self, rows: Mapping[str, Any], offset: int, count: int) -> None:
        self._rows, self._offset, self._count = rows, offset, count

    def __getitem__(self, column: str) -> pa.Array:
        return self._rows[column].slice(self._offset, self._count)

    def __iter__(self) -> Iterator[str]:
        return iter(("uid", "path", "laws"))

    def __len__(self) -> int:
        return 3


def _iso(value: object) -> str:
    if isinstance(value, date):
        return value.isoformat()
    raise TypeError(f"cannot encode {value!r}")


def _unit_from_json(data: bytes) -> IndexUnit:
    raw = json.loads(data)
    for key in ("valid_from", "valid_until"):
        raw[key] = date.fromisoformat(raw[key]) if raw[key] else None
    return unit_from_row(raw)


# -- searching ----------------------------------------------------------------------------------------------------
class _PartRows:
    """What a vector search filters on, for one part, row-aligned with its vectors. The days are numpy views of
    the whole index's columns; the uids, paths and laws are read from `columns` (the Arrow columns of the part's
    rows) when first asked for: a search reads those of a few parts, and the whole archive has 8,502."""

    def __init__(self, name: str, offset: int, count: int, from_day: np.ndarray, until_day: np.ndarray,
                 columns: Mapping[str, pa.Array], has_vector: np.ndarray) -> None:
        self.name = name
        self.offset = offset
        self.count = count
        self.from_day = from_day
        self.until_day = until_day
        self.has_vector = has_vector
        self.law_id = part_law_id(name)
        self.label = "Provision" if self.law_id is not None else "Chunk"
        self._columns = columns

    @cached_property
    def uids(self) -> tuple[str, ...]:
        return tuple(self._columns["uid"].to_pylist())

    @cached_property
    def paths(self) -> tuple[str, ...]:
        return tuple(self._columns["path"].to_pylist())

    @cached_property
    def laws(self) -> tuple[tuple[str, ...], ...]:
        """Each row's laws: a law's clauses belong to it alone; only the chunks' laws are read from the column."""
        if self.law_id is not None:
            return ((self.law_id,),) * self.count
        return tuple(tuple(x or ()) for x in self._columns["laws"].to_pylist())

    @cached_property
    def row_of(self) -> dict[str, int]:
        return {uid: row for row, uid in enumerate(self.uids)}


def _parts_one_by_one(directory: Path, names: Sequence[str]) -> list[_PartRows]:
    """Every part's filter columns read from its own file: an index written before ``rows.parquet``."""
    parts = []
    offset = 0
    for name in names:
        table = read_part_units(directory, name, _ROW_COLUMNS)
        parts.append(_PartRows(
            name, offset, table.num_rows, _ordinals(table.column("valid_from"), _NO_START),
            _ordinals(table.column("valid_until"), _NO_END),
            {c: table.column(c).combine_chunks() for c in ("uid", "path", "laws")},
            vector_rows(read_part_vectors(directory, name))))
        offset += table.num_rows
    return parts


class LocalIndex:
    """Search over ``<store>/index``: BM25 through tantivy, vectors exact (numpy) or through usearch."""

    def __init__(self, directory: Path) -> None:
        import tantivy

        self.directory: Path = directory
        manifest = Manifest.read(directory)
        if manifest is None or not (directory / "bm25").is_dir():
            raise IndexUnavailable(f"no search index in {directory}; build it with `lexgraph index`")
        if not manifest.compatible():
            raise IndexUnavailable(f"the index in {directory} was built by another version (format {manifest.format}, "
                                   f"tokenizer {manifest.tokenizer}); rebuild it with `lexgraph index --rebuild`")
        self.manifest = manifest
        self.embedder_name = manifest.embedder
        self._schema = _tantivy_schema()
        try:
            self._tantivy = tantivy.Index.open(str(directory / "bm25"))
        except ValueError as err:
            raise IndexUnavailable(f"{directory / 'bm25'} is damaged ({err}); run `lexgraph index --rebuild`") from None
        self._searcher = self._tantivy.searcher()
        self._parts: list[_PartRows] = []
        self._vectors: dict[str, np.ndarray] = {}  # a part's vectors, mapped when a search first reads them
        names = sorted(manifest.parts)
        rows = _read_rows(directory, names, [manifest.parts[name].rows for name in names])
        if rows is None:
            self._parts = _parts_one_by_one(directory, names)
        else:
            starts = rows["starts"].tolist()
            for name, start, end in zip(names, starts[:-1], starts[1:], strict=True):
                self._parts.append(_PartRows(
                    name, start, end - start, rows["from_day"][start:end], rows["until_day"][start:end],
                    _ColumnSlices(rows, start, end - start), rows["vector"][start:end]))
        self._starts = np.array([part.offset for part in self._parts], dtype=np.int64)
        self._ends = self._starts + np.array([part.count for part in self._parts], dtype=np.int64)
        self._total = int(self._ends[-1]) if self._parts else 0
        self._chunk_parts = [part for part in self._parts if part.law_id is None]
        self._from_all = np.concatenate([p.from_day for p in self._parts]) if self._parts else np.empty(0, np.int64)
        self._until_all = (np.concatenate([p.until_day for p in self._parts]) if self._parts
                           else np.empty(0, np.int64))
        vectors = np.concatenate([p.has_vector for p in self._parts]) if self._parts else np.empty(0, bool)
        self._vector_rows: np.ndarray | None = None if vectors.all() else vectors  # None: every row has one
        self._label_rows: dict[str, np.ndarray] = {}  # a label → which rows have it (built on first use)
        self._label_docs: dict[str, int] = {}  # a label → how many BM25 documents have it (counted on first use)
        self._part_by_name = {part.name: part for part in self._parts}
        self._articles: dict[str, dict[str, tuple[int, ...]]] = {}  # part → article → rows (`articles_of`)
        self._law_terms = LawTermsReader(  # only the hybrid search needs them
            lambda: read_law_terms(directory / "terms.json") or TermCounts(), self._read_laws_terms)
        self._hnsw: Any = None
        if (directory / "vectors.usearch").is_file():
            from usearch.index import Index

            self._hnsw = Index.restore(str(directory / "vectors.usearch"), view=True)

    # what it can do (`SearchIndex`) -------------------------------------------------------------------------------
    def lacks(self, kind: IndexKind) -> str | None:
        """Only the anchor field may be missing: a store without citations between clauses, indexed with
        `--no-statute-anchors` or without `--anchors`, has none."""
        if kind == "anchors":
            from lexgraph.index.anchors import ANCHOR_FILE, FIELD_FILE

            if not (self.directory / ANCHOR_FILE).exists() and not (self.directory / FIELD_FILE).exists():
                return ("the index has no anchor field; build it with `lexgraph index` (the statutes' anchors, "
                        "where the store holds citations between clauses) or `lexgraph index --anchors DIR` (a folder "
                        "of judgment texts)")
        return None

    def anchor_directory(self) -> Path:
        """The anchor field's files are kept beside the index's own."""
        return self.directory

    def columns(self) -> UnitColumns:
        """The part files' path columns, read when the index was opened (`articles_of`, `uids_under`,
        `unit_paths`)."""
        return self

    def content(self) -> dict[str, Any]:
        manifest = self.manifest
        return {"embedder": manifest.embedder, "dim": manifest.dim,
                "parts": {name: [info.fingerprint, info.rows] for name, info in sorted(manifest.parts.items())}}

    # text --------------------------------------------------------------------------------------------------------
    def text_search(self, tokens: Sequence[str], k: int, where: SearchFilter) -> list[IndexHit]:
        from tantivy import Occur, Query

        terms = list(dict.fromkeys(t for t in tokens if t))
        if not terms or k < 1 or (where.kind is not None and not self._documents_labelled(LABELS[where.kind])):
            return []
        text = Query.boolean_query([(Occur.Should, Query.term_query(self._schema, "tokens", t)) for t in terms])
        filters = self._tantivy_filters(where)
        query = text if not filters else Query.boolean_query(
            [(Occur.Must, text), (Occur.Must, Query.const_score_query(Query.boolean_query(filters), 0.0))])
        # Equal scores are common (the same words in a clause of two versions, short chunks): they are ordered by
        # uid, as Neo4j's full-text search orders them, so both backends rank alike. The margin lets a tie that
        # straddles the k-th place be ordered too.
        result = self._searcher.search(query, k + TIE_MARGIN)
        hits = []
        for score, address in _within_ties(result.hits, k):
            stored = self._searcher.doc(address)
            raw: bytes = stored["unit"][0]
            hits.append(IndexHit(stored["uid"][0], float(score), partial(_unit_from_json, raw)))
        hits.sort(key=lambda hit: (-hit.score, hit.uid))
        return hits[:k]

    def _tantivy_filters(self, where: SearchFilter) -> list[tuple[Any, Any]]:
        from tantivy import FieldType, Occur, Query

        clauses = []
        if where.kind is not None and self._documents_labelled(LABELS[where.kind]) < self._searcher.num_docs:
            clauses.append((Occur.Must, Query.term_query(self._schema, "label", LABELS[where.kind])))
        if where.laws:
            clauses.append((Occur.Must, Query.term_set_query(self._schema, "laws", list(where.laws))))
        if where.day is not None:
            day = where.day.toordinal()
            clauses.append((Occur.Must, Query.range_query(self._schema, "from_day", FieldType.Integer, None, day)))
            clauses.append((Occur.Must, Query.range_query(self._schema, "until_day", FieldType.Integer, day, None,
                                                          include_lower=False)))
        return clauses

    def _documents_labelled(self, label: str) -> int:
        """How many BM25 documents have `label`. When every document has it (an index of clauses and no chunks, as
        the whole archive's), a filter on it would pass them all, and is left out: not for the time it takes to
        apply, but because any filter makes tantivy score every document the query's terms match, while a query
        of terms alone skips the blocks of documents that cannot reach the best k (block-max WAND): 45 → 22 ms at
        p50 over 707,593 clauses, the same hits with the same scores (docs/search.md, "The whole archive"). When
        none has it, there is nothing to search."""
        from tantivy import Query

        count = self._label_docs.get(label)
        if count is None:  # live documents, counted: a deleted one would still count in the term's frequency
            found: Any = self._searcher.search(Query.term_query(self._schema, "label", label), 1)
            count = self._label_docs[label] = int(found.count)  # (`count` is missing from tantivy's stubs)
        return count

    # vectors -----------------------------------------------------------------------------------------------------
    def vector_search(self, vector: np.ndarray, k: int, where: SearchFilter) -> list[IndexHit]:
        if k < 1:
            return []
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query.shape[0] != self.manifest.dim:
            raise IndexUnavailable(f"query vector has {query.shape[0]} dimensions; the index has {self.manifest.dim} "
                                   f"({self.embedder_name})")
        allowed = self._allowed(where)
        if self._vector_rows is not None:
            allowed &= self._vector_rows
        passing = int(np.count_nonzero(allowed))
        if not passing:  # (a search for chunks in an index of clauses alone)
            return []
        found = None
        if self._hnsw is not None and passing > EXACT_LIMIT:
            found = self._approximate(query, k, allowed)
        if found is None:
            found = self._exact(query, k, self._candidates(allowed))
        return self._hits(found)

    def hybrid_search(self, tokens: Sequence[str], vector: np.ndarray | None, k: int,
                      where: SearchFilter) -> tuple[list[IndexHit], list[IndexHit]]:
        return self.text_search(tokens, k, where), [] if vector is None else self.vector_search(vector, k, where)

    def hybrid_search_kinds(self, tokens: Sequence[str], vector: np.ndarray | None, ks: Mapping[UnitKind, int],
                            where: SearchFilter) -> dict[UnitKind, tuple[list[IndexHit], list[IndexHit]]]:
        """Each kind apart: in process, asking together saves nothing."""
        return {kind: self.hybrid_search(tokens, vector, k, replace(where, kind=kind)) for kind, k in ks.items()}

    def _allowed(self, where: SearchFilter) -> np.ndarray:
        """Which rows of the whole index pass `where`, as one array: computed over all rows at once, since a
        loop over the parts costs the whole archive's 8,502 of them at every search."""
        allowed = np.ones(self._total, dtype=bool)
        if where.kind is not None:
            allowed &= self._with_label(LABELS[where.kind])
        if where.laws:
            of_laws = np.zeros(self._total, dtype=bool)
            for part in self._parts_of(where.laws):
                of_laws[part.offset:part.offset + part.count] = self._mask(part, replace(where, as_of=ANY_WORDING))
            allowed &= of_laws
        if where.day is not None:
            day = where.day.toordinal()
            allowed &= (self._from_all <= day) & (day < self._until_all)
        return allowed

    def _with_label(self, label: str) -> np.ndarray:
        rows = self._label_rows.get(label)
        if rows is None:
            rows = np.zeros(self._total, dtype=bool)
            for part in self._parts:
                if part.label == label:
                    rows[part.offset:part.offset + part.count] = True
            self._label_rows[label] = rows
        return rows

    def _parts_of(self, laws: Iterable[str]) -> list[_PartRows]:
        """The parts that can hold units of `laws`: the laws' own parts, and the chunks (which cite laws)."""
        named = [self._part_by_name.get(law_part(law)) for law in laws]
        return [p for p in named if p is not None] + self._chunk_parts

    def _candidates(self, allowed: np.ndarray) -> list[tuple[_PartRows, np.ndarray]]:
        """The parts with a row in `allowed`, each with its rows' mask (the parts counted in one pass)."""
        running = np.concatenate([[0], np.cumsum(allowed, dtype=np.int64)])
        held = running[self._ends] - running[self._starts]
        out = []
        for i in np.flatnonzero(held).tolist():
            part = self._parts[i]
            out.append((part, allowed[part.offset:part.offset + part.count]))
        return out

    def _part_vectors(self, part: _PartRows) -> np.ndarray:
        vectors = self._vectors.get(part.name)
        if vectors is None:
            vectors = self._vectors[part.name] = read_part_vectors(self.directory, part.name)
        return vectors

    def _uid_at(self, row: int) -> str:
        part = self._parts[int(np.searchsorted(self._starts, row, side="right")) - 1]
        return part.uids[row - part.offset]

    def _may_hold(self, part: _PartRows, where: SearchFilter) -> bool:
        if where.kind is not None and part.label != LABELS[where.kind]:
            return False
        law = part.law_id
        return not (where.laws and law is not None and law not in where.laws)

    def _mask(self, part: _PartRows, where: SearchFilter) -> np.ndarray:
        mask = np.ones(part.count, dtype=bool)
        if where.day is not None:
            day = where.day.toordinal()
            mask &= (part.from_day <= day) & (day < part.until_day)
        if where.laws and part.law_id is None:
            wanted = set(where.laws)
            mask &= np.fromiter((bool(wanted.intersection(laws)) for laws in part.laws), dtype=bool,
                                count=len(part.laws))
        return mask

    def _exact(self, query: np.ndarray, k: int, candidates: Sequence[tuple[_PartRows, np.ndarray]]
               ) -> list[tuple[str, float]]:
        """The k best rows over all parts: every part's rows scored by numpy, then the k best of all of them and
        their ties in one partition (not one a part: a store has a part a law), ties ordered by uid, so that a
        search is repeatable and ranks as on Neo4j."""
        scores: list[np.ndarray] = []
        held: list[tuple[_PartRows, np.ndarray]] = []
        for part, mask in candidates:
            rows = np.flatnonzero(mask)
            if not len(rows):
                continue
            scores.append(_dot(self._part_vectors(part), rows, query))
            held.append((part, rows))
        if not scores:
            return []
        every = np.concatenate(scores)
        starts = np.cumsum([0] + [len(rows) for _, rows in held])
        # only the k best rows and their ties are looked up and sorted in Python
        uids = {}
        for i in _best_with_ties(every, k).tolist():
            j = int(np.searchsorted(starts, i, side="right")) - 1
            part, rows = held[j]
            uids[i] = part.uids[rows[i - starts[j]]]
        order = sorted(uids, key=lambda i: (-every[i], uids[i]))[:k]
        return [(uids[i], float(every[i])) for i in order]

    def _approximate(self, query: np.ndarray, k: int, allowed: np.ndarray) -> list[tuple[str, float]] | None:
        """HNSW with the filter applied to an oversampled result, widened until k pass; None → search exactly."""
        wanted = k * 8
        while wanted <= self._total:
            matches = self._hnsw.search(query, wanted)
            kept: list[tuple[str, float]] = []
            for key, distance in zip(matches.keys, matches.distances, strict=True):
                row = int(key)
                if 0 <= row < self._total and allowed[row]:
                    kept.append((self._uid_at(row), 1.0 - float(distance)))
                    if len(kept) == k:
                        return kept
            if len(matches.keys) < wanted:
                return kept
            wanted *= 4
        return None

    def _hits(self, found: Sequence[tuple[str, float]]) -> list[IndexHit]:
        """Hits whose units are read from tantivy when first used, those still held together in one lookup
        (`UnitBatch`: the fused few, not one term query per hit). The uids come from the part files, which the
        bm25 folder is built from, so every one of them is there."""
        return UnitBatch(self.units_by_uid).hits(found)

    def units_under(self, law_id: str, path: str, where: SearchFilter) -> list[IndexUnit]:
        part = self._part_by_name.get(law_part(law_id))
        if part is None or not self._may_hold(part, where):
            return []
        mask = self._mask(part, where)
        prefix = path + "/"
        uids = [uid for uid, at, ok in zip(part.uids, part.paths, mask, strict=True)
                if ok and (at == path or at.startswith(prefix))]
        units = self.units_by_uid(uids)
        return sorted(units.values(), key=lambda u: (natural_path(u.path), u.uid))

    def articles_of(self, law_id: str) -> Mapping[str, tuple[int, ...]]:
        """A law's articles (``a709``, ``suppl…/a3``) and the rows of their units in its part, from the part's
        path column, built once per law: the learned fusion reads an article's clauses and counts a law's articles
        without reading a unit."""
        part = self._part_by_name.get(law_part(law_id))
        if part is None:
            return {}
        cached = self._articles.get(part.name)
        if cached is None:
            rows: dict[str, list[int]] = {}
            for row, path in enumerate(part.paths):
                rows.setdefault(article_path(path), []).append(row)
            cached = self._articles[part.name] = {article: tuple(r) for article, r in rows.items()}
        return cached

    def uids_under(self, law_id: str, article: str, where: SearchFilter) -> list[str]:
        """The uids of an article's units that pass the filter, in the part's order (`articles_of`)."""
        part = self._part_by_name.get(law_part(law_id))
        rows = self.articles_of(law_id).get(article)
        if part is None or not rows or not self._may_hold(part, where):
            return []
        mask = self._mask(part, where)
        return [part.uids[r] for r in rows if mask[r]]

    def unit_paths(self, uids: Sequence[str]) -> dict[str, str]:
        """Each uid's path, from the part files' path column (no unit read)."""
        out = {}
        for uid in uids:
            found = self._locate(uid)
            if found is not None:
                out[uid] = found[0].paths[found[1]]
        return out

    def _locate(self, uid: str) -> tuple[_PartRows, int] | None:
        """The part and row of a uid: a clause's uid names its law (`provision_law_id`), so only that law's part
        is looked in, then the chunks' parts; a part's uids are put in a dict when first looked up (a dict of
        every uid of the whole archive took 0.4-0.8 s of the first search)."""
        own = self._part_by_name.get(law_part(provision_law_id(uid)))
        for part in ([own] if own is not None else []) + self._chunk_parts:
            row = part.row_of.get(uid)
            if row is not None:
                return part, row
        return None

    def units_by_uid(self, uids: Sequence[str]) -> dict[str, IndexUnit]:
        """The units of some uids, in one search for any of their uid terms: a term-set query would find the same
        documents, but costs 0.3 ms before it finds any (it walks the uid dictionary), twenty term queries 0.1 ms."""
        from tantivy import Occur, Query

        if not uids:
            return {}
        wanted = Query.boolean_query([(Occur.Should, Query.term_query(self._schema, "uid", uid)) for uid in uids])
        result = self._searcher.search(wanted, len(uids))
        units = [_unit_from_json(self._searcher.doc(address)["unit"][0]) for _, address in result.hits]
        return {unit.uid: unit for unit in units}

    def vectors_of(self, uids: Sequence[str]) -> dict[str, np.ndarray]:
        out = {}
        for uid in uids:
            found = self._locate(uid)
            if found is not None and found[0].has_vector[found[1]]:
                out[uid] = np.asarray(self._part_vectors(found[0])[found[1]], dtype=np.float32)
        return out

    def law_vocabulary(self, terms: Sequence[str], laws: Iterable[str]) -> LawVocabulary:
        return self._law_terms.vocabulary(terms, laws)

    def _read_laws_terms(self, laws: Sequence[str]) -> dict[str, TermCounts]:
        parts = {law: law_part(law) for law in laws}
        found = {law: read_law_terms(law_terms_path(self.directory, part))
                 for law, part in parts.items() if part in self._part_by_name}
        return {law: counted for law, counted in found.items() if counted is not None}

    def close(self) -> None:
        self._vectors.clear()
        self._hnsw = None


def _dot(vectors: np.ndarray, rows: np.ndarray, query: np.ndarray) -> np.ndarray:
    """The scores of some rows of a part's vectors. When most rows are wanted (a day's filter leaves nearly all),
    all are scored and the rows picked, rather than the rows copied out first: copying them cost more than
    scoring the rest. A row scores the same bits either way (checked on every row of both benchmark stores).

    einsum, not `@`: a matrix-vector product through BLAS wakes OpenBLAS's thread pool, which then fights the
    embedder's OpenMP threads for the cores (measured: a dense search 2.5x slower on two cores)."""
    if 2 * len(rows) >= len(vectors):
        scores = np.einsum("ij,j->i", vectors, query)
        return scores if len(rows) == len(vectors) else scores[rows]
    return np.einsum("ij,j->i", vectors[rows], query)


def _within_ties(found: Sequence[tuple[float, Any]], k: int) -> list[tuple[float, Any]]:
    """The hits scored at least the k-th best score: the only ones that can be among the k once ties are ordered
    by uid. Those below it are not read (each stored document read costs about 10 µs, and the tie margin holds
    half as many hits again as k)."""
    if len(found) <= k:
        return list(found)
    kth = sorted((score for score, _ in found), reverse=True)[k - 1]
    return [hit for hit in found if hit[0] >= kth]


def _best_with_ties(scores: np.ndarray, k: int) -> np.ndarray:
    """The positions of the `k` best scores and of every score tied with the k-th, so that a tie-break after it
    (by uid) sees all the rows it must choose among; all positions when there are no more than `k`."""
    if len(scores) <= k:
        return np.arange(len(scores))
    kth = np.partition(scores, len(scores) - k)[len(scores) - k]
    return np.flatnonzero(scores >= kth)


def damaged_parts(directory: Path, manifest: Manifest) -> set[str]:
    """The manifest's parts whose files are gone or do not hold the rows it records (a deleted ``.npy``, a
    truncated ``.parquet``): read from the files' headers and footers only, so that `index --status` and
    `doctor` stay fast. Such a part is as good as missing, and `lexgraph index` builds it again."""
    damaged = set()
    for part, info in manifest.parts.items():
        stem = directory / "parts" / part_file_stem(part)
        try:
            units = pq.read_metadata(stem.with_name(stem.name + ".parquet")).num_rows
            vectors = np.load(stem.with_name(stem.name + ".npy"), mmap_mode="r").shape[0]
        except (OSError, ValueError, pa.ArrowException):
            damaged.add(part)
            continue
        terms_missing = part_law_id(part) is not None and not law_terms_path(directory, part).is_file()
        if units != info.rows or vectors != info.rows or terms_missing:
            damaged.add(part)
    return damaged
