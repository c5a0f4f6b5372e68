"""The store as the citation resolver sees it: which revision of a law was in force on a day, and whether a
clause existed then.

Resolving one judgment asks these questions dozens of times about a handful of laws, and linking a whole law's
cross-references thousands of times, so each law's versions and clause spans are read once and kept (a small LRU
of laws, so that memory stays bounded on the full corpus).
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from lexgraph.model import KnownAmendment
from lexgraph.store.base import GraphStore

if TYPE_CHECKING:
    from lexgraph.read.in_force import Answer

_DIGITS = re.compile(r"\d+")


@dataclass(frozen=True, slots=True)  # slots: a corpus ingest keeps 1.6 M spans in memory for linking
class VersionSpan:
    revision_id: str
    enforced_from: date | None
    enforced_until: date | None
    amended_by: str | None
    known_until: date | None = None  # see LawVersionInfo.known_until
    known_in_force_on: date | None = None  # see LawVersionInfo.known_in_force_on
    gap: tuple[KnownAmendment, ...] = ()  # the amendments in this version's gap (`LawVersionInfo.gap`)
    scheduled: bool = False  # promulgated, not yet in force on the last sync day (interface with issue 30)

    @property
    def known_up_to(self) -> date | None:
        """Same rule as `LawVersionInfo.known_up_to`: for the newest version, the last day its wording is known
        in force; None for a version that ends."""
        if self.enforced_until is not None:
            return None
        days = [d for d in (self.enforced_from, self.known_in_force_on) if d is not None]
        return max(days) if days else None

    def covers(self, day: date) -> bool:
        return (self.enforced_from is None or self.enforced_from <= day) and (
            self.enforced_until is None or day < self.enforced_until
        )

    def in_gap(self, day: date) -> bool:
        """Same rule as `LawVersionInfo.in_gap`: after an amendment the store knows of but does not hold."""
        return self.known_until is not None and self.known_until <= day and self.covers(day)


@dataclass(frozen=True, slots=True)
class ProvisionSpan:
    """One clause node: a run of identical wording of `path`, valid on [valid_from, valid_until)."""

    uid: str
    path: str
    kind: str
    seq: int
    valid_from: date | None
    valid_until: date | None

    def covers(self, day: date | None) -> bool:
        if day is None:
            return self.valid_until is None  # no date given: the clause as it stands now
        return (self.valid_from is None or self.valid_from <= day) and (
            self.valid_until is None or day < self.valid_until
        )

    def overlaps(self, start: date | None, end: date | None) -> bool:
        """Whether this clause was in force at some time in [start, end) (open ends are unbounded)."""
        return (self.valid_from is None or end is None or self.valid_from < end) and (
            self.valid_until is None or start is None or start < self.valid_until
        )


class LawSpans:
    """A law's versions and clause nodes, indexed by path."""

    def __init__(self, versions: Iterable[VersionSpan], provisions: Iterable[ProvisionSpan]) -> None:
        self.versions = sorted(versions, key=lambda v: (v.enforced_from or date.min, v.revision_id))
        self.by_path: dict[str, list[ProvisionSpan]] = {}
        self._articles: dict[str, list[str]] = {}
        for span in sorted(provisions, key=lambda p: (p.path, p.valid_from or date.min)):
            self.by_path.setdefault(span.path, []).append(span)

    @property
    def stored(self) -> bool:
        return bool(self.versions)

    def version_on(self, day: date) -> VersionSpan | None:
        # a scheduled revision whose day e-Gov leaves open (政令で定める日) is never read as in force on any day
        return next((v for v in self.versions if v.covers(day) and not (v.scheduled and v.enforced_from is None)),
                    None)

    def at(self, path: str, day: date | None) -> ProvisionSpan | None:
        return next((p for p in self.by_path.get(path, ()) if p.covers(day)), None)

    def overlapping(self, path: str, start: date | None, end: date | None) -> list[ProvisionSpan]:
        return [p for p in self.by_path.get(path, ()) if p.overlaps(start, end)]

    def articles_between(self, first: str, last: str) -> list[str]:
        """Clause paths from `first` to `last` inclusive, in the law's own order: articles (第三条から第五条まで),
        and the paragraphs, items or subitems of one clause (２条２号から７号まで: ``a2/p1/i2`` … ``a2/p1/i7``),
        which a citation gives as one range (issue 14)."""
        paths = self._articles_under(first.rpartition("/")[0], first.rpartition("/")[2][:1])
        if first not in paths or last not in paths:
            return [p for p in (first, last) if p in self.by_path]
        i, j = paths.index(first), paths.index(last)
        return paths[i : j + 1] if i <= j else [first, last]

    def _articles_under(self, parent: str, letter: str = "a") -> list[str]:
        """The articles (or with `letter` p / i / s, the paragraphs, items, subitems) directly under `parent` (""
        for the main provisions, "suppl" …) in number order, computed once per parent: ranges are common in 附則
        and a law has thousands of clauses."""
        key = parent if letter == "a" else f"{parent}|{letter}"
        if key not in self._articles:
            self._articles[key] = sorted(
                (path for path, spans in self.by_path.items()
                 if path.rpartition("/")[0] == parent and path.rpartition("/")[2][:1] == letter
                 and (letter != "a" or spans[0].kind == "article")),
                key=_article_order,
            )
        return self._articles[key]


