"""The Python client: everything the CLI does, returning typed values.

>>> from lexgraph import LexGraph
>>> with LexGraph.open("lexgraph-store") as lg:                      # doctest: +SKIP
...     lg.ingest_statutes(["民法.xml"])
...     print(lg.law("民法").title, lg.show("民法", "第七百九条", as_of=date(2023, 7, 1)).provision.text)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any

from lexgraph.model import LawInfo, LawVersionInfo
from lexgraph.statutes.catalog import Catalog
from lexgraph.statutes.ingest import IngestSummary, ProgressCallback, ingest_statutes
from lexgraph.statutes.reading import (
    LawDiff,
    ProvisionAsOf,
    law_diff,
    law_versions,
    provision_as_of,
    resolve_law,
)
from lexgraph.statutes.sources import DatingFlags
from lexgraph.store import GraphStore, open_store
from lexgraph.store.base import Row, StoreCounts
from lexgraph.store.doctor import DoctorReport, examine


class LexGraph:
    """A handle on one store. Open it read-only for queries alongside a running ingest."""

    def __init__(self, store: GraphStore, catalog: Catalog | None = None) -> None:
        self.store = store
        self._catalog = catalog

    @classmethod
    def open(cls, location: str | Path, *, read_only: bool = False, migrate: bool = True) -> LexGraph:
        store = open_store(str(location), read_only=read_only)
        if migrate and not read_only:
            store.migrate()
        return cls(store)

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = Catalog.bundled()
        return self._catalog

    # -- statutes -----------------------------------------------------------------------------------------------
    def ingest_statutes(
        self, paths: Sequence[str | Path], *, revision: str | None = None, in_force_on: date | None = None,
        on_file: ProgressCallback | None = None,
    ) -> IngestSummary:
        return ingest_statutes(
            self.store, paths, flags=DatingFlags(revision=revision, in_force_on=in_force_on),
            catalog=self.catalog, on_file=on_file,
        )

    def law(self, name: str) -> LawInfo:
        return resolve_law(self.store, name, self.catalog)

    def show(self, law: str, clause: str, *, as_of: date | None = None) -> ProvisionAsOf:
        return provision_as_of(self.store, self.law(law), clause, as_of or date.today())

    def versions(self, law: str) -> list[LawVersionInfo]:
        return law_versions(self.store, self.law(law))

    def diff(self, law: str, from_day: date, to_day: date, *, level: str = "article") -> LawDiff:
        return law_diff(self.store, self.law(law), from_day, to_day, level)

    # -- the store ----------------------------------------------------------------------------------------------
    def stats(self) -> StoreCounts:
        return self.store.counts()

    def doctor(self) -> DoctorReport:
        return examine(self.store)

    def query(self, cypher: str, params: Mapping[str, Any] | None = None) -> list[Row]:
        """User Cypher, always read-only."""
        return self.store.run_read_only(cypher, params)

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> LexGraph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
