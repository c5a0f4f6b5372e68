"""BM25 over the anchor field: each article's document is the deduplicated text of the sentences citing it
(`lexgraph.index.anchors`), each anchor's terms weighted by its source's kind.

Why a field of its own and not more text in the clause's BM25 document: the two speak differently (the statute's
「他人の権利又は法律上保護される利益を侵害した者」 against a judgment's 「不法行為に基づく損害賠償請求」), and a learned
fusion (`retrieve.learned`) weighs them apart.

Two parts, one field. The statutes' anchors (1.5 M on the whole archive) are folded into term-by-article arrays
when the index is built and saved beside it (`write_field`, ``anchor_field.bin``): a search maps that file
(`read_field`) instead of building anything, so opening it costs the header's checks, not the anchors. The
judgments' anchors (thousands) are built in memory from ``anchors.jsonl.gz`` (`AnchorField.build`), because an
evaluation must leave out the judgments it scores (`exclude`), and laid over the saved part: an article's document
is its statute anchors and its judgment anchors together, and BM25's idf, lengths and mean length are those of the
joined field, exactly as one field built from both.
"""

from __future__ import annotations

import json
import mmap
import os
from array import array
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lexgraph.documents.datafiles import open_regular, replaced
from lexgraph.documents.judgment import judgment_key
from lexgraph.errors import InputError
from lexgraph.index.anchors import ANCHOR_FILE, FIELD_FILE, FIELD_FORMAT, Anchor, read_anchors
from lexgraph.index.query import SearchIndex
from lexgraph.index.tokenize import TOKENIZER_VERSION
from lexgraph.retrieve.anchor_bm25 import AnchorHit, add_term, best_rows, length_norms
from lexgraph.retrieve.citing_sentences import CitingSentences

#: Each anchor's terms count this much by its source's kind: a judgment's sentence, and a statute's by the citing
#: law's type (`index.anchors.LAW_TYPE_KINDS`; ``own``: a clause citing another article of its own law). Measured
#: on the judgment benchmark's dev split (docs/search.md). The statutes' weights are applied when the saved field is
#: built (`write_field` records them): after a change, build it again (`lexgraph index --rebuild-anchors`).
KIND_WEIGHTS: Mapping[str, float] = {"judgment": 1.0, "act": 1.0, "order": 1.0, "ordinance": 1.0, "rule": 1.0,
                                     "own": 1.0}
_MAGIC = b"LXANCHOR"
#: A term longer than this (in UTF-8 bytes; a run of katakana or digits Sudachi keeps whole) is left out of the
#: field, so that the terms' array has a narrow fixed width.
MAX_TERM_BYTES = 48
_HEADER_MAX = 1 << 20
_ALIGN = 64
REBUILD_FIELD = "build it again with `lexgraph index --rebuild-anchors`"


@dataclass(frozen=True)
class FieldArrays:
    """One part of the field as arrays: articles sorted by key (``law_id\\tarticle`` in UTF-8), terms sorted, and
    each term's postings (article rows, weighted term frequencies) between ``indptr[t]`` and ``indptr[t + 1]``."""

    keys: np.ndarray  # bytes (S), sorted
    law_of: np.ndarray  # int32: each article's law, an index into `laws`
    laws: tuple[str, ...]
    terms: np.ndarray  # bytes (S), sorted
    indptr: np.ndarray  # int64, len(terms) + 1
    rows: np.ndarray  # int32
    tf: np.ndarray  # float32
    lengths: np.ndarray  # float32: each article's weighted term count
    counts: np.ndarray  # float32: each article's distinct anchors
    sources: frozenset[str]  # the judgments whose anchors are in it (a saved part's are the citing laws, not kept)
    anchors: int

    def posting(self, term: bytes) -> tuple[np.ndarray, np.ndarray] | None:
        if not len(self.terms) or len(term) > self.terms.dtype.itemsize:
            return None
        at = int(np.searchsorted(self.terms, term))
        if at >= len(self.terms) or self.terms[at] != term:
            return None
        start, stop = int(self.indptr[at]), int(self.indptr[at + 1])
        return self.rows[start:stop], self.tf[start:stop]

    def row_of(self, key: bytes) -> int | None:
        if not len(self.keys) or len(key) > self.keys.dtype.itemsize:
            return None
        at = int(np.searchsorted(self.keys, key))
        return at if at < len(self.keys) and self.keys[at] == key else None


