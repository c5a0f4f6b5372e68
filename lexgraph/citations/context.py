"""What the resolver knows about the text it reads: the date, the catalogue, the store's revisions, the clause being
read, and what was cited so far.

The context is a frozen value. Reading a text produces a new `ResolutionState` (the last law and clause cited, the
abbreviations defined) that the caller can hand to the next piece of text, e.g. the next clause of the same law or
the next paragraph of a judgment: ``replace(context, state=new_state)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import Protocol, TypeGuard, TypeVar, runtime_checkable

from lexgraph.citations.model import Citation, Status, VersionPin, fill_dict_init
from lexgraph.errors import InputError
from lexgraph.numerals import parse_clause
from lexgraph.statutes.catalog import Catalog
from lexgraph.statutes.former_titles import FormerTitle


@runtime_checkable
class RevisionLookup(Protocol):
    """What the store tells the resolver. Either method may answer None for "unknown" (law not stored, no version
    covering the date), and the resolver then says so instead of guessing."""

    def revision_in_force(self, law_id: str, on: date) -> str | None:
        """The revision id of `law_id` in force on `on`."""
        ...

    def provision_exists(self, law_id: str, path: str, on: date) -> bool | None:
        """Whether the clause at `path` exists in the version of `law_id` in force on `on`."""
        ...


@runtime_checkable
class AmendmentLookup(Protocol):
    """Optional extra a `RevisionLookup` may offer, for version pins (「平成１１年法律第１４９号による改正前の民法」):
    the revision just before (or the first one after) the amendment made by `amending_law_id`."""

    def revision_around_amendment(self, law_id: str, amending_law_id: str, before: bool) -> str | None: ...


@runtime_checkable
class GapLookup(Protocol):
    """Optional extra a `RevisionLookup` may offer (docs/statutes.md): why the wording of a clause on
    a day is unknown (the day falls after an amendment the store knows of but does not hold, and the clause reads
    differently in the next stored version), or None when it is not."""

    def gap_note(self, law_id: str, path: str, on: date) -> str | None: ...


@runtime_checkable
class AbsenceLookup(Protocol):
    """Optional extra a `RevisionLookup` may offer: why a clause was not in force on a day (the in-force decision's
    reason, lexgraph.read.in_force), and whether no stored version is known in force then (inside a gap)."""

    def absent_note(self, law_id: str, path: str, on: date) -> tuple[str, bool] | None: ...


@runtime_checkable
class StructureLookup(Protocol):
    """Optional extra a `RevisionLookup` may offer: what only a store that holds the law knows of its
    structure. `target_note` says why a division or appendix citation finds no node in force on `on` (None when
    it does, or the law is not stored), reading a division from the clause `at` of the same law when one is being
    read (第一節 there is its chapter's); `items` gives the first and last item a 各号 citation means on `on` (one
    path for a single item), a reason when there are none to give, or None when the law is not stored;
    `relative_division` the path (one) of the division 前章 / この節 / 次款 names from the clause `at` (a reason when
    none, None when the law is not stored)."""

    def target_note(self, citation: Citation, on: date, at: str | None = None) -> str | None: ...

    def items(self, citation: Citation, on: date) -> tuple[str, ...] | str | None: ...

    def relative_division(self, citation: Citation, on: date, at: str) -> tuple[str, ...] | str | None: ...


@runtime_checkable
class MemberLookup(Protocol):
    """Optional extra a `RevisionLookup` may offer: the clauses in force on `on` from `first` to `last` of a law,
    in the law's order (a range's members, 第二条の二 included), or None when the law is not stored."""

    def members(self, law_id: str, first: str, last: str, on: date) -> tuple[str, ...] | None: ...


@runtime_checkable
class VersionsAhead(Protocol):
    """Optional extra a `RevisionLookup` may offer: read the versions of all the laws a piece of text names in one
    go, before the resolver asks about them one by one. Why: a judgment names a dozen laws, and a store read per law
    costs a query each (on the whole archive, a scan of the versions each time); read together, one query answers
    them all, and the resolver's later questions find them kept."""

    def read_versions(self, law_ids: Iterable[str]) -> None: ...


_Offered = TypeVar("_Offered")
_OFFERS: dict[tuple[type, type], bool] = {}


def offers(lookup: object, protocol: type[_Offered]) -> TypeGuard[_Offered]:
    """``isinstance(lookup, protocol)`` for the optional lookups above, decided once per class of `lookup`.

    Why: the check of a runtime-checkable Protocol lists the protocol's members every time, and the resolver asked
    it for every citation (a tenth of ``lexgraph cite``'s time). A lookup's methods are those of
    its class, so the answer for one instance is the answer for all."""
    key = (type(lookup), protocol)
    known = _OFFERS.get(key)
    if known is None:
        known = _OFFERS[key] = isinstance(lookup, protocol)
    return known


