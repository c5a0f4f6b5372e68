"""Anchor text: what the sentences citing an article say about it, kept for a BM25 field beside the clause text.

Web search learned that the words of the links pointing at a page describe it better than the page itself; here
the links are citations. A judgment that writes 「…他人の権利を侵害した者は損害賠償責任を負う（民法７０９条）」 says
in its own words what 民法 第七百九条 is about, often in the words a question uses. For every statute citation of a
judgment (resolved to a law and an article) the anchor is its sentence, cut at a 「。」 outside brackets
(`citations.sentences`), with `window` sentences on each side and every citation span taken out (the
article's number must not be the match), and tokenised as BM25 tokenises clauses.

Each anchor keeps its source (the judgment's file name without suffix, its lawsuit id's file) so that an
evaluation can leave out the judgments it scores (`retrieve.anchor_field.AnchorField.build(exclude=…)`): a
query's own judgment must never describe its gold. The anchors are written beside the index as
``anchors.jsonl.gz`` (`write_anchors`), built by `LexGraph.build_anchors` / ``lexgraph index --anchors DIR``.

The statutes cite each other too, and say in passing what they cite: a 施行令's 「法第二十七条の三十六第一項に規定する
内閣府令で定める者」 describes 金商法 第二十七条の三十六. Every resolved CITES edge between clauses of the store gives
the cited article an anchor (`statute_anchors`): the citing clause's sentence holding the citation, without every
citation span of the clause (the edges' own spans) and every clause number left (前項, 同条, 第三号), its kind the
citing law's type (`LAW_TYPE_KINDS`), or ``own`` when the clause cites another article of its own law; a clause
citing its own article (前項 inside one article) says nothing new about it and gives none. At 1.5 M anchors on the
whole archive these are not written as records but folded straight into the saved field
(`retrieve.anchor_field.write_field`), which a search maps instead of building.
"""

from __future__ import annotations

import bisect
import gzip
import io
import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lexgraph.citations import extract
from lexgraph.citations.sentences import sentence_ends, without_citations
from lexgraph.documents.datafiles import DataLimits, is_regular_file, open_regular, replaced
from lexgraph.documents.jsonl import line_where, read_records
from lexgraph.errors import InputError
from lexgraph.index.tokenize import tokenize
from lexgraph.index.units import article_path
from lexgraph.statutes.clauses import CITING_KINDS, stored_clause_text
from lexgraph.store.base import GraphStore
from lexgraph.store.rows import LAWS_ALL, LAWS_CITES_SPANS, LAWS_CITING_SENTENCES

ANCHOR_FILE = "anchors.jsonl.gz"
#: The statutes' anchors, folded into the field a search maps (`retrieve.anchor_field.write_field`).
FIELD_FILE = "anchor_field.bin"
#: The saved field's format (its header says it; `retrieve.anchor_field.read_field` reads only this one) and the
#: judgments' anchors file's, recorded with each where a server's database keeps them (`index.neo4j_files`).
FIELD_FORMAT = "lexgraph-anchor-field/1"
ANCHORS_FORMAT = "lexgraph-anchors/1"
#: The folder (beside the field, named after the graph's digest) where a build keeps each law's anchors until the
#: field is saved (`AnchorSpill`).
SPILL_PREFIX = ".statute-anchors."
#: The judgments' anchors file's bound once decompressed, unless ``LEXGRAPH_DATA_MAX_MB`` sets another. A search
#: holds the file's anchors and builds their field and sentences in memory: at worst (every token a new word) about
#: 40 times the file's bytes, so the 1 GB every other data file may hold would let a planted file take 40 GB. This
#: bound keeps that worst case near 5 GB and holds the anchors of about 18,000 judgments (the 742 of the courts'
#: archive write 5 MB; measured by ``bench/anchor_memory.py``).
ANCHORS_MAX_MB = 128


def graph_digest(fingerprints: dict[str, str]) -> str:
    """The digest of the graph's state the statutes' field is built from (every index part's fingerprint, as
    `index.units.part_fingerprints` gives them), recorded with the field: a field whose digest is the graph's is
    up to date, and a build killed half-way keeps its work under it (`AnchorSpill`)."""
    import hashlib

    return hashlib.sha256(json.dumps(sorted(fingerprints.items())).encode()).hexdigest()


