"""What an ingest just wrote, kept in memory for linking: each law's versions and clause spans, and each citing
clause's own text with the statute mentions found in it, packed into compressed bytes.

Linking the whole e-Gov corpus resolves about two million citations against the shape of the laws they cite.
Reading texts and spans back from the store cost more than the resolution itself, so the ingest keeps them. Kept
as Python objects (1.6 M spans, 1.2 M texts) they took about 1.5 GB, and every linking worker forked from the
writer copied most of it, since merely reading a Python object writes its reference count into its page. Packed,
a law is two `bytes` objects (about 100 bytes a clause, text and mentions included): a worker reading one touches
a page, and decodes the few laws it needs at a time.

Finding the mentions in a clause's text (`find_statutes`, as much work as resolving them) is done where the law
is parsed, in the parse workers of a corpus ingest, so that linking only resolves. What is found depends on the
law names a text is read with (the catalogue plus the stored laws it lacks): `FoundWith` records them, and a
clause whose text contains a name that linking's catalogue has and the parse-time one had not (or the reverse) is
read again (`mentions_for`).
"""

from __future__ import annotations

import pickle
import re
import zlib
from dataclasses import dataclass, field
from datetime import date

from lexgraph.citations import Mention, find_statutes
from lexgraph.citations.compact import CompactText
from lexgraph.citations.lawnames import LawNames
from lexgraph.numerals import division_of
from lexgraph.read.revisions import LawSpans, ProvisionSpan, StoreRevisions, VersionSpan
from lexgraph.statutes.catalog import Catalog
from lexgraph.statutes.clauses import CITING_KINDS, clause_text
from lexgraph.statutes.timeline import LawTimeline
from lexgraph.store.base import GraphStore

_VersionRow = tuple[str, date | None, date | None, str | None, date | None, date | None]
_SpanRow = tuple[str, str, str, int, date | None, date | None, str | None]
# uid → (own text, the mentions found in it): only clauses of citing kinds with text
Clauses = dict[str, tuple[str, list[Mention]]]


def _pack(value: object) -> bytes:
    return zlib.compress(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), 1)


def _unpack(packed: bytes) -> object:
    return pickle.loads(zlib.decompress(packed))


@dataclass(frozen=True)
class PackedLaw:
    """One law's linking input, compressed: its spans (what citations of it resolve against) apart from its
    clauses' texts and mentions (needed only when the law itself is linked). Built where the law was parsed."""

    spans: bytes
    clauses: bytes

    @classmethod
    def of(cls, timeline: LawTimeline, names: LawNames) -> PackedLaw:
        # known_until and known_in_force_on too, as the store gives them (`version_spans`): inside a gap, or past
        # "known up to", a clause is unknown, not absent (read/in_force.py)
        versions: list[_VersionRow] = [(v.revision_id, v.enforced_from, v.enforced_until, v.amended_by,
                                        v.known_until, v.known_in_force_on) for v in timeline.versions]
        provisions: list[_SpanRow] = [(p.uid, p.path, p.kind, p.seq, p.valid_from, p.valid_until,
                                       division_of(p.heading) if p.kind in CITING_KINDS else None)
                                      for p in timeline.provisions]
        clauses: Clauses = {}
        for p in timeline.provisions:
            if p.kind in CITING_KINDS and p.sentences:
                text = clause_text((s.role, s.text) for s in p.sentences)
                if text:
                    clauses[p.uid] = (text, find_statutes(text, names))
        return cls(_pack((versions, provisions)), _pack(clauses))

    def law_spans(self) -> LawSpans:
        versions: list[_VersionRow]
        provisions: list[_SpanRow]
        versions, provisions = _unpack(self.spans)  # type: ignore[misc]
        return LawSpans([VersionSpan(*v) for v in versions], [ProvisionSpan(*p) for p in provisions])

    def law_clauses(self) -> Clauses:
        return _unpack(self.clauses)  # type: ignore[return-value]


@dataclass(frozen=True)
class IngestedLaw:
    """One law as the store holds it after the ingest's write. `fresh`: it had no version before, so none of its
    clauses has a CITES edge yet and linking need not read them back."""

    packed: PackedLaw
    fresh: bool


class FoundWith:
    """The law names the mentions of an ingest were found with, and how to tell which clauses must be read again
    with the names linking uses: those whose text (without whitespace, as the finder reads it) contains a name
    that only one of the two sets has. Names are matched as substrings, so no other text can read differently."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.names = LawNames.for_catalog(catalog)

    def stale_pattern(self, link_catalog: Catalog) -> re.Pattern[str] | None:
        """A pattern matching the texts whose mentions `link_catalog` could read differently; None when the
        names are the same (the common case: every law of the ingest is in the catalogue)."""
        if link_catalog is self.catalog:
            return None
        changed = {n for n, _ in link_catalog.names()} ^ {n for n, _ in self.catalog.names()}
        if not changed:
            return None
        return re.compile("|".join(re.escape(n) for n in sorted(changed, key=len, reverse=True)))


def mentions_for(clauses: Clauses, link_names: LawNames, stale: re.Pattern[str] | None) -> dict[str, list[Mention]]:
    """uid → the mentions of each clause read with `link_names`: those found at parse time, or found again for a
    text that `stale` matches."""
    if stale is None:
        return {uid: mentions for uid, (_, mentions) in clauses.items()}
    return {uid: find_statutes(text, link_names) if stale.search(CompactText.of(text).text) else mentions
            for uid, (text, mentions) in clauses.items()}


@dataclass
class IngestedLaws:
    """The laws an ingest wrote, by law id, and the names their mentions were found with."""

    found_with: FoundWith
    laws: dict[str, IngestedLaw] = field(default_factory=dict)

    def add(self, timeline: LawTimeline, *, fresh: bool, packed: PackedLaw | None = None) -> None:
        """Record a law after its write (`packed`: built by the parse worker from this very timeline). `fresh`:
        it had no stored version before this write; a law written in two batches of one ingest stays fresh, since
        nothing linked it in between."""
        previous = self.laws.get(timeline.law_id)
        fresh = previous.fresh if previous is not None else fresh
        packed = packed or PackedLaw.of(timeline, self.found_with.names)
        self.laws[timeline.law_id] = IngestedLaw(packed, fresh)

    def get(self, law_id: str) -> IngestedLaw | None:
        return self.laws.get(law_id)

    def __contains__(self, law_id: object) -> bool:
        return law_id in self.laws

    def __len__(self) -> int:
        return len(self.laws)

    def packed_bytes(self) -> int:
        return sum(len(law.packed.spans) + len(law.packed.clauses) for law in self.laws.values())


class CorpusRevisions(StoreRevisions):
    """`StoreRevisions` that decodes the ingested laws (into the same bounded cache) and reads the store only for
    the laws the ingest did not write. Every law is read whole: linking a law asks about hundreds of clauses."""

    paths_before_whole = 0

    def __init__(self, store: GraphStore | None, ingested: IngestedLaws | None, *, max_laws: int = 1024) -> None:
        super().__init__(store, max_laws=max_laws)  # type: ignore[arg-type]
        self._ingested = ingested

    def _read(self, law_id: str) -> LawSpans:
        known = self._ingested.get(law_id) if self._ingested is not None else None
        if known is not None:
            return known.packed.law_spans()
        if self._store is None:  # a worker process: every stored law is among the ingested ones
            return _ABSENT
        return super()._read(law_id)


_ABSENT = LawSpans((), ())