def _key(law_id: str, article: str) -> bytes:
    return f"{law_id}\t{article}".encode()


def _unkey(key: bytes) -> tuple[str, str]:
    law_id, _, article = key.decode().partition("\t")
    return law_id, article


def field_arrays(anchors: Iterable[Anchor], *, exclude: Collection[str] = (),
                 weights: Mapping[str, float] = KIND_WEIGHTS, keep_sources: bool = True) -> FieldArrays:
    """The field of `anchors` as arrays, leaving out every anchor whose source is in `exclude` (the judgments an
    evaluation scores, in every copy of their files: `judgment_key`) or whose kind weighs 0. The same words for
    the same article count once (a judgment quoting another, a sentence citing an article twice, a clause's
    versions). Memory: three numbers per kept token and one per distinct anchor, so the whole archive's 1.5 M
    anchors fold in a few hundred MB."""
    left_out = {judgment_key(source) for source in exclude}
    article_id: dict[bytes, int] = {}
    term_id: dict[str, int] = {}
    seen: set[tuple[int, int]] = set()
    rows, terms, tfs = array("i"), array("i"), array("f")
    per_article: list[int] = []
    sources: set[str] = set()
    kept = 0
    for anchor in anchors:
        if left_out and judgment_key(anchor.source) in left_out:
            continue
        weight = weights.get(anchor.kind, 0.0)
        if weight <= 0:
            continue
        key = _key(anchor.law_id, anchor.article)
        row = article_id.get(key)
        if row is None:
            row = article_id[key] = len(article_id)
            per_article.append(0)
        words = hash(anchor.tokens)
        if (row, words) in seen:
            continue
        seen.add((row, words))
        per_article[row] += 1
        kept += 1
        if keep_sources:
            sources.add(anchor.source)
        for token in anchor.tokens:
            if len(token.encode()) > MAX_TERM_BYTES:
                continue
            term = term_id.get(token)
            if term is None:
                term = term_id[token] = len(term_id)
            rows.append(row)
            terms.append(term)
            tfs.append(weight)
    return _fold(article_id, term_id, rows, terms, tfs, per_article, frozenset(sources), kept)