#: Sentences taken on each side of the citing sentence (0: the sentence alone; measured, docs/search.md).
DEFAULT_WINDOW = 0
#: An anchor longer than this (a run-on sentence of a PDF extract) is cut around the citation.
MAX_CHARS = 400


#: A statute anchor's kind by the citing law's e-Gov LawType: 法律 (and the constitution), 政令 (and 勅令), 府省令,
#: 規則 (and every other type: 人事院規則, 会計検査院規則, 最高裁判所規則). Judgments are ``judgment``.
LAW_TYPE_KINDS: dict[str, str] = {"Constitution": "act", "Act": "act", "CabinetOrder": "order",
                                  "ImperialOrder": "order", "MinisterialOrdinance": "ordinance"}
OTHER_LAW_KIND = "rule"
#: A clause citing another article of its own law.
OWN_LAW_KIND = "own"
#: The kind of a judgment's citing sentence.
JUDGMENT_KIND = "judgment"
_N = "[0-9０-９〇一二三四五六七八九十百千]+"
#: Clause numbers and references the edges' spans leave (an unresolved 同条, a range's far end): never anchor words.
_CLAUSE_WORDS = re.compile(rf"(第?{_N}の?(?:[編章節款目項号]|条(?![件約例理文]))(の{_N})*|前各?[条項号]|次[条項号]|"
                           r"同[条項号]|各号|各項|本条|本項|前段|後段|ただし書|柱書)+")


@dataclass(frozen=True)
class Anchor:
    """One citing passage of one article: the cited (law_id, article path), the kind and name of its source, and
    its BM25 tokens."""

    law_id: str
    article: str  # a709, a6_2
    kind: str  # judgment, or a statute's: act, order, ordinance, rule, own (`LAW_TYPE_KINDS`)
    source: str  # the judgment's file stem (083087_hanrei), or the citing law's id
    tokens: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {"law_id": self.law_id, "article": self.article, "kind": self.kind, "source": self.source,
                "tokens": " ".join(self.tokens)}