class StoreRevisions:
    """`RevisionLookup` and `AmendmentLookup` (lexgraph.citations.context) over a graph store."""

    def __init__(self, store: GraphStore, *, max_laws: int = 64) -> None:
        self._store = store
        self._max_laws = max_laws
        self._laws: OrderedDict[str, LawSpans] = OrderedDict()

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

    def revision_in_force(self, law_id: str, on: date) -> str | None:
        version = self.law(law_id).version_on(on)
        return version.revision_id if version else None

    def wording_on(self, law_id: str, path: str, on: date) -> Answer:
        """The one decision (`lexgraph.read.in_force.wording_on`) over this law's cached spans."""
        from lexgraph.read.in_force import wording_on  # the decision module builds on the spans defined here

        return wording_on(self.law(law_id), law_id, path, on)

    def provision_exists(self, law_id: str, path: str, on: date) -> bool | None:
        """True when the clause is in force on `on` with a known wording; False when it is not in force (or in no
        version around the day); None when the store cannot know (law absent, a gap, past "known up to")."""
        from lexgraph.read.in_force import InForce, NotInForce

        if not self.law(law_id).stored:
            return None
        answer = self.wording_on(law_id, path, on)
        if isinstance(answer, InForce):
            return True
        return False if isinstance(answer, NotInForce) else None

    def gap_note(self, law_id: str, path: str, on: date) -> str | None:
        """`GapLookup`: why the wording of `path` on `on` is unknown (a gap, past "known up to", before the first
        stored version), or None when it is known or not in force."""
        from lexgraph.read.in_force import Unknown

        if not self.law(law_id).stored:
            return None
        answer = self.wording_on(law_id, path, on)
        return answer.reason if isinstance(answer, Unknown) else None

    def absent_note(self, law_id: str, path: str, on: date) -> tuple[str, bool] | None:
        """`AbsenceLookup`: why the clause was not in force on `on`, and whether no stored version is known in
        force that day (a gap), or None when it was, or the store cannot know."""
        from lexgraph.read.in_force import NotInForce

        if not self.law(law_id).stored:
            return None
        answer = self.wording_on(law_id, path, on)
        if not isinstance(answer, NotInForce):
            return None
        return answer.reason, answer.version is not None and answer.version.in_gap(on)

    def revision_around_amendment(self, law_id: str, amending_law_id: str, before: bool) -> str | None:
        versions = self.law(law_id).versions
        for index, version in enumerate(versions):
            if version.amended_by == amending_law_id:
                if not before:
                    return version.revision_id
                return versions[index - 1].revision_id if index > 0 else None
        return None

    def _read(self, law_id: str) -> LawSpans:
        versions = version_spans(self._store, law_id)
        provisions = [_provision(r) for r in self._store.query("law_provision_spans", law_id=law_id)] if versions \
            else []
        return LawSpans(versions, provisions)


class ClauseSpans:
    """The in-force decision's input for a handful of clauses (`law show`, `law cites`, a search's hits, a graph
    view): each law's versions once, and only the spans of the paths asked, where `StoreRevisions` reads every
    clause of a law (worth it for a resolver asking hundreds of questions, not for five)."""

    def __init__(self, store: GraphStore) -> None:
        self._store = store
        self._versions: dict[str, list[VersionSpan]] = {}
        self._spans: dict[tuple[str, str], LawSpans] = {}

    def versions(self, law_id: str) -> LawSpans:
        """The law's versions alone (for the law as a whole: `in_force.version_known_on`)."""
        return LawSpans(self._law_versions(law_id), ())

    def law_for(self, law_id: str, path: str) -> LawSpans:
        key = (law_id, path)
        if key not in self._spans:
            versions = self._law_versions(law_id)
            rows = self._store.query("provision_spans_of_path", law_id=law_id, path=path) if versions else []
            self._spans[key] = LawSpans(versions, [_provision(r) for r in rows])
        return self._spans[key]

    def wording_on(self, law_id: str, path: str, on: date) -> Answer:
        """The one decision (`lexgraph.read.in_force.wording_on`) for one clause."""
        from lexgraph.read.in_force import wording_on

        return wording_on(self.law_for(law_id, path), law_id, path, on)

    def _law_versions(self, law_id: str) -> list[VersionSpan]:
        if law_id not in self._versions:
            self._versions[law_id] = version_spans(self._store, law_id)
        return self._versions[law_id]


def version_spans(store: GraphStore, law_id: str) -> list[VersionSpan]:
    """A law's stored versions in time order, without its clauses (for `LawSpans.version_on` alone)."""
    return [VersionSpan(r["revision_id"], r["enforced_from"], r["enforced_until"], r["amended_by"],
                        r.get("known_until"), r.get("known_in_force_on"), amendments_from_json(r.get("gap")),
                        bool(r.get("scheduled")))
            for r in store.query("law_versions", law_id=law_id)]


def amendments_from_json(raw: str | None) -> tuple[KnownAmendment, ...]:
    """A LawVersion's ``gap`` or ``amendments`` property (NULL on versions stored before migration V007)."""
    return tuple(KnownAmendment.from_json(item) for item in json.loads(raw)) if raw else ()


def _article_order(path: str) -> tuple[int, ...]:
    """"a3_2" → (3, 2): articles in the order of their numbers, branch numbers after their stem."""
    return tuple(int(d) for d in _DIGITS.findall(path.rpartition("/")[2]))


def _provision(row: dict[str, Any]) -> ProvisionSpan:
    return ProvisionSpan(row["uid"], row["path"], row["kind"], int(row["seq"] or 0), row["valid_from"],
                         row["valid_until"])
