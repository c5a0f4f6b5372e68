"""The one answer to "what did this clause say on D?" (docs/statutes.md).

Every read path (`law show`, `law cites` / `cited-by`, `law diff`, citation resolution, search filters, evidence
selection, `ask`, `graph`) asks `wording_on` and nothing else, so that they cannot disagree. The answer is one of:

- `InForce`: the wording (a stored clause node) and the version it is read from;
- `Unknown`: the store cannot know what the clause said that day, and why: the day falls in a gap between stored
  versions after amendments the store knows of but does not hold (`GAP`), after the last day the newest version
  is known in force (`PAST_KNOWN`: the last known wording is attached, never as in force), before the first stored
  version (`BEFORE_FIRST`), or under a version that is only scheduled (`SCHEDULED`: promulgated, not yet in force);
- `OutOfForce`: the clause was not in force that day: not yet (`NOT_YET`), no longer (`DELETED`), the law was
  repealed (`REPEALED`), or no stored version around that day has it at all (`ABSENT`).

The decision works on a law's `LawSpans` (its versions and clause periods, read once and cached by
`StoreRevisions`), so that a search asking about fifty clauses or a judgment with two hundred citations costs one
read per law.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Final, Literal

from lexgraph.model import KnownAmendment, scheduled_period
from lexgraph.read.spans import LawSpans, ProvisionSpan, VersionSpan

UnknownWhy = Literal["gap", "past_known", "before_first", "scheduled", "no_version"]
OutOfForceWhy = Literal["not_yet", "deleted", "repealed", "absent"]

GAP: Final = "gap"
PAST_KNOWN: Final = "past_known"
BEFORE_FIRST: Final = "before_first"
SCHEDULED: Final = "scheduled"
NO_VERSION: Final = "no_version"
NOT_YET: Final = "not_yet"
DELETED: Final = "deleted"
REPEALED: Final = "repealed"
ABSENT: Final = "absent"


@dataclass(frozen=True)
class InForce:
    """The clause read `wording` on `day`, in `version`. `known_up_to` is set for an open-ended wording: the last
    day the store knows it in force (at or after `day`, or the answer would be `Unknown`)."""

    law_id: str
    path: str
    day: date
    wording: ProvisionSpan
    version: VersionSpan
    known_up_to: date | None = None

    @property
    def uid(self) -> str:
        return self.wording.uid

    def describe(self) -> str:
        return f"{self.law_id} {self.path}: in force on {self.day.isoformat()} (revision {self.version.revision_id})"


@dataclass(frozen=True)
class Unknown:
    """The store cannot know what the clause said on `day`; `reason` says why in one sentence a user can act on.

    `gap` / `gap_start` / `gap_end` for a gap (the amendments in it, the first day of the gap, the start of the next
    stored version); `known_up_to` for `PAST_KNOWN`; `first_known` for `BEFORE_FIRST`. `last_known` is the wording
    the store last knew (PAST_KNOWN, SCHEDULED): something a reader may be shown, labelled, never as in force."""

    law_id: str
    path: str
    day: date
    why: UnknownWhy
    reason: str
    version: VersionSpan | None = None
    gap: tuple[KnownAmendment, ...] = ()
    gap_start: date | None = None
    gap_end: date | None = None
    known_up_to: date | None = None
    first_known: date | None = None
    last_known: ProvisionSpan | None = None

    def describe(self) -> str:
        return self.reason


@dataclass(frozen=True)
class OutOfForce:
    """The clause was not in force on `day`: `periods` are the [from, until) periods it was (empty when it never
    was in a stored version), and `when` the day that matters (it starts, it ended, the law was repealed). A
    decision, not an error: a reader that must refuse raises `lexgraph.errors.NotInForce` carrying it."""

    law_id: str
    path: str
    day: date
    why: OutOfForceWhy
    reason: str
    periods: tuple[tuple[date | None, date | None], ...] = ()
    when: date | None = None
    version: VersionSpan | None = None

    def describe(self) -> str:
        return self.reason


Answer = InForce | Unknown | OutOfForce


def version_known_on(spans: LawSpans, law_id: str, day: date,
                     what: str = "as a whole") -> VersionSpan | Unknown | OutOfForce:
    """The law as a whole on `day`: the stored version whose every wording is known then, or why there is none.

    `wording_on` starts from this answer; `law diff` uses it directly (a diff to a day where some wordings are
    unknown would show a guess)."""
    where = f"{law_id} {what}"
    if not spans.stored:
        return Unknown(law_id, what, day, NO_VERSION, f"{where}: the store holds no version of this law")
    versions = [v for v in spans.versions if not (v.scheduled and v.enforced_from is None)] or spans.versions
    first, last = versions[0], versions[-1]
    first_day = first.enforced_from if first.enforced_from is not None else first.known_in_force_on
    version = spans.version_on(day)
    if first_day is not None and day < first_day:
        known = (f"is {scheduled_period(first.enforced_from, first.dated_by)}" if first.scheduled
                 else f"is known in force only from {first_day.isoformat()}")
        return Unknown(law_id, what, day, BEFORE_FIRST,
                       f"{where}: its wording on {day.isoformat()} is not known: the first stored version "
                       f"({first.revision_id}) {known}; ingest the revision in force on {day.isoformat()}",
                       version=first, first_known=first_day)
    if version is None:
        if last.enforced_until is not None and day >= last.enforced_until:
            return OutOfForce(law_id, what, day, REPEALED,
                              f"{where}: not in force on {day.isoformat()}: the law ceased to be in force on "
                              f"{last.enforced_until.isoformat()} (repealed)", (), last.enforced_until, last)
        return Unknown(law_id, what, day, NO_VERSION,
                       f"{where}: no stored version of this law covers {day.isoformat()}; ingest the revision in "
                       "force then")
    if version.scheduled:
        return Unknown(law_id, what, day, SCHEDULED,
                       f"{where}: revision {version.revision_id} is scheduled (施行予定): not in force when its "
                       f"source was read, or on a day its source leaves open; its wording on {day.isoformat()} is "
                       "not known in force",
                       version=version)
    up_to = version.known_up_to
    following = versions[versions.index(version) + 1] if version in versions[:-1] else None
    if up_to is None and following is not None and following.scheduled:  # known up to the sync day
        up_to = max(d for d in (version.enforced_from, version.known_in_force_on, date.min) if d is not None)
    if up_to is not None and day > up_to:
        return Unknown(law_id, what, day, PAST_KNOWN,
                       f"{where}: its wording on {day.isoformat()} is not known: the store knows revision "
                       f"{version.revision_id} in force only up to {up_to.isoformat()}; ingest a revision known in "
                       f"force on {day.isoformat()}", version=version, known_up_to=up_to)
    if version.in_gap(day):
        return Unknown(law_id, what, day, GAP, _gap_reason(where, day, version, spans), version=version,
                       gap=version.gap, gap_start=version.known_until, gap_end=version.enforced_until)
    return version


def wording_on(spans: LawSpans, law_id: str, path: str, day: date) -> Answer:
    """What `path` of `law_id` said on `day`, from the law's stored versions and clause periods: the one decision.

    A clause that reads the same on both sides of a gap stays in force across it; one that reads differently, or
    exists on one side only, is unknown inside it; one in neither neighbouring version is absent. Past the day
    the newest version is known in force, nothing is known (the last known wording comes along, labelled)."""
    periods = tuple((p.valid_from, p.valid_until) for p in spans.by_path.get(path, ()))
    law = version_known_on(spans, law_id, day, path)
    if isinstance(law, OutOfForce):
        return replace(law, periods=periods)
    span = spans.at(path, day) if spans.stored else None
    if isinstance(law, Unknown):
        version = law.version
        if law.why in (BEFORE_FIRST, NO_VERSION) or version is None:
            return law
        if law.why == GAP:
            if span is not None:  # the same wording on both sides of the gap: known across it
                return InForce(law_id, path, day, span, version)
            assert version.known_until is not None  # a gap has a start
            before = spans.at(path, version.known_until - timedelta(days=1))
            after = spans.at(path, version.enforced_until) if version.enforced_until is not None else None
            if before is None and after is None and version.enforced_until is not None:
                return OutOfForce(law_id, path, day, ABSENT,
                                  f"{law_id} {path}: in neither stored version around {day.isoformat()} (revision "
                                  f"{version.revision_id} and the next); no such clause then", periods, None,
                                  version)
            return law
        if span is not None:  # PAST_KNOWN, SCHEDULED: the last known wording, labelled, never as in force
            return replace(law, last_known=span)
        past = f" (the store knows this law only up to {law.known_up_to.isoformat()})" if law.known_up_to else ""
        return _not_in_force(law_id, path, day, periods, version, past)
    if span is not None:
        return InForce(law_id, path, day, span, law, law.known_up_to if span.valid_until is None else None)
    return _not_in_force(law_id, path, day, periods, law, "")


def _not_in_force(law_id: str, path: str, day: date, periods: tuple[tuple[date | None, date | None], ...],
                  version: VersionSpan, note: str) -> OutOfForce:
    """Not in force on `day` in `version`: never stored, not yet, or no longer."""
    if not periods:
        return OutOfForce(law_id, path, day, ABSENT, f"{law_id} {path}: no such clause in any stored version{note}",
                          periods, None, version)
    starts = [start for start, _ in periods if start is not None and start > day]
    if starts and all(end is None or end > day for _, end in periods):
        return OutOfForce(law_id, path, day, NOT_YET,
                          f"{law_id} {path}: not yet in force on {day.isoformat()}; in force from "
                          f"{min(starts).isoformat()}{note}", periods, min(starts), version)
    ended = [end for _, end in periods if end is not None and end <= day]
    return OutOfForce(law_id, path, day, DELETED,
                      f"{law_id} {path}: not in force on {day.isoformat()} (revision {version.revision_id})"
                      + (f"; it ceased on {max(ended).isoformat()}" if ended else "") + note,
                      periods, max(ended) if ended else None, version)


def _gap_reason(where: str, day: date, version: VersionSpan, spans: LawSpans) -> str:
    amendments = "; ".join(a.describe() for a in version.gap) or "amendments the store does not hold"
    following = next((v for v in spans.versions if version.enforced_until is not None
                      and v.enforced_from == version.enforced_until), None)
    until = version.known_until.isoformat() if version.known_until else "…"
    return (f"{where}: its wording on {day.isoformat()} is not known: revision {version.revision_id} is "
            f"known in force only before {until}"
            + (f" and revision {following.revision_id} from {following.enforced_from}" if following else "")
            + f"; in between, amendments the store does not hold: {amendments}; ingest the revision in force on "
              f"{day.isoformat()}")


def shows_wording(answer: Answer) -> bool:
    """Whether a read path may show the answer's wording as in force on the day: only `InForce`."""
    return isinstance(answer, InForce)