def judgment_anchors(source: str, text: str, *, window: int = DEFAULT_WINDOW,
                     laws: set[str] | None = None) -> list[Anchor]:
    """The anchors of one judgment: one per (citing sentence, cited article), the article's law in `laws` (None:
    any law). A sentence citing two articles describes both."""
    every = extract(text, precedents=False)  # every citation's span leaves the anchor's text
    citations = [c for c in every
                 if c.kind == "statute" and c.status == "resolved" and c.law_id and c.article
                 and (laws is None or c.law_id in laws)]
    if not citations:
        return []
    bounds = [0, *sentence_ends(text)]
    if bounds[-1] < len(text):
        bounds.append(len(text))
    out: list[Anchor] = []
    at = 0
    for citation in sorted(citations, key=lambda c: c.start):
        while at + 1 < len(bounds) - 1 and bounds[at + 1] <= citation.start:
            at += 1
        start, stop = bounds[max(0, at - window)], bounds[min(len(bounds) - 1, at + 1 + window)]
        if stop - start > MAX_CHARS:
            start, stop = max(start, citation.start - MAX_CHARS // 2), min(stop, citation.end + MAX_CHARS // 2)
        inside = [c for c in every if c.start >= start and c.end <= stop]
        words = without_citations(text, start, stop, inside)
        tokens = tuple(tokenize(words))
        if tokens:
            out.append(Anchor(str(citation.law_id), f"a{citation.article}", JUDGMENT_KIND, source, tokens))
    return out


def judgment_files(paths: Iterable[str | Path]) -> list[Path]:
    """The judgment text files `paths` name: files as given, folders' ``*.txt`` in name order. A path that does
    not exist, that names something other than a regular file or a folder (a FIFO, even as ``x.txt`` in a folder),
    or that gives no file at all is refused with `InputError` before any is read."""
    files: list[Path] = []
    for path in map(Path, paths):
        if path.is_dir():
            found = sorted(path.glob("*.txt"))
            if not found:
                raise InputError(f"{path}: no judgment text (*.txt) in this folder; give the folder of judgment "
                                 "texts (the anchors built before are kept)")
            files += found
        elif path.exists():
            files.append(path)
        else:
            raise InputError(f"{path}: no such file or folder; give judgment text files (.txt) or their folder")
    for file in files:
        if not is_regular_file(file):
            raise InputError(f"{file}: not a regular file (a FIFO, a device or a socket); give judgment text files "
                             "(nothing was read, and the anchors built before are kept)")
    return files


def judgment_files_anchors(files: Iterable[Path], *, window: int = DEFAULT_WINDOW,
                           laws: set[str] | None = None) -> Iterator[Anchor]:
    """The anchors of judgment text files, read one by one: each must be a regular UTF-8 file (a FIFO in the
    folder is refused, never opened for a blocking read)."""
    for path in files:
        try:
            with open_regular(path, "judgment text file (.txt)") as file:
                text = file.read().decode("utf-8")
        except UnicodeDecodeError as error:
            raise InputError(f"{path}: cannot be read as UTF-8 text for anchors ({error}); give judgment text "
                             f"files (the 裁判所 PDF extracts, one judgment per .txt)") from error
        except OSError as error:
            raise InputError(f"{path}: cannot be read ({error.strerror}); give judgment text files") from error
        yield from judgment_anchors(path.stem, text, window=window, laws=laws)


def anchor_limits() -> DataLimits:
    """The bounds the judgments' anchors file is written and read within (`ANCHORS_MAX_MB`)."""
    return DataLimits.from_env(default_mb=ANCHORS_MAX_MB)


def write_anchors(directory: Path, anchors: Iterable[Anchor], *, source: str = "the judgments given",
                  limits: DataLimits | None = None) -> int:
    """Write the anchors to ``directory/anchors.jsonl.gz``, replacing it whole; returns how many. They go to a
    temporary file first, removed on every way out (an unreadable judgment, an interrupt), so that a failed build
    leaves the anchors built before, and nothing else. A build that yields no anchor does not replace a file that
    holds some (`InputError`, naming `source`): an empty or wrong folder must not wipe them. Nor is a file written
    that a search would refuse to read: past `limits` (`anchor_limits()`) the build stops with an `InputError`
    saying how to raise them, the anchors before kept."""
    limits = limits or anchor_limits()
    directory.mkdir(parents=True, exist_ok=True)
    count = written = 0
    with replaced(directory / ANCHOR_FILE) as raw:
        # no name and no time in the gzip header: the same anchors give the same bytes, whatever the
        # temporary file's name (a Neo4j store's copy is compared by its SHA-256)
        with gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as packed, \
                io.TextIOWrapper(packed, encoding="utf-8") as out:
            for anchor in anchors:
                line = json.dumps(anchor.to_json(), ensure_ascii=False) + "\n"
                written += len(line.encode())
                if written > limits.max_bytes:
                    raise InputError(f"{source}: their anchors pass {limits.max_bytes >> 20} MB, the most a search "
                                     f"reads (about {count:,} anchors fit); the anchors built before are kept. Set "
                                     "LEXGRAPH_DATA_MAX_MB higher, for this build and every search (a search "
                                     "needs up to about 40 times that in memory), or give fewer judgments")
                out.write(line)
                count += 1
        if count == 0 and _holds_anchors(directory / ANCHOR_FILE):
            raise InputError(f"{source}: no sentence cites an article of the indexed laws, so no anchor was "
                             f"built; the anchors built before ({directory / ANCHOR_FILE}) are kept. Give the "
                             "folder of judgment texts (.txt), or remove that file to drop the anchors")
    return count


def _holds_anchors(path: Path) -> bool:
    """Whether an anchors file is there and holds at least one record (one that cannot be read holds none)."""
    if not path.exists():
        return False
    try:
        return next(iter(read_records(path)), None) is not None
    except InputError:
        return False


def read_anchors(directory: Path, *, limits: DataLimits | None = None) -> list[Anchor] | None:
    """The anchors written beside an index, or None when none were built. The file is read by the one bounded
    reader of data files (`documents.jsonl.read_records`: a regular gzip file, within `limits`), and each record
    checked: an error names the file, the line and the field, and says to build the anchors again."""
    path = directory / ANCHOR_FILE
    if not path.exists() and not path.is_symlink():
        return None
    out = []
    words: dict[str, str] = {}  # each word's one copy: judgments repeat theirs, and a str costs 50 to 80 bytes
    try:
        for number, row in read_records(path, limits=limits or anchor_limits()):
            out.append(_anchor(row, line_where(path, number), words))
    except InputError as error:
        raise InputError(f"{error}; {REBUILD}") from None
    return out


REBUILD = "build the anchors again with `lexgraph index --anchors DIR`"


def _anchor(row: dict[str, Any], where: str, words: dict[str, str]) -> Anchor:
    values = []
    for field in ("law_id", "article", "kind", "source", "tokens"):
        value = row.get(field)
        if value is None:
            raise InputError(f"{where}: field {field!r} is missing")
        if type(value) is not str:
            raise InputError(f"{where}: field {field!r} is a {type(value).__name__} ({str(value)[:40]}), not a string")
        values.append(value)
    law_id, article, kind, source, tokens = values
    return Anchor(law_id, article, kind, source, tuple(words.setdefault(word, word) for word in tokens.split()))


def statute_anchors(store: GraphStore, laws: set[str] | None = None,
                    on_law: Callable[[int, int], None] | None = None, *, workers: int = 1,
                    resume: Path | None = None) -> Iterator[Anchor]:
    """The anchors the store's statutes give: one per resolved CITES edge between clauses (cited article, citing
    sentence), its cited law in `laws` (None: any). `on_law(done, total)` after each law.

    The store is read here, `READ_LAWS` laws a query (the engine's cost is per query: one a law took most of the
    whole archive's build), so memory holds a few laws' clauses. The text work (cutting the sentence, tokenising
    it) is a law's own and runs in `workers` processes when more than one is asked for, each distinct sentence
    tokenised once per process (a clause's versions and many laws' 附則 repeat it). The anchors come out in
    another order with more workers, which the field does not see (`field_arrays` sorts and sums them).
    `resume`: a folder where each law's anchors are kept as they are made (`AnchorSpill`), so that a build killed
    half-way continues from the laws it finished; the caller names it after the graph's state, since the kept
    anchors are only valid for the graph they were read from."""
    types = {row.law_id: str(row.law_type or "") for row in store.rows(LAWS_ALL)}
    total = len(types)
    spill = AnchorSpill(resume) if resume is not None else None
    done_laws: set[str] = set()
    if spill is not None:
        for law_id, found in spill.read():
            if law_id in types and law_id not in done_laws:
                done_laws.add(law_id)
                yield from _anchors(law_id, found, laws)
    done = len(done_laws)
    if on_law is not None and done:
        on_law(done, total)
    jobs = _jobs(store, types, done_laws, laws)
    try:
        for law_id, found in _run_jobs(jobs, workers):
            if spill is not None:
                spill.add(law_id, found)
            yield from _anchors(law_id, found, laws)
            done += 1
            if on_law is not None:
                on_law(done, total)
    finally:
        if spill is not None:
            spill.flush()


#: What a law's text work gives: (cited law, cited article, kind, tokens) per anchor, in the order found.
LawAnchors = list[tuple[str, str, str, tuple[str, ...]]]
#: One clause's inputs to the text work: its uid, its stored sentences and its citations (start, end, cited law,
#: cited article).
ClauseCites = tuple[str, str, list[tuple[int, int, str, str]]]


def _anchors(law_id: str, found: LawAnchors, laws: set[str] | None) -> Iterator[Anchor]:
    for to_law, article, kind, tokens in found:
        if laws is None or to_law in laws:
            yield Anchor(to_law, article, kind, law_id, tokens)


#: Laws read from the store per pair of queries: the engine's cost is mostly per query, not per row.
READ_LAWS = 64


def _jobs(store: GraphStore, types: dict[str, str], skip: set[str],
          laws: set[str] | None) -> Iterator[tuple[str, str, list[ClauseCites]]]:
    """Each law's text work in law order (but `skip`), read from the store `READ_LAWS` laws at a time."""
    todo = [law_id for law_id in sorted(types) if law_id not in skip]
    for at in range(0, len(todo), READ_LAWS):
        batch = todo[at:at + READ_LAWS]
        clauses = _read_clauses(store, batch, laws)
        for law_id in batch:
            yield law_id, LAW_TYPE_KINDS.get(types[law_id], OTHER_LAW_KIND), clauses.get(law_id, [])


def _read_clauses(store: GraphStore, law_ids: list[str], laws: set[str] | None) -> dict[str, list[ClauseCites]]:
    """The store's part of some laws' anchors: each citing clause's sentences and its citations (those of laws in
    `laws`: the spans taken out of a sentence are the kept citations', as they always were)."""
    edges: dict[str, list[tuple[int, int, str, str]]] = {}
    citing: set[str] = set()
    for edge in store.rows(LAWS_CITES_SPANS, law_ids=law_ids):
        if edge.to_law and edge.to_path and (laws is None or edge.to_law in laws):
            edges.setdefault(edge.from_uid, []).append((int(edge.char_start or 0), int(edge.char_end or 0),
                                                        edge.to_law, article_path(edge.to_path)))
            citing.add(edge.law_id)
    out: dict[str, list[ClauseCites]] = {}
    if not edges:
        return out
    for row in store.rows(LAWS_CITING_SENTENCES, law_ids=sorted(citing)):
        cites = edges.get(row.uid)
        if cites and row.kind in CITING_KINDS and row.sentences:
            out.setdefault(row.law_id, []).append((row.uid, row.sentences, cites))
    return out


#: Each worker process's tokens by sentence: many laws' 附則 and a clause's versions repeat a sentence. Bounded:
#: emptied when it holds this many.
_TOKEN_CACHE_SIZE = 100_000
_token_cache: dict[str, tuple[str, ...]] = {}


def _law_job(job: tuple[str, str, list[ClauseCites]]) -> tuple[str, LawAnchors]:
    law_id, kind, clauses = job
    if len(_token_cache) > _TOKEN_CACHE_SIZE:
        _token_cache.clear()
    return law_id, law_anchor_tokens(law_id, kind, clauses, _token_cache)


def _run_jobs(jobs: Iterator[tuple[str, str, list[ClauseCites]]], workers: int) -> Iterator[tuple[str, LawAnchors]]:
    """Each job's text work, in the jobs' order: here, or in `workers` processes with a few laws in flight per
    worker (the store is read only here, one law ahead of what the workers need)."""
    if workers <= 1:
        yield from map(_law_job, jobs)
        return
    import multiprocessing
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # spawn: the parent holds an open database, which a forked child must not inherit. A spawned worker imports
    # the parent's main module again; a script that does its work unguarded by ``if __name__ == "__main__"``
    # breaks the pool, and the jobs then run here, as with one worker.
    pending: deque[tuple[tuple[str, str, list[ClauseCites]], Future[tuple[str, LawAnchors]] | None]] = deque()
    broken = False

    def take() -> tuple[str, LawAnchors]:
        """The oldest pending job's result: its worker's, or made here once the pool is broken."""
        nonlocal broken
        waiting, future = pending.popleft()
        if future is not None and not broken:
            try:
                return future.result()
            except BrokenProcessPool:
                broken = True
        return _law_job(waiting)

    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                             initializer=_end_with_parent) as pool:
        for job in jobs:
            pending.append((job, None if broken else pool.submit(_law_job, job)))
            while pending and (broken or len(pending) >= 4 * workers
                               or (first := pending[0][1]) is None or first.done()):
                yield take()
        while pending:
            yield take()


