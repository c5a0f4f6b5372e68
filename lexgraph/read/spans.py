"""A law's versions and clause periods as values: what the in-force decision (`read/in_force.py`) reads, and what
`StoreRevisions` (read/revisions.py) caches per law. No store access here, so that the decision and its cache
import it without importing each other."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from lexgraph.model import KnownAmendment
from lexgraph.numerals import APPENDIX_PLACES, appendix_label

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
    scheduled: bool = False  # promulgated, not yet in force on the last sync day
    dated_by: str = ""  # see LawVersionInfo.dated_by

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
    division: str | None = None  # the division a citing clause sits in (``pt2/ch3/se1``), for 第一節 written alone

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
        which a citation gives as one range."""
        paths = self._articles_under(first.rpartition("/")[0], first.rpartition("/")[2][:1])
        if first not in paths or last not in paths:
            return [p for p in (first, last) if p in self.by_path]
        i, j = paths.index(first), paths.index(last)
        return paths[i : j + 1] if i <= j else [first, last]

    def divisions(self, written: str, within: str | None = None) -> list[str]:
        """The stored divisions a citation's division path names. Read, as a drafter writes it, from
        the division the citing clause sits in (`within`, ``pt2/ch3/se1``) outwards: 第一節 in 第二編第三章 is that
        chapter's (``pt2/ch3/se1``), 第三章第一節 there is ``pt2/ch3/se1`` too, 第四編 is ``pt4``. Without a place
        to read from (a judgment), ``ch3/se2`` itself, or, in a law divided into 編 where the text writes no 編,
        every 第二章 of the main provisions (several: the text does not say which, and the caller says so)."""
        enclosing = within.split("/") if within else []
        for depth in range(len(enclosing), -1, -1):
            candidate = "/".join([*enclosing[:depth], written])
            if self._is_division(candidate):
                return [candidate]
        return sorted(path for path, spans in self.by_path.items()
                      if spans[0].kind == "division" and path.endswith(f"/{written}") and not path.startswith("suppl"))

    def divisions_between(self, first: str, last: str) -> list[str]:
        """第三章から第四章の二まで: the divisions of `first`'s level and parent from `first` to `last` (written at
        its own level, ``ch4_2``, or with the levels above it, ``ch3/se3``), in number order, branches after their
        stem; just the two ends when `last` is not a sibling of `first`."""
        parent = first.rpartition("/")[0]
        end = f"{parent}/{last.rpartition('/')[2]}" if parent else last.rpartition("/")[2]
        siblings = self.siblings(first)
        if first not in siblings or end not in siblings:
            return [p for p in dict.fromkeys((first, end)) if self._is_division(p)]
        i, j = siblings.index(first), siblings.index(end)
        return siblings[i : j + 1] if i <= j else [first, end]

    def siblings(self, division: str) -> list[str]:
        """The stored divisions of `division`'s level under its parent (``pt2/ch3`` → every ``pt2/chN``), in
        number order, branches after their stem (第四章, 第四章の二): what 前章 / 次章 count along."""
        parent, _, own = division.rpartition("/")
        key = own.rstrip("0123456789_")
        return sorted((path for path, spans in self.by_path.items()
                       if spans[0].kind == "division" and path.rpartition("/")[0] == parent
                       and path.rpartition("/")[2].rstrip("0123456789_") == key),
                      key=_article_order)

    def appendices(self, written: str) -> list[str]:
        """The stored appendices of the main provisions that 別表第一, 様式第二号, 別記様式 (as written) names:
        statutes.egov numbers an appendix by its title, so 別表第一 is ``appdx_table1``. Several where a law keeps
        a 様式第一 as an AppdxStyle and another as an AppdxFormat."""
        label = appendix_label(written)
        if label is None:
            return []
        word, num = label
        return [path for kind in APPENDIX_PLACES.get(word, ()) if (path := f"{kind}{num}") in self.by_path]

    def members(self, parent: str, letter: str) -> list[str]:
        """The paragraphs (`letter` p), items (i) or subitems (s) directly under `parent`, in number order."""
        return list(self._articles_under(parent, letter))

    def _is_division(self, path: str) -> bool:
        spans = self.by_path.get(path)
        return spans is not None and bool(spans) and spans[0].kind == "division"

    def _articles_under(self, parent: str, letter: str = "a") -> list[str]:
        """The articles (or with `letter` p / i / s, the paragraphs, items, subitems) directly under `parent` (""
        for the main provisions, "suppl" …) in number order, computed once per parent: ranges are common in 附則
        and a law has thousands of clauses."""
        key = parent if letter == "a" else f"{parent}|{letter}"
        if key not in self._articles:
            self._articles[key] = sorted(
                (path for path, spans in self.by_path.items()
                 if path.rpartition("/")[0] == parent and path.rpartition("/")[2][:1] == letter
                 and path.rpartition("/")[2][1:2].isdigit()  # not a division: pt1, se2, ss3
                 and (letter != "a" or spans[0].kind == "article")),
                key=_article_order,
            )
        return self._articles[key]


def _article_order(path: str) -> tuple[int, ...]:
    """"a3_2" → (3, 2): articles in the order of their numbers, branch numbers after their stem."""
    return tuple(int(d) for d in _DIGITS.findall(path.rpartition("/")[2]))