def _fold(article_id: dict[bytes, int], term_id: dict[str, int], rows: array[int], terms: array[int],
          tfs: array[float], per_article: list[int], sources: frozenset[str], kept: int) -> FieldArrays:
    """(article, term, weight) triples summed into sorted arrays."""
    keys = np.asarray(list(article_id), dtype=bytes) if article_id else np.zeros(0, dtype="S1")
    key_order = np.argsort(keys, kind="stable")
    article_rank = np.empty(len(keys), dtype=np.int64)
    article_rank[key_order] = np.arange(len(keys))
    words = np.asarray([t.encode() for t in term_id], dtype=bytes) if term_id else np.zeros(0, dtype="S1")
    term_order = np.argsort(words, kind="stable")
    term_rank = np.empty(len(words), dtype=np.int64)
    term_rank[term_order] = np.arange(len(words))
    row = article_rank[np.frombuffer(rows, dtype=np.int32)] if len(rows) else np.zeros(0, dtype=np.int64)
    term = term_rank[np.frombuffer(terms, dtype=np.int32)] if len(terms) else np.zeros(0, dtype=np.int64)
    weight = np.frombuffer(tfs, dtype=np.float32).astype(np.float64) if len(tfs) else np.zeros(0)
    n = max(len(keys), 1)
    pairs, inverse = np.unique(term * n + row, return_inverse=True)
    tf = np.bincount(inverse, weights=weight, minlength=len(pairs)).astype(np.float32)
    indptr = np.zeros(len(words) + 1, dtype=np.int64)
    np.cumsum(np.bincount(pairs // n, minlength=len(words)), out=indptr[1:])
    sorted_keys = keys[key_order]
    laws = sorted({k.split(b"\t", 1)[0].decode() for k in sorted_keys.tolist()})
    law_index = {law: i for i, law in enumerate(laws)}
    law_of = np.asarray([law_index[k.split(b"\t", 1)[0].decode()] for k in sorted_keys.tolist()], dtype=np.int32)
    counts = np.zeros(len(keys), dtype=np.float32)
    counts[article_rank] = np.asarray(per_article, dtype=np.float32)
    return FieldArrays(sorted_keys, law_of, tuple(laws), words[term_order], indptr,
                       (pairs % n).astype(np.int32), tf,
                       np.bincount(row, weights=weight, minlength=len(keys)).astype(np.float32), counts,
                       sources, kept)


_ARRAYS = ("keys", "law_of", "laws", "terms", "indptr", "rows", "tf", "lengths", "counts")


def write_field(directory: Path, field: FieldArrays, *, weights: Mapping[str, float] = KIND_WEIGHTS,
                about: Mapping[str, object] | None = None) -> Path:
    """Save `field` as ``directory/anchor_field.bin``, replacing it whole: a header (JSON: the format, the
    tokenizer, the weights, each array's type, shape and offset) and the arrays, each 64-byte aligned. Written to a
    temporary file first and renamed over the old one, so that a build killed half-way leaves the field built
    before (and no temporary file, but after a SIGKILL)."""
    directory.mkdir(parents=True, exist_ok=True)
    arrays = {name: getattr(field, name) for name in _ARRAYS if name != "laws"}
    arrays["laws"] = (np.asarray(field.laws, dtype=bytes) if field.laws else np.zeros(0, dtype="S1"))
    layout: dict[str, dict[str, object]] = {}
    offset = 0
    for name in _ARRAYS:
        value = np.ascontiguousarray(arrays[name])
        arrays[name] = value
        layout[name] = {"dtype": value.dtype.str, "shape": list(value.shape), "offset": offset}
        offset += -(-value.nbytes // _ALIGN) * _ALIGN
    header = json.dumps({"format": FIELD_FORMAT, "tokenizer": TOKENIZER_VERSION, "weights": dict(weights),
                         "anchors": field.anchors, "arrays": layout, **(about or {})},
                        ensure_ascii=False).encode()
    start = -(-(len(_MAGIC) + 8 + len(header)) // _ALIGN) * _ALIGN
    path = directory / FIELD_FILE
    with replaced(path) as out:
        out.write(_MAGIC + len(header).to_bytes(8, "little") + header)
        for name in _ARRAYS:
            out.seek(start + int(layout[name]["offset"]))  # type: ignore[call-overload]
            out.write(arrays[name].tobytes())
        out.truncate(start + offset)
    return path


def anchor_file_facts(directory: Path, name: str) -> tuple[int, str | None] | None:
    """How many anchors the anchor field's file `name` (`FIELD_FILE` or `ANCHOR_FILE`) in `directory` holds and,
    for the statutes' field, the digest of the graph it was built from (None for the judgments' file, or a field
    that records none); None when there is no such file. Each is read by the loader a search reads it with, so a
    file refused here (`InputError` naming it and the fix) is one every learned search would refuse: what
    `lexgraph doctor` reports and what `lexgraph copy` checks before it carries a file."""
    if name == FIELD_FILE:
        read = read_field(directory)
        if read is None:
            return None
        graph = read[1].get("graph")
        return int(read[1].get("anchors", 0)), None if graph is None else str(graph)
    anchors = read_anchors(directory)
    return None if anchors is None else (len(anchors), None)


def read_field(directory: Path) -> tuple[FieldArrays, dict[str, Any]] | None:
    """The saved field beside an index, mapped (nothing of the arrays is read until a search reads it), and its
    header; None when there is none. Every size, type and offset is checked against the file before an array is
    made, and the postings' pointers are checked whole (a few MB), so a truncated, foreign or damaged file is
    refused (`InputError` naming the file and what is wrong, with the fix) rather than read out of bounds; an
    article row past the articles, the one thing left unchecked up front, is refused by the search reading it."""
    path = directory / FIELD_FILE
    if not path.exists() and not path.is_symlink():
        return None

    def refuse(what: str) -> InputError:
        return InputError(f"{path}: {what}; the anchor field cannot be read: {REBUILD_FIELD}")

    with open_regular(path, "field file written by `lexgraph index`") as file:
        size = os.fstat(file.fileno()).st_size
        if size < len(_MAGIC) + 8:
            raise refuse(f"{size} bytes, too short for an anchor field")
        data = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
    if data[:len(_MAGIC)] != _MAGIC:
        raise refuse("not an anchor field (its first bytes are not lexgraph's)")
    length = int.from_bytes(data[len(_MAGIC):len(_MAGIC) + 8], "little")
    if length > min(_HEADER_MAX, size - len(_MAGIC) - 8):
        raise refuse(f"its header claims {length} bytes, more than the file or the 1 MB bound holds")
    try:
        header = json.loads(bytes(data[len(_MAGIC) + 8:len(_MAGIC) + 8 + length]).decode())
        layout = header["arrays"]
        if header.get("format") != FIELD_FORMAT:
            raise refuse(f"format {header.get('format')!r}, this version reads {FIELD_FORMAT!r}")
        if header.get("tokenizer") != TOKENIZER_VERSION:
            raise refuse(f"tokenised by {header.get('tokenizer')!r}, searches tokenise by {TOKENIZER_VERSION!r}")
        start = -(-(len(_MAGIC) + 8 + length) // _ALIGN) * _ALIGN
        buffer = np.frombuffer(data, dtype=np.uint8)
        arrays: dict[str, np.ndarray] = {}
        for name in _ARRAYS:
            entry = layout[name]
            dtype = np.dtype(str(entry["dtype"]))
            shape = tuple(int(n) for n in entry["shape"])
            offset = start + int(entry["offset"])
            if dtype.kind not in "SiuIf" or len(shape) != 1 or shape[0] < 0 or offset < start:
                raise refuse(f"array {name!r}: type {dtype.str} shape {list(shape)} is not a field's")
            end = offset + dtype.itemsize * shape[0]
            if end > size:
                raise refuse(f"array {name!r} runs to byte {end}, past the file's {size} (cut short?)")
            arrays[name] = buffer[offset:end].view(dtype)
    except InputError:
        raise
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as error:
        raise refuse(f"its header is damaged ({type(error).__name__}: {error})") from None
    articles, terms, nnz = len(arrays["keys"]), len(arrays["terms"]), len(arrays["rows"])
    indptr = arrays["indptr"]
    if (len(arrays["law_of"]), len(arrays["lengths"]), len(arrays["counts"])) != (articles,) * 3 \
            or len(indptr) != terms + 1 or len(arrays["tf"]) != nnz:
        raise refuse("its arrays' lengths disagree")
    if terms and (indptr[0] != 0 or indptr[-1] != nnz or bool((np.diff(indptr) < 0).any())):
        raise refuse("its postings' pointers are out of order")
    try:
        laws = tuple(law.decode() for law in arrays["laws"].tolist())
    except UnicodeDecodeError:
        raise refuse("a law's id is not UTF-8") from None
    if articles and (int(arrays["law_of"].min()) < 0 or int(arrays["law_of"].max()) >= len(laws)):
        raise refuse("an article names a law past the laws' array")
    if nnz and (int(arrays["rows"].min()) < 0 or int(arrays["rows"].max()) >= articles):
        raise refuse("a posting names an article past the articles' array")
    field = FieldArrays(arrays["keys"], arrays["law_of"], laws, arrays["terms"], indptr, arrays["rows"],
                        arrays["tf"], arrays["lengths"], arrays["counts"], frozenset(), int(header.get("anchors", 0)))
    return field, header


def empty_field() -> FieldArrays:
    return field_arrays(())


class AnchorField:
    """The articles' anchor documents and their BM25 postings: a saved part (`read_field`, possibly empty) with
    an in-memory part laid over it. Rows are the saved part's articles, then the in-memory part's articles the
    saved one lacks. `in_degree` counts an article's distinct anchors."""

    def __init__(self, base: FieldArrays, extra: FieldArrays | None = None, *, where: str = "the anchor field",
                 sentences: CitingSentences | None = None) -> None:
        self.base = base
        #: The judgments' anchors sentence by sentence (`retrieve.citing_sentences`), when built from them.
        self.sentences = sentences if sentences is not None and sentences.size else None
        self.extra = extra if extra is not None and len(extra.keys) else None
        self.where = where
        n0 = len(base.keys)
        lengths = np.asarray(base.lengths, dtype=np.float64)
        counts = np.asarray(base.counts, dtype=np.float64)
        laws = list(base.laws)
        law_index = {law: i for i, law in enumerate(laws)}
        law_of = np.asarray(base.law_of, dtype=np.int32)
        self._extra_rows = np.zeros(0, dtype=np.int64)
        self._new_keys: list[bytes] = []
        self._new_rows: dict[bytes, int] = {}
        if self.extra is not None:
            extra = self.extra
            # One binary search for all of them (numpy compares bytes of different widths as equal strings).
            at = np.searchsorted(base.keys, extra.keys) if n0 else np.zeros(len(extra.keys), dtype=np.int64)
            found = np.zeros(len(extra.keys), dtype=bool)
            inside = at < n0
            found[inside] = base.keys[at[inside]] == extra.keys[inside]
            mapped = np.where(found, at, 0).astype(np.int64)
            new_laws: list[int] = []
            for j in np.flatnonzero(~found).tolist():
                key = extra.keys[j]
                mapped[j] = n0 + len(self._new_keys)
                self._new_keys.append(key)
                self._new_rows[key] = int(mapped[j])
                law = key.split(b"\t", 1)[0].decode()
                if law not in law_index:
                    law_index[law] = len(laws)
                    laws.append(law)
                new_laws.append(law_index[law])
            self._extra_rows = mapped
            grow = len(self._new_keys)
            lengths = np.concatenate([lengths, np.zeros(grow)])
            counts = np.concatenate([counts, np.zeros(grow)])
            law_of = np.concatenate([law_of, np.asarray(new_laws, dtype=np.int32)])
            np.add.at(lengths, mapped, np.asarray(extra.lengths, dtype=np.float64))
            np.add.at(counts, mapped, np.asarray(extra.counts, dtype=np.float64))
        self.size = len(lengths)
        self.lengths = lengths
        self.counts = counts
        self.laws = laws
        self._law_index = law_index
        self._law_of = law_of
        self._norm = length_norms(lengths)
        self.sources = base.sources | (self.extra.sources if self.extra is not None else frozenset())
        self._law_anchors: np.ndarray | None = None
        self._articles: list[tuple[str, str]] | None = None

    @classmethod
    def build(cls, anchors: Iterable[Anchor], *, exclude: Collection[str] = (),
              weights: Mapping[str, float] = KIND_WEIGHTS, base: FieldArrays | None = None,
              where: str = "the anchor field") -> AnchorField:
        """The field of `anchors` (without the sources in `exclude`), over the saved part `base` when given
        (`where`: its file, named when it turns out damaged), and their judgments' sentences one by one."""
        kept = list(anchors)
        return cls(base if base is not None else empty_field(),
                   field_arrays(kept, exclude=exclude, weights=weights), where=where,
                   sentences=CitingSentences(kept, exclude=exclude))

    @property
    def articles(self) -> list[tuple[str, str]]:
        """Every row's (law id, article), decoded on first use (the search decodes only its hits')."""
        if self._articles is None:
            self._articles = [_unkey(k) for k in self.base.keys.tolist()] + [_unkey(k) for k in self._new_keys]
        return self._articles

    def article(self, row: int) -> tuple[str, str]:
        n0 = len(self.base.keys)
        try:
            return _unkey(self.base.keys[row] if row < n0 else self._new_keys[row - n0])
        except UnicodeDecodeError:
            raise InputError(f"{self.where}: article {row} is not UTF-8; the anchor field is damaged: "
                             f"{REBUILD_FIELD}") from None

    def _posting(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        word = term.encode()
        saved = self.base.posting(word)
        if saved is not None and len(saved[0]) and int(saved[0].max()) >= len(self.base.keys):
            raise InputError(f"{self.where}: term {term!r} points past the articles; the anchor field is damaged: "
                             f"{REBUILD_FIELD}")
        laid = self.extra.posting(word) if self.extra is not None else None
        if laid is not None:
            laid = (self._extra_rows[laid[0]], laid[1])
        if saved is None or laid is None:
            return saved or laid
        # A saved posting's rows are ascending (`_fold`) and a laid one is short: each laid row is found by binary
        # search, its frequency added where the saved posting has the article, appended where not. No sort of the
        # saved posting, which for a common term (規定, 場合) holds 100,000 articles.
        rows, tfs = saved
        at = np.minimum(np.searchsorted(rows, laid[0]), max(len(rows) - 1, 0))
        present = rows[at] == laid[0] if len(rows) else np.zeros(len(laid[0]), dtype=bool)
        tf = np.asarray(tfs, dtype=np.float64).copy()
        np.add.at(tf, at[present], laid[1][present])
        return np.concatenate([rows, laid[0][~present]]), np.concatenate([tf, laid[1][~present]])

    def scores(self, tokens: Sequence[str]) -> np.ndarray:
        """BM25 of every article's anchor document for the query's tokens (each distinct term once)."""
        out = np.zeros(self.size)
        for token in dict.fromkeys(tokens):
            posting = self._posting(token)
            if posting is None or not len(posting[0]):
                continue
            rows, tfs = posting
            add_term(out, rows, np.asarray(tfs, dtype=np.float64), self._norm)
        return out

    def search(self, tokens: Sequence[str], k: int, laws: Collection[str] = ()) -> list[AnchorHit]:
        """The `k` best articles by anchor BM25 (score > 0), within `laws` when given."""
        scores = self.scores(tokens)
        if laws:
            ids = [self._law_index[law] for law in laws if law in self._law_index]
            scores = np.where(np.isin(self._law_of, ids), scores, 0.0)
        return [AnchorHit(*self.article(int(i)), float(scores[i]), rank)
                for rank, i in enumerate(best_rows(scores, k), start=1)]

    def law_anchors(self, law_id: str) -> float:
        """The anchors kept for every article of a law."""
        if self._law_anchors is None:
            self._law_anchors = np.bincount(self._law_of, weights=self.counts, minlength=len(self.laws))
        i = self._law_index.get(law_id)
        return 0.0 if i is None else float(self._law_anchors[i])

    def in_degree(self, law_id: str, article: str) -> float:
        key = _key(law_id, article)
        row = self.base.row_of(key)
        if row is None:
            row = self._new_rows.get(key)
        return 0.0 if row is None else float(self.counts[row])


_FIELDS: dict[tuple[object, ...], AnchorField] = {}
_SAVED: dict[tuple[object, ...], FieldArrays | None] = {}


def _status(path: Path) -> tuple[int, int] | None:
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size


def anchor_field(index: SearchIndex, held_apart: frozenset[str] = frozenset()) -> AnchorField | None:
    """The anchor field of `index` (its files are beside an embedded index, or fetched from a server's database
    into a checked local cache: `SearchIndex.anchor_directory`): the statutes' anchors saved when it was built
    (``anchor_field.bin``, mapped) with the judgments' anchors (``anchors.jsonl.gz``, `lexgraph index --anchors
    DIR`) laid over them, without the sources in `held_apart`; None when the index has neither (the anchor
    features are then 0, and the model ranks by the rest). Built once per pair of files and held-apart set: the
    files' sizes and modification times are part of the key, so anchors written again (by this process or
    another) are read again."""
    directory = index.anchor_directory()
    if directory is None:
        return None
    folder = Path(directory)
    saved_status, judged_status = _status(folder / FIELD_FILE), _status(folder / ANCHOR_FILE)
    if saved_status is None and judged_status is None:
        return None
    key = (str(directory), saved_status, judged_status, held_apart)
    if key not in _FIELDS:
        saved_key = (str(directory), saved_status)
        if saved_key not in _SAVED:
            read = read_field(folder) if saved_status is not None else None
            _SAVED[saved_key] = read[0] if read is not None else None
        base = _SAVED[saved_key]
        anchors = read_anchors(folder) if judged_status is not None else None
        _FIELDS[key] = AnchorField.build(anchors or (), exclude=held_apart, base=base, where=str(folder / FIELD_FILE))
    return _FIELDS[key]