def _end_with_parent() -> None:
    """In a worker: exit as soon as the build's process is gone. A build killed with SIGKILL cannot stop its
    pool, whose workers would otherwise wait on their queue for ever."""
    import multiprocessing
    import threading
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def law_anchor_tokens(law_id: str, kind: str, clauses: Iterable[ClauseCites],
                      tokens_of: dict[str, tuple[str, ...]] | None = None) -> LawAnchors:
    """One law's anchors from its citing clauses: for each citation (but a clause's citations of its own
    article), the sentence holding it without the clause's citation spans and clause numbers, tokenised
    (`tokens_of` remembers sentences seen before); none whose sentence leaves no token."""
    tokens_of = {} if tokens_of is None else tokens_of
    out: LawAnchors = []
    for uid, sentences, cites in clauses:
        text = stored_clause_text(sentences)
        own = article_path(uid.partition("/")[2].split("@")[0])
        ends = [0, *sentence_ends(text)]
        if ends[-1] < len(text):
            ends.append(len(text))
        spans = sorted({(start, end) for start, end, _, _ in cites})
        for start, end, to_law, article in sorted(set(cites)):
            if to_law == law_id and article == own:
                continue
            at = bisect.bisect_right(ends, start) - 1  # the sentence [ends[at], ends[at + 1]) holding `start`
            if at < 0 or at + 1 >= len(ends):
                continue
            begin, stop = ends[at], ends[at + 1]
            if stop - begin > MAX_CHARS:  # a 附則's run-on sentence: around the citation, as a judgment's
                begin, stop = max(begin, start - MAX_CHARS // 2), min(stop, end + MAX_CHARS // 2)
            words = statute_sentence(text, begin, stop, spans)
            tokens = tokens_of.get(words)
            if tokens is None:  # interned: 24,000 terms on the whole archive, shared by every sentence kept
                tokens = tokens_of[words] = tuple(map(sys.intern, tokenize(words)))
            if tokens:
                out.append((to_law, article, OWN_LAW_KIND if to_law == law_id else kind, tokens))
    return out


class AnchorSpill:
    """Each law's anchors kept in a folder as they are made, so that a killed build continues (`statute_anchors`).

    Files of a few laws each (``laws-NNNNNN.jsonl.gz``, one record a law: its id and its anchors as cited law,
    article, kind and tokens), each written to a temporary name and renamed, so a file is whole or absent. A file
    that cannot be read is left out, and its laws are read from the graph again: the folder is a cache of work,
    never the field itself."""

    LAWS_PER_FILE = 64

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._laws: list[tuple[str, LawAnchors]] = []
        self._anchors = 0

    def read(self) -> Iterator[tuple[str, LawAnchors]]:
        if not self.folder.is_dir():
            return
        for path in sorted(self.folder.glob("laws-*.jsonl.gz")):
            try:
                with gzip.open(path, "rt", encoding="utf-8") as lines:
                    records = [_spilled(json.loads(line)) for line in lines]
            except (OSError, EOFError, ValueError, TypeError, KeyError):
                continue  # torn or foreign: its laws are built again
            yield from records

    def add(self, law_id: str, found: LawAnchors) -> None:
        self._laws.append((law_id, found))
        self._anchors += len(found)
        if len(self._laws) >= self.LAWS_PER_FILE or self._anchors >= 50_000:
            self.flush()

    def flush(self) -> None:
        if not self._laws:
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        number = len(list(self.folder.glob("laws-*.jsonl.gz")))
        while (self.folder / f"laws-{number:06d}.jsonl.gz").exists():
            number += 1
        path = self.folder / f"laws-{number:06d}.jsonl.gz"
        temporary = self.folder / f".{path.name}.{os.getpid()}.tmp"
        try:
            with open(temporary, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, compresslevel=3) as out:
                for law_id, found in self._laws:
                    record = {"law": law_id, "anchors": [[t, a, k, " ".join(w)] for t, a, k, w in found]}
                    out.write((json.dumps(record, ensure_ascii=False) + "\n").encode())
            temporary.replace(path)
        finally:
            temporary.unlink(missing_ok=True)
        self._laws, self._anchors = [], 0

    def remove(self) -> None:
        """The folder and its files, once the field they fed is saved."""
        if self.folder.is_dir():
            for path in self.folder.iterdir():
                path.unlink(missing_ok=True)
            self.folder.rmdir()


def _spilled(record: dict[str, Any]) -> tuple[str, LawAnchors]:
    law_id = record["law"]
    if type(law_id) is not str:
        raise TypeError("law id")
    found: LawAnchors = []
    for to_law, article, kind, words in record["anchors"]:
        if not all(type(v) is str for v in (to_law, article, kind, words)):
            raise TypeError("anchor")
        found.append((to_law, article, kind, tuple(words.split())))
    return law_id, found


def statute_sentence(text: str, start: int, stop: int, spans: Iterable[tuple[int, int]]) -> str:
    """The sentence `text[start:stop]` without the citation `spans` and the clause numbers left in it."""
    pieces, position = [], start
    for begin, end in sorted(spans):
        if end <= start or begin >= stop:
            continue
        pieces.append(text[position:max(position, begin)])
        position = max(position, end)
    pieces.append(text[position:stop])
    return _CLAUSE_WORDS.sub("", "".join(pieces))
