"""`Reading`: the laws as stored, read as of a day. It exists so that every read of a law, its clauses, its
versions and the documents around it has one home, and so that the other facades resolve a law's name the one way
it is resolved here (`law`, `law_ids`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from importlib import resources
from typing import TYPE_CHECKING

from lexgraph.api.session import Session, wordings
from lexgraph.model import LawInfo, LawVersionInfo, as_of_day
from lexgraph.read.documents import DOCUMENT_KINDS

if TYPE_CHECKING:
    from lexgraph.read.documents import CitingDocument, PrecedentView
    from lexgraph.read.laws import ClauseLinks, LawDiff, ProvisionAsOf

__all__ = ["Reading"]


class Reading:
    """Laws, clauses as of a day, cross-references, versions, diffs, precedents and citing documents."""

    def __init__(self, session: Session) -> None:
        self._session = session

    def law(self, name: str) -> LawInfo:
        """The stored law a name means (title, 略称, law number or id). Raises `LawNotFound` or `AmbiguousLaw`."""
        from lexgraph.read.laws import resolve_law

        return resolve_law(self._session.store, name, self._session.catalog)

    def law_ids(self, names: Sequence[str]) -> tuple[str, ...]:
        """Stored laws by any name (title, 略称, number, id). Raises `LawNotFound` or `AmbiguousLaw`."""
        return tuple(self.law(name).law_id for name in names)

    def all_law_ids(self) -> list[str]:
        """Every stored law's id, in the store's order: what a command over "every law" walks."""
        from lexgraph.store.rows import LAWS_ALL

        return [row.law_id for row in self._session.store.rows(LAWS_ALL)]

    def laws(self) -> list[LawInfo]:
        """Every stored law, by law id: what a caller (the MCP server's resource list) can ask about."""
        from lexgraph.read.laws import stored_laws

        return stored_laws(self._session.store)

    def show(self, law: str, clause: str, *, as_of: date | None = None) -> ProvisionAsOf:
        """The text of `clause` of `law` in force on `as_of` (None: today), with the version it comes from.
        Raises `LawNotFound`, `AmbiguousLaw`, or `NotInForce` when the clause is not in force that day."""
        from lexgraph.read.laws import provision_as_of

        return provision_as_of(self._session.store, self.law(law), clause, as_of_day(as_of))

    def cites(self, law: str, clause: str, *, as_of: date | None = None) -> ClauseLinks:
        """The clauses that `clause` of `law` (or a clause inside it) cites, both as worded on `as_of` (None:
        today). Raises `NotFound` (law or clause unknown, or not in force then)."""
        from lexgraph.read.laws import clause_links

        return clause_links(self._session.store, self.law(law), clause, as_of_day(as_of), "cites")

    def cited_by(self, law: str, clause: str | None, *, as_of: date | None = None) -> ClauseLinks:
        """The clauses that cite `clause` of `law` (or a clause inside it), both as worded on `as_of` (None:
        today); with `clause` None, those that cite the law as a whole (named with its number, no clause), as
        worded on `as_of`. Raises `NotFound` (law or clause unknown, or not in force then)."""
        from lexgraph.read.laws import clause_links, law_cited_by

        if clause is None:
            return law_cited_by(self._session.store, self.law(law), as_of_day(as_of))
        return clause_links(self._session.store, self.law(law), clause, as_of_day(as_of), "cited_by")

    def documents_citing(self, law: str, clause: str | None, *, as_of: date | None = None,
                         kinds: tuple[str, ...] = DOCUMENT_KINDS) -> list[CitingDocument]:
        """Precedents, books and guidelines (of `kinds`) citing `clause` of `law`: citing any of its wordings
        (`as_of` None, the default), or the one in force on `as_of`. Raises `NotFound` when there is no such
        clause (then or ever), so that an empty list means "cited by none". With `clause` None, those citing the
        law as a whole (named with its number, no clause; `as_of` does not apply: no wording is cited)."""
        from lexgraph.read.documents import documents_citing, documents_citing_law

        if clause is None:
            return documents_citing_law(self._session.store, self.law(law), kinds)
        return documents_citing(self._session.store, self.law(law), clause, wordings(as_of), kinds)

    def precedent(self, case: str) -> PrecedentView:
        """A precedent by lawsuit id, uid, case number or landmark name, with what it cites and who cites it.
        Raises `NotFound` when no precedent matches."""
        from lexgraph.documents.judgment import load_landmarks
        from lexgraph.read.documents import find_precedent, precedent_view

        landmarks = {m.name: m for m in load_landmarks(str(resources.files("lexgraph") / "data" / "landmarks.csv"))}
        return precedent_view(self._session.store, find_precedent(self._session.store, case, landmarks))

    def versions(self, law: str) -> list[LawVersionInfo]:
        """The stored versions of `law`, oldest first, with their enforcement periods. Raises `LawNotFound` or
        `AmbiguousLaw`."""
        from lexgraph.read.laws import law_versions

        return law_versions(self._session.store, self.law(law))

    def diff(self, law: str, from_day: date, to_day: date, *, level: str = "article") -> LawDiff:
        """Clauses added, changed and removed between the versions of `law` in force on two days, at `level`
        ``article`` (top-level units) or ``all``. Raises `NotFound` (unknown law, no version in force)."""
        from lexgraph.read.laws import law_diff

        return law_diff(self._session.store, self.law(law), from_day, to_day, level)
