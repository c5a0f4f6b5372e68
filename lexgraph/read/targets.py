"""The clause nodes a citation names in a stored law, where the citation's words alone do not give a path:
a division (第三章, 第三章から第四章の二まで; 前章, この節, 次款 from the citing clause's), an
appendix (別表第一, 様式第二号) and the items of a clause cited as a whole (第三十六条第一項各号, 同項各号).

One place for the ingest's linking (statute clauses and documents) and for the resolver over a store (`cite
--store`, through `StoreRevisions`), so that the edges a citation gets and the reason it gets none agree. Whether
a found clause was in force on the citing day is the one in-force decision's (`read/in_force.py`): the paths come
from here, the day from `LawSpans.at` / `overlapping` as for any clause.
"""

from __future__ import annotations

from dataclasses import dataclass

from lexgraph.citations.model import Citation
from lexgraph.numerals import DIVISION_KEYS, clause_label
from lexgraph.read.spans import LawSpans


@dataclass(frozen=True)
class Named:
    """The paths a citation names in a stored law, or none and `reason` why; `short` is the reason's class, without
    the names in it, for the counts of an ingest summary."""

    paths: tuple[str, ...]
    reason: str | None = None
    short: str | None = None


def outside_articles(citation: Citation, law: LawSpans, within: str | None = None) -> Named:
    """The divisions or appendices a citation of kind ``division`` / ``appendix`` names in `law`: every member of
    a range of divisions; a division read from `within`, the division the citing clause of that same law sits in
    (`LawSpans.divisions`). None found, or several where the text names one, is a reason, never a choice."""
    if citation.kind == "division" and citation.relative_division and not citation.division:
        return relative_division(citation.relative_division, law, within)
    if citation.kind == "division" and citation.division:
        written = clause_label(citation.division)
        found = law.divisions(citation.division, within)
        if len(found) > 1:
            options = ", ".join(clause_label(p) for p in found[:4])
            return Named((), f"{written} names {len(found)} divisions of a law divided into 編 ({options}): the "
                             "text does not say which: not linked",
                         "several divisions of that number (a law divided into 編)")
        if not found:
            return Named((), f"no {written} in any stored version of the law: not linked",
                         "no such division in the stored law")
        if citation.division_to:
            return Named(tuple(law.divisions_between(found[0], citation.division_to)))
        return Named((found[0],))
    if citation.kind == "appendix" and citation.appendix:
        found = law.appendices(citation.appendix)
        if len(found) > 1:
            return Named((), f"{citation.appendix} names {len(found)} appendices of the law "
                             f"({', '.join(found)}): not linked", "several appendices of that title")
        if not found:
            return Named((), f"no {citation.appendix} in any stored version of the law (appendices are found by "
                             "their title): not linked", "no appendix of that title in the stored law")
        return Named((found[0],))
    return Named((), f"a {citation.kind} citation names no division or appendix: not linked", "nothing named")


_STEPS = {"前": -1, "この": 0, "次": 1}


def relative_division(written: str, law: LawSpans, within: str | None) -> Named:
    """前章 / この章 / 次章 (and 編, 節, 款, 目): the division of that level the citing clause sits in (`within`,
    ``pt2/ch3/se1``: この章 is ``pt2/ch3``), or the one before or after it among the law's divisions of that level
    under the same upper levels (前章 of ``pt2/ch3`` is ``pt2/ch2``, of ``ch4_2`` ``ch4``). No place to read from,
    no division of that level around the clause, or none before / after it, is a reason."""
    key = DIVISION_KEYS[written[-1]]
    step = _STEPS[written[:-1]]
    if within is None:
        return Named((), f"{written}: the citing clause sits in no division of the law (or none is known): not "
                         "linked", "relative division outside any division")
    parts = within.split("/")
    levels = [i for i, part in enumerate(parts) if part.rstrip("0123456789_")[:2] == key]
    if not levels:
        return Named((), f"{written}: the citing clause ({clause_label(within)}) sits in no {written[-1]}: not "
                         "linked", "relative division outside any division of that level")
    own = "/".join(parts[: levels[0] + 1])
    if step == 0:
        return Named((own,))
    siblings = law.siblings(own)
    if own not in siblings:
        return Named((), f"{written}: {clause_label(own)} is not a stored division of the law: not linked",
                     "no such division in the stored law")
    index = siblings.index(own) + step
    if not 0 <= index < len(siblings):
        return Named((), f"{written}: no {written[-1]} {'before' if step < 0 else 'after'} {clause_label(own)} in "
                         "any stored version of the law: not linked", "no such division in the stored law")
    return Named((siblings[index],))


def each_item(citation: Citation, law: LawSpans) -> Named | None:
    """第三十六条第一項各号, 同項各号, 第三十六条各号 (part 各号, no item): the items of that paragraph in the law's
    order (an article's only paragraph when none is written), as the first and last of one range; None when the
    citation is not such a reference. A paragraph with no stored items, or an article with several paragraphs and
    none written, is a reason."""
    if citation.part != "各号" or citation.path is None or citation.item is not None or citation.path_to:
        return None
    paragraph = citation.path
    if citation.paragraph is None or not paragraph.rpartition("/")[2].startswith("p"):
        paragraphs = law.members(paragraph, "p")
        if len(paragraphs) != 1:
            return Named((), f"{clause_label(paragraph)}各号 in an article of {len(paragraphs)} paragraphs: which "
                             "paragraph's items is not written: not expanded", "article of several paragraphs")
        paragraph = paragraphs[0]
    items = law.members(paragraph, "i")
    if not items:
        return Named((), f"{clause_label(paragraph)} has no items in any stored version: 各号 not expanded",
                     "no items")
    return Named((items[0], items[-1]) if len(items) > 1 else (items[0],))
