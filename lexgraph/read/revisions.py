"""The store as the citation resolver sees it: which revision of a law was in force on a day, and whether a
clause existed then.

Resolving one judgment asks these questions dozens of times about a handful of laws, and linking a whole law's
cross-references thousands of times, so each law's versions and clause spans are read once and kept (a small LRU
of laws, so that memory stays bounded on the full corpus). A short text asks about a clause or two, so a law's
clauses are read one by one until a few were asked about (`PATHS_BEFORE_WHOLE`), and only then whole.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from datetime import date

from lexgraph.citations.model import Citation
from lexgraph.model import KnownAmendment
from lexgraph.numerals import division_of
from lexgraph.read.in_force import Answer, InForce, OutOfForce, Unknown, wording_on
from lexgraph.read.spans import LawSpans as LawSpans  # re-exported: the resolver and ingest import them from here
from lexgraph.read.spans import ProvisionSpan as ProvisionSpan
from lexgraph.read.spans import VersionSpan as VersionSpan
from lexgraph.read.targets import each_item, outside_articles
from lexgraph.statutes.amendments import law_num_of_act_id
from lexgraph.store.base import GraphStore
from lexgraph.store.rows import (
    LAW_PROVISION_SPANS,
    LAW_VERSIONS,
    LAW_VERSIONS_FOR_LAWS,
    PROVISION_SPANS_OF_PATH,
    PROVISION_SPANS_OF_PATHS,
    ClauseSpanRow,
    LawVersionRow,
    LawVersionsForLawsRow,
    ProvisionSpansOfPathsRow,
)

#: Distinct clauses of one law asked about before `StoreRevisions` reads the law whole: below it each clause's spans
#: are read alone (a short text's two citations: two reads of a few ms), from it on the whole law once (a judgment's
#: hundreds of questions about 民法 in one read of its 4,000 clause nodes, about 80 ms on the embedded store).
PATHS_BEFORE_WHOLE = 8


class StoreRevisions:
    """`RevisionLookup` and `AmendmentLookup` (lexgraph.citations.context) over a graph store."""

    #: Clauses of a law asked about one by one before the law is read whole (`_spans_for`); a subclass whose
    #: `_read` costs nothing (laws decoded in memory) sets 0: always whole.
    paths_before_whole = PATHS_BEFORE_WHOLE

    def __init__(self, store: GraphStore, *, max_laws: int = 64) -> None:
        self._store = store
        self._max_laws = max_laws
        self._laws: OrderedDict[str, LawSpans] = OrderedDict()
        # Before a law is read whole: its versions, and the spans of the few paths asked so far (`_spans_for`).
        self._clauses = ClauseSpans(store)

    def law(self, law_id: str) -> LawSpans:
        """The law's spans, read once and kept while it is among the `max_laws` most recently used."""
        spans = self._laws.get(law_id)
        if spans is None:
            spans = self._read(law_id)
            self._laws[law_id] = spans
            if len(self._laws) > self._max_laws:
                self._laws.popitem(last=False)
        else:
            self._laws.move_to_end(law_id)
        return spans

    def forget(self, law_ids: Iterable[str]) -> None:
        """Drop cached laws after they were written to."""
        for law_id in law_ids:
            self._laws.pop(law_id, None)
            self._clauses.forget(law_id)

    def read_versions(self, law_ids: Iterable[str]) -> None:
        """`VersionsAhead`: the versions of every law in `law_ids` not kept yet, read in one query (a judgment
        that names nine laws made nine reads, each a scan of the stored versions on the embedded store), kept for
        `versions` and for the law's whole reading. A lookup that always reads laws whole (`paths_before_whole`
        0: laws decoded in memory, or a linking worker with no store) reads nothing ahead."""
        if self.paths_before_whole:
            self._clauses.read_versions(law for law in law_ids if law not in self._laws)

    def versions(self, law_id: str) -> LawSpans:
        """The law's versions, without reading its clauses (the whole law when it is already kept)."""
        return self.law(law_id) if self._read_whole(law_id) else self._clauses.versions(law_id)

    def revision_in_force(self, law_id: str, on: date) -> str | None:
        version = self.versions(law_id).version_on(on)
        return version.revision_id if version else None

    def wording_on(self, law_id: str, path: str, on: date) -> Answer:
        """The one decision (`lexgraph.read.in_force.wording_on`) over this law's cached spans."""
        return wording_on(self._spans_for(law_id, path), law_id, path, on)

    def _spans_for(self, law_id: str, path: str) -> LawSpans:
        """What the decision on one clause needs: the clause's own spans while few of the law's clauses were asked
        about (a `cite` on a short text asks about two, and reading all of 民法 was a sixth of its start-up), the
        whole law from the `PATHS_BEFORE_WHOLE`-th on (a judgment asks about hundreds)."""
        if self._read_whole(law_id):
            return self.law(law_id)
        if len(self._clauses.paths_read(law_id) | {path}) >= self.paths_before_whole:
            whole = self.law(law_id)  # `_read` takes the versions the clauses asked before were read with
            self._clauses.forget(law_id)
            return whole
        return self._clauses.law_for(law_id, path)

    def _read_whole(self, law_id: str) -> bool:
        """Whether the law is answered from its whole reading: kept already, or always (`paths_before_whole` 0)."""
        return law_id in self._laws or not self.paths_before_whole

    def provision_exists(self, law_id: str, path: str, on: date) -> bool | None:
        """True when the clause is in force on `on` with a known wording; False when it is not in force (or in no
        version around the day); None when the store cannot know (law absent, a gap, past "known up to")."""
        if not self.versions(law_id).stored:
            return None
        answer = self.wording_on(law_id, path, on)
        if isinstance(answer, InForce):
            return True
        return False if isinstance(answer, OutOfForce) else None

    def gap_note(self, law_id: str, path: str, on: date) -> str | None:
        """`GapLookup`: why the wording of `path` on `on` is unknown (a gap, past "known up to", before the first
        stored version), or None when it is known or not in force."""
        if not self.versions(law_id).stored:
            return None
        answer = self.wording_on(law_id, path, on)
        return answer.reason if isinstance(answer, Unknown) else None

    def absent_note(self, law_id: str, path: str, on: date) -> tuple[str, bool] | None:
        """`AbsenceLookup`: why the clause was not in force on `on`, and whether no stored version is known in
        force that day (a gap), or None when it was, or the store cannot know."""
        if not self.versions(law_id).stored:
            return None
        answer = self.wording_on(law_id, path, on)
        if not isinstance(answer, OutOfForce):
            return None
        return answer.reason, answer.version is not None and answer.version.in_gap(on)

    def target_note(self, citation: Citation, on: date, at: str | None = None) -> str | None:
        """`StructureLookup`: why a division or appendix citation (第三章, 別表第一) finds no node in force on `on`:
        the law does not hold it (`read.targets`), or the in-force decision's reason for it that day; None when it
        does, or when the law is not stored."""
        law = self.law(citation.law_id or "")
        if not law.stored:
            return None
        named = outside_articles(citation, law, _division_at(law, at, on) if at else None)
        if not named.paths:
            return named.reason
        answers = [self.wording_on(citation.law_id or "", path, on) for path in named.paths]
        missing = [answer for answer in answers if not isinstance(answer, InForce)]
        return None if len(missing) < len(answers) else f"{missing[0].reason}: not linked"

    def relative_division(self, citation: Citation, on: date, at: str) -> tuple[str, ...] | str | None:
        """`StructureLookup`: the division 前章 / この節 / 次款 names, read from the clause `at` in force on `on`
        (`read.targets`), or the reason none is; None when the law is not stored."""
        law = self.law(citation.law_id or "")
        if not law.stored:
            return None
        named = outside_articles(citation, law, _division_at(law, at, on))
        return named.paths or named.reason or "no division found"

    def members(self, law_id: str, first: str, last: str, on: date) -> tuple[str, ...] | None:
        """`MemberLookup`: the clauses of a range from `first` to `last` in force on `on`, in the law's order
        (第三条から第五条まで with 第三条の二 between), or None when the law is not stored. A clause whose wording
        that day is unknown (an amendment the store does not hold) is still a member: only one not in force is
        left out."""
        law = self.law(law_id)
        if not law.stored:
            return None
        return tuple(path for path in law.articles_between(first, last)
                     if not isinstance(self.wording_on(law_id, path, on), OutOfForce))

    def items(self, citation: Citation, on: date) -> tuple[str, ...] | str | None:
        """`StructureLookup`: the first and last item a 各号 citation means on `on` (the items in force that day), a
        reason when there are none, or None when the law is not stored."""
        law = self.law(citation.law_id or "")
        if not law.stored:
            return None
        named = each_item(citation, law)
        if named is None:
            return None
        if not named.paths:
            return named.reason
        first, last = named.paths[0], named.paths[-1]
        in_force = [path for path in law.articles_between(first, last) if law.at(path, on) is not None]
        if not in_force:
            return f"none of the items of {citation.surface} was in force on {on.isoformat()}: 各号 not expanded"
        return (in_force[0], in_force[-1]) if len(in_force) > 1 else (in_force[0],)

    def revision_around_amendment(self, law_id: str, amending_law_id: str, before: bool) -> str | None:
        """The stored version the amendment made (`before` False), or the one just before it, when the store
        knows it is that one: the version before is none when the 附則 name amendments the store does not hold
        between the two (a gap), since the wording just before the amendment may then be another."""
        versions = [v for v in self.versions(law_id).versions if not v.scheduled]
        number = law_num_of_act_id(amending_law_id)
        for index, version in enumerate(versions):
            if version.amended_by == amending_law_id or (
                    number is not None and version.amended_by and law_num_of_act_id(version.amended_by) == number):
                if not before:
                    return version.revision_id
                previous = versions[index - 1] if index > 0 else None
                return previous.revision_id if previous is not None and previous.known_until is None else None
        return None

    def _read(self, law_id: str) -> LawSpans:
        versions = self._clauses.versions_kept(law_id)
        if versions is None:
            versions = version_spans(self._store, law_id)
        provisions = [_provision(r) for r in self._store.rows(LAW_PROVISION_SPANS, law_id=law_id)] if versions \
            else []
        return LawSpans(versions, provisions)


