"""What an ingest just wrote, kept in memory for linking: each law's versions and clause spans, and the own text of
each citing clause.

Linking the whole e-Gov corpus reads every clause's text once and resolves about two million citations against
the shape of the laws they cite. Reading both back from the store (two queries per law, and the cited laws again
whenever they fall out of a small cache) cost more than the resolution itself; the ingest has them at hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lexgraph.read.revisions import LawSpans, ProvisionSpan, StoreRevisions, VersionSpan
from lexgraph.statutes.timeline import LawTimeline
from lexgraph.store.base import GraphStore

CITING_KINDS = frozenset({"paragraph", "item", "subitem"})  # articles repeat their paragraphs' text


@dataclass(frozen=True)
class IngestedLaw:
    """One law as the store holds it after the ingest's write. `fresh`: it had no version before, so none of its
    clauses has a CITES edge yet and linking need not read them back."""

    spans: LawSpans
    own_texts: dict[str, str]  # clause uid → its own sentences (本文, ただし書 …), citing kinds only
    fresh: bool


@dataclass
class IngestedLaws:
    """The laws an ingest wrote, by law id."""

    laws: dict[str, IngestedLaw] = field(default_factory=dict)

    def add(self, timeline: LawTimeline, *, fresh: bool) -> None:
        """Record a law after its write. `fresh`: it had no stored version before this write; a law written in
        two batches of one ingest stays fresh, since nothing linked it in between."""
        previous = self.laws.get(timeline.law_id)
        fresh = previous.fresh if previous is not None else fresh
        versions = [VersionSpan(v.revision_id, v.enforced_from, v.enforced_until, v.amended_by)
                    for v in timeline.versions]
        provisions = [ProvisionSpan(p.uid, p.path, p.kind, p.seq, p.valid_from, p.valid_until)
                      for p in timeline.provisions]
        own_texts = {p.uid: "".join(s.text for s in p.sentences) for p in timeline.provisions
                     if p.kind in CITING_KINDS and p.sentences}
        self.laws[timeline.law_id] = IngestedLaw(LawSpans(versions, provisions), own_texts, fresh)

    def get(self, law_id: str) -> IngestedLaw | None:
        return self.laws.get(law_id)

    def __contains__(self, law_id: object) -> bool:
        return law_id in self.laws

    def __len__(self) -> int:
        return len(self.laws)


class CorpusRevisions(StoreRevisions):
    """`StoreRevisions` that answers from the ingested laws first (never evicted) and reads the store only for the
    laws the ingest did not write."""

    def __init__(self, store: GraphStore | None, ingested: IngestedLaws, *, max_laws: int = 1024) -> None:
        super().__init__(store, max_laws=max_laws)  # type: ignore[arg-type]
        self._ingested = ingested

    def law(self, law_id: str) -> LawSpans:
        known = self._ingested.get(law_id)
        if known is not None:
            return known.spans
        if self._store is None:  # a worker process: every stored law is among the ingested ones
            return _ABSENT
        return super().law(law_id)


_ABSENT = LawSpans((), ())