@dataclass(frozen=True)
class LawTarget:
    """A law as resolved: its e-Gov id and title when known, else the name as written, with a status and reason.
    `former` is the renaming when the text named the law by a title it bore before."""

    law_id: str | None
    title: str | None
    law_type: str | None = None
    law_num: str | None = None
    status: Status = "resolved"
    reason: str | None = None
    pin: VersionPin | None = None
    former: FormerTitle | None = None
    outside: str | None = None  # a law no catalogue of national law holds: `lexgraph.citations.model.Outside`


fill_dict_init(LawTarget)  # one per law resolved: one call, not one per field


@dataclass(frozen=True)
class Clause:
    """A clause address made of e-Gov Nums: article 709, paragraph 1 … (`subitems` from outer to inner)."""

    article: str | None = None
    paragraph: str | None = None
    item: str | None = None
    subitems: tuple[str, ...] = ()
    suppl: bool | str = False  # in a 附則: True, or the block's path segment ("suppl[平成16年…法律第147号]")


fill_dict_init(Clause)  # several per clause resolved


@dataclass(frozen=True)
class ResolutionState:
    """What a reader remembers while going through a text.

    `last_law` is the law named last (by a citation or a bare name), which 同法 means; `last_clause` is the clause
    cited last and its law, which 同条 / 同項 / 同号 mean; `recent_laws` (newest first) lets a bare 法 or 令 in a
    guideline fall back on the Act or Cabinet Order cited most recently; `abbreviations` are the names the text
    defined (以下「振興会法」という); `last_with` the clause cited last that has a paragraph, and an item, which
    同項 / 同号 mean even when a citation without that level came in between; `bare_meanings` what a bare 法 /
    令 was last read as (in a 施行令, its parent
    Act), which a guideline or Q&A following the 施行令 in the same document still means; `subject` the law under
    discussion and the word the text defined for it (「本件条例」, 「本法」), which a bare article of a later sentence
    may mean as well as the law named last.
    """

    last_law: LawTarget | None = None
    last_clause: tuple[LawTarget, Clause] | None = None
    recent_laws: tuple[LawTarget, ...] = ()
    abbreviations: tuple[tuple[str, LawTarget], ...] = ()
    bare_meanings: tuple[tuple[str, LawTarget], ...] = ()
    last_with: tuple[tuple[str, tuple[LawTarget, Clause]], ...] = ()
    subject: tuple[str, LawTarget] | None = None  # the law under discussion and the word the text defined for it


@dataclass(frozen=True)
class CitationContext:
    """Everything the resolver may use besides the text.

    `as_of` is the citing document's date (which revision is in force); `current_law_id` and `current_path` say
    that the text is itself that clause of that law, so that 前項 inside ``a1/p2`` means ``a1/p1``; `state` is
    what was read before this text (empty for a new document).
    """

    catalog: Catalog = field(default_factory=Catalog.bundled)
    as_of: date | None = None
    revisions: RevisionLookup | None = None
    current_law_id: str | None = None
    current_path: str | None = None
    state: ResolutionState = field(default_factory=ResolutionState)
    citing_court: str | None = None  # the court that wrote the text: what 当裁判所 means in precedent citations

    @classmethod
    def in_law(cls, law: str, clause: str | None = None, *, catalog: Catalog | None = None,
               as_of: date | None = None, revisions: RevisionLookup | None = None) -> CitationContext:
        """The context for reading `clause` of `law` (``--in-law 金融商品取引法 --at 第二十一条第二項``). `law` is a
        title, 略称, law number or law id; raises `InputError` naming the problem when either cannot be read."""
        catalog = catalog or Catalog.bundled()
        entry = catalog.by_id(law)
        if entry is None:
            found = catalog.lookup(law)
            if not found:
                raise InputError(f"no law called {law!r} in the catalogue; give its title, law number or law id")
            if len(found) > 1:
                options = ", ".join(f"{e.title} ({e.law_id})" for e in found[:5])
                raise InputError(f"{law!r} could mean {options}; give the law id instead")
            entry = found[0]
        path = None
        if clause:
            path = parse_clause(clause)
            if path is None:
                raise InputError(f"cannot read the clause {clause!r}; write it as 第二十一条第二項 or a21/p2")
        return cls(catalog=catalog, as_of=as_of, revisions=revisions, current_law_id=entry.law_id,
                   current_path=path)