class ClauseSpans:
    """The in-force decision's input for a handful of clauses (`law show`, `law cites`, a search's hits, a graph
    view): each law's versions once, and only the spans of the paths asked, where `StoreRevisions` reads every
    clause of a law (worth it for a resolver asking hundreds of questions, not for five)."""

    def __init__(self, store: GraphStore) -> None:
        self._store = store
        self._versions: dict[str, list[VersionSpan]] = {}
        self._spans: dict[str, dict[str, LawSpans]] = {}  # law → path → its spans

    def versions(self, law_id: str) -> LawSpans:
        """The law's versions alone (for the law as a whole: `in_force.version_known_on`)."""
        return LawSpans(self._law_versions(law_id), ())

    def read(self, clauses: Iterable[tuple[str, str]]) -> None:
        """Read the input of the decision for many clauses, ``(law id, path)``, at once: a search asks about forty
        of them, and asked one by one each costs a query that walks its law's whole version (on lawqa_jp's 18
        laws, 200 ms a search; together, one query for their laws' versions and one for their clause nodes,
        17 ms). `law_for` then finds them read; what it gives is what it would have read alone."""
        wanted = [(law, path) for law, path in dict.fromkeys(clauses) if path not in self._spans.get(law, {})]
        self.read_versions(law for law, _ in wanted)
        stored = [(law, path) for law, path in wanted if self._versions[law]]  # no version: no clause to read
        rows = self._store.rows(PROVISION_SPANS_OF_PATHS, law_ids=sorted({law for law, _ in stored}),
                                 paths=sorted({path for _, path in stored})) if stored else []
        found: dict[tuple[str, str], list[ProvisionSpan]] = {}
        for row in rows:  # every path asked is read in every law asked: keep the pairs asked
            found.setdefault((row.law_id, row.path), []).append(_provision(row))
        for law, path in wanted:
            self._spans.setdefault(law, {})[path] = LawSpans(self._versions[law], found.get((law, path), []))

    def read_versions(self, law_ids: Iterable[str]) -> None:
        """Read the versions of the laws in `law_ids` whose versions are not kept, in one query."""
        laws = [law for law in dict.fromkeys(law_ids) if law not in self._versions]
        if laws:
            self._versions.update(versions_of_laws(self._store, laws))

    def law_for(self, law_id: str, path: str) -> LawSpans:
        paths = self._spans.setdefault(law_id, {})
        if path not in paths:
            versions = self._law_versions(law_id)
            rows = self._store.rows(PROVISION_SPANS_OF_PATH, law_id=law_id, path=path) if versions else []
            paths[path] = LawSpans(versions, [_provision(r) for r in rows])
        return paths[path]

    def wording_on(self, law_id: str, path: str, on: date) -> Answer:
        """The one decision (`lexgraph.read.in_force.wording_on`) for one clause."""
        return wording_on(self.law_for(law_id, path), law_id, path, on)

    def versions_kept(self, law_id: str) -> list[VersionSpan] | None:
        """The law's versions when they were read already (None: not read)."""
        return self._versions.get(law_id)

    def paths_read(self, law_id: str) -> set[str]:
        """The law's clauses whose spans are kept."""
        return set(self._spans.get(law_id, ()))

    def forget(self, law_id: str) -> None:
        """Drop what is kept of the law (its versions, its clauses' spans)."""
        self._versions.pop(law_id, None)
        self._spans.pop(law_id, None)

    def _law_versions(self, law_id: str) -> list[VersionSpan]:
        if law_id not in self._versions:
            self._versions[law_id] = version_spans(self._store, law_id)
        return self._versions[law_id]


