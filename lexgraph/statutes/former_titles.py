"""Former titles of renamed laws: 労働者派遣事業の適正な運営の確保及び派遣労働者の就業条件の整備等に関する
法律 is 昭和六十年法律第八十八号, named …派遣労働者の保護等に関する法律 since 2012-10-01. Texts written before the
renaming cite the law by the title of their day, and texts written after it sometimes still do; either way the
citation means the same law id.

Where a former title comes from, each with the day the law stopped bearing it (`renamed_on`, the first day of the
next title; None when the source does not fix the day):

- e-Gov API v2 ``/law_revisions``: every revision carries the law's title of that revision (`law_title`), so a
  revision list in which the title changes says which title held until which day (`from_revision_list`). ``lexgraph
  sync`` stores each version's title; the store's catalogue reads them back
  (`titled_runs`, through `read.citing.stored_former_titles`).
- the bundled `lexgraph/data/former_titles.json`, for ``lexgraph cite`` with no store, written by
  ``scripts/build_former_titles.py`` from what sync fetched (its response cache) and from the 2020 archive where an
  amending text says so (「題名を次のように改める」); each entry names its source.

This module is in the statutes layer: it reads e-Gov's formats and the data file, nothing of the store or the
resolver.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from importlib import resources
from typing import Any

from lexgraph.errors import ConfigurationError

DATA_FILE = "former_titles.json"


@dataclass(frozen=True)
class FormerTitle:
    """A title `law_id` bore before `renamed_on` (the first day it bore `new_title`; None: the day is not known),
    and where lexgraph learnt it (`source`: "e-Gov /law_revisions", a file of the 2020 archive, a stored law)."""

    title: str
    law_id: str
    new_title: str
    renamed_on: date | None
    source: str

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "law_id": self.law_id, "new_title": self.new_title,
                "renamed_on": self.renamed_on.isoformat() if self.renamed_on else None, "source": self.source}

    def note(self, as_of: date | None, current_title: str | None) -> str:
        """What a citation by this title says of it: the renaming, and, when the text is dated on or after the day
        of renaming, that the name was already out of date."""
        now = f" (now 「{current_title}」)" if current_title and current_title != self.new_title else ""
        if self.renamed_on is None:
            # the source gives no day, and perhaps not the next title either (only a later one): say no more
            return f"「{self.title}」 is a former title of 「{self.new_title}」{now}; the day of renaming is not known"
        renamed = f"「{self.title}」 was this law's title until it was renamed 「{self.new_title}」 on " \
                  f"{self.renamed_on.isoformat()}{now}"
        if as_of is not None and as_of >= self.renamed_on:
            return f"{renamed}; the name was already out of date on {as_of.isoformat()}, the day the text is read " \
                   "as of"
        return renamed


def titled_runs(law_id: str, versions: Iterable[tuple[date | None, str]], source: str) -> list[FormerTitle]:
    """The former titles a law's versions give, each version a (day it took effect, title of that version): every
    title that some later version no longer bears, renamed on the first day of the next title. Versions with no day
    or no title are skipped (they say nothing of when a title ended)."""
    ordered = sorted((day, title.strip()) for day, title in versions if day is not None and title and title.strip())
    found: dict[str, FormerTitle] = {}
    for (_, title), (day, following) in itertools.pairwise(ordered):
        if following != title:
            found[title] = FormerTitle(title, law_id, following, day, source)
    current = ordered[-1][1] if ordered else None
    return [f for t, f in found.items() if t != current]


def from_revision_list(law_id: str, revisions: Sequence[Any]) -> list[FormerTitle]:
    """The former titles of an e-Gov revision list (`lexgraph.statutes.egov_api.RevisionList.revisions`): each
    revision's `law_title` from its `enforcement_date`; revisions that record a repeal, or whose day e-Gov leaves
    open, are left out."""
    return titled_runs(law_id, ((r.enforced_from, r.law_title) for r in revisions if not r.ends_law),
                       "e-Gov /law_revisions")


def read_entries(rows: Iterable[Mapping[str, Any]], where: str) -> tuple[FormerTitle, ...]:
    """Entries of the data file's layout (`FormerTitle.to_json`); a row that does not fit is a
    `ConfigurationError` naming `where` and the row."""
    found = []
    for k, row in enumerate(rows):
        try:
            day = row.get("renamed_on")
            found.append(FormerTitle(str(row["title"]), str(row["law_id"]), str(row["new_title"]),
                                     date.fromisoformat(day) if day else None, str(row["source"])))
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ConfigurationError(f"{where}: entry {k} is not a former title ({err}); each entry needs title, "
                                     "law_id, new_title, renamed_on (ISO day or null) and source; rebuild it with "
                                     "scripts/build_former_titles.py") from err
    return tuple(found)


@functools.cache
def bundled() -> tuple[FormerTitle, ...]:
    """The former titles shipped in the package (`lexgraph/data/former_titles.json`), read once."""
    raw = bundled_bytes()
    try:
        data = json.loads(raw)
    except ValueError as err:
        raise ConfigurationError(f"lexgraph/data/{DATA_FILE}: not JSON ({err})") from err
    return read_entries(data.get("former_titles") or [], f"lexgraph/data/{DATA_FILE}")


def bundled_bytes() -> bytes:
    return (resources.files("lexgraph") / "data" / DATA_FILE).read_bytes()