def _division_at(law: LawSpans, at: str, on: date) -> str | None:
    """The division the clause `at` sits in on `on`: its own, or, for an article (whose node has no heading in
    the store), its first paragraph's."""
    citing = law.at(at, on)
    if citing is not None and citing.division is not None:
        return citing.division
    for path in (f"{at}/p1", *(p for p in law.by_path if p.startswith(f"{at}/"))):
        inner = law.at(path, on) if path in law.by_path else None
        if inner is not None and inner.division is not None:
            return inner.division
    return None


def version_spans(store: GraphStore, law_id: str) -> list[VersionSpan]:
    """A law's stored versions in time order, without its clauses (for `LawSpans.version_on` alone)."""
    return [_version(r) for r in store.rows(LAW_VERSIONS, law_id=law_id)]


def versions_of_laws(store: GraphStore, law_ids: Sequence[str]) -> dict[str, list[VersionSpan]]:
    """`version_spans` of several laws in one read; a law without versions maps to an empty list."""
    out: dict[str, list[VersionSpan]] = {law_id: [] for law_id in law_ids}
    for row in store.rows(LAW_VERSIONS_FOR_LAWS, law_ids=list(law_ids)):
        out[row.law_id].append(_version(row))
    return out


def _version(row: LawVersionRow | LawVersionsForLawsRow) -> VersionSpan:
    return VersionSpan(row.revision_id, row.enforced_from, row.enforced_until, row.amended_by,
                       row.known_until, row.known_in_force_on, amendments_from_json(row.gap),
                       bool(row.scheduled), row.dated_by or "")


def amendments_from_json(raw: str | None) -> tuple[KnownAmendment, ...]:
    """A LawVersion's ``gap`` or ``amendments`` property (NULL on versions stored before migration V007)."""
    return tuple(KnownAmendment.from_json(item) for item in json.loads(raw)) if raw else ()


def _provision(row: ClauseSpanRow | ProvisionSpansOfPathsRow) -> ProvisionSpan:
    heading = row.heading
    return ProvisionSpan(row.uid, row.path, row.kind, int(row.seq or 0), row.valid_from,
                         row.valid_until, division_of(heading) if heading else None)
