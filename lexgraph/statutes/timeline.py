"""Place the versions of one law in time and derive its Provision nodes.

A Provision node is one distinct text of a clause over one *contiguous* run of versions. Real data is not
monotonic: a later revision may restore older wording (A → B → A). The restored A is in force over a different
period, so it gets its own node; one node with two disjoint validity periods could not be filtered with
``valid_from <= D < valid_until``. Unchanged clauses are shared by every version of their run.

A version is known in force up to the next stored one, or only up to the first amendment in between that the
later versions' 附則 name (`statutes.amendments`): a clause whose wording differs across such a gap ends there,
and a clause that reads the same on both sides stays in force across it.

The function is pure and recomputes the whole law from all of its versions. Inserting a version between two stored
ones therefore splits runs correctly, and the store applies only the difference (see `ingest.statutes`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date

from lexgraph.model import KnownAmendment, LawVersionInfo, ParsedProvision, ProvisionVersion, RevisionId
from lexgraph.statutes.amendments import (
    VersionAmendments,
    VersionPeriod,
    law_num_of_act_id,
    named_amendments,
    plan_gaps,
)


@dataclass(frozen=True)
class VersionContent:
    """One version of a law with its clauses, whether freshly parsed or read back from the store."""

    revision: RevisionId
    source: str
    xml_format: str
    provisions: tuple[ParsedProvision, ...]
    # The source leaves its day open (`LawMeta.open_day`, or e-Gov's placeholder day in its id): a version
    # scheduled (施行予定), never read as in force on or after the day in its id.
    open_day: bool = False

    @property
    def sort_key(self) -> tuple[date, int]:
        """Versions are ordered by enforcement date; a snapshot only knows a day it was in force, and on the same
        day a dated revision precedes the snapshot that merely observed it."""
        if self.revision.enforced_from is not None:
            return (self.revision.enforced_from, 0)
        assert self.revision.known_in_force_on is not None
        return (self.revision.known_in_force_on, 1)


EGOV_API = "egov-api"  # `dated_by` of a version whose period comes from e-Gov's revision list (`lexgraph sync`)
#: From this day on a date in a revision id is e-Gov's placeholder for a day not fixed (2117-12-31: the day a
#: treaty takes effect), never a day a law was set to take effect.
PLACEHOLDER_FROM = date(2100, 1, 1)


def day_left_open(revision: RevisionId, note: str = "") -> bool:
    """Whether a text's day is open: its source says so (`note`), or its id carries e-Gov's placeholder day."""
    return bool(note) or (revision.enforced_from is not None and revision.enforced_from >= PLACEHOLDER_FROM)


@dataclass(frozen=True)
class ListedVersion:
    """A revision as the source's revision list gives it: the day it takes effect (None: left open, 政令で定める日)
    and whether it was not yet in force on the day the list was read."""

    revision_id: str
    enforced_from: date | None
    scheduled: bool
    amended_by: str | None = None
    note: str = ""  # what the source says of an open day (「…政令で定める日」), kept as the version's source
    title: str = ""  # the law's title in this revision (e-Gov's `law_title`): a renamed law's former title


@dataclass(frozen=True)
class SourceListing:
    """A law's whole revision history as a source lists it (e-Gov's ``/law_revisions``), read on `known_on`.

    With a listing the list is the truth: each wording runs from its revision's day to the next one's (no gaps to
    guess from 附則), the newest wording in force is known in force up to `known_on`, revisions not yet in force
    are `scheduled`, and a repealed law's last wording ends on `repealed_on`. A revision whose day is left open is
    a version in force on no day, with no clauses."""

    versions: tuple[ListedVersion, ...]
    known_on: date
    repealed_on: date | None = None

    def get(self, revision_id: str) -> ListedVersion | None:
        return next((v for v in self.versions if v.revision_id == revision_id), None)

    @property
    def undated(self) -> tuple[ListedVersion, ...]:
        return tuple(v for v in self.versions if v.enforced_from is None)


@dataclass(frozen=True)
class LawTimeline:
    law_id: str
    versions: tuple[LawVersionInfo, ...]
    version_hashes: dict[str, str]
    provisions: tuple[ProvisionVersion, ...]
    contains: frozenset[tuple[str, str]]  # (revision_id, provision uid)
    has_part: frozenset[tuple[str, str]]  # (parent uid, child uid)
    next_links: frozenset[tuple[str, str]]  # (earlier revision_id, later revision_id)
    named: dict[str, tuple[KnownAmendment, ...]]  # revision_id → the amendments its 附則 name


def provision_hash(p: ParsedProvision) -> str:
    """What counts as "the same text": wording, caption, numbering and sentence roles, not the XML markup and not
    the chapter heading (moving a clause to another chapter does not change what it says)."""
    payload = json.dumps(
        [p.kind, p.num, p.title, p.caption, p.text, [[s.role, s.text] for s in p.sentences]], ensure_ascii=False
    )
    return hashlib.sha1(payload.encode("utf-8")).hexdigest()


def version_hash(provisions: Sequence[ParsedProvision]) -> str:
    """A whole version's fingerprint, to recognise a re-ingest or a snapshot identical to a stored revision."""
    digest = hashlib.sha1()
    for p in sorted(provisions, key=lambda p: p.path):
        digest.update(f"{p.path}\t{provision_hash(p)}\n".encode())
    return digest.hexdigest()


def provision_uid(law_id: str, path: str, valid_from: date | None) -> str:
    """Readable and deterministic: ``129AC0000000089/a709/p1@20200401``; ``@-`` when the start is unknown."""
    start = f"{valid_from:%Y%m%d}" if valid_from is not None else "-"
    return f"{law_id}/{path}@{start}"


def provision_law_id(uid: str) -> str:
    """The law of a provision's uid (`provision_uid`): ``129AC0000000089/a709/p1@20200401`` → ``129AC0000000089``.
    What the hybrid search reads to weigh a candidate clause by its law, without loading the clause."""
    return uid.split("/", 1)[0]


def parent_path(path: str) -> str | None:
    head, _, _ = path.rpartition("/")
    return head or None


_ARTICLE_SEGMENT = re.compile(r"a\d")
_PART_SEGMENT = re.compile(r"[pis]\d")


def article_path(path: str) -> str:
    """The article a clause belongs to: ``a709/p1/i2`` → ``a709``, ``suppl/a4/p1`` → ``suppl/a4``. A clause
    outside any article (a supplementary provision's bare paragraph) stands for itself, up to its paragraph."""
    segments = path.split("/")
    for i, segment in enumerate(segments):
        if _ARTICLE_SEGMENT.match(segment):
            return "/".join(segments[: i + 1])
    for i, segment in enumerate(segments):
        if _PART_SEGMENT.match(segment):
            return "/".join(segments[: i + 1])
    return path


def deleted_articles(provisions: Sequence[ParsedProvision]) -> frozenset[str]:
    """Paths of the articles a version keeps only as 「第三十八条　削除」: the number is kept so that the articles
    after it are not renumbered, but the article says nothing and is not in force. One law's XML keeps such a
    placeholder for years (民法 第三十八条), another drops it at the next amendment (原子炉等規制法 第四十三条の三の
    十二: 削除 from 2020-04-01, gone from 2021-07-01); the store reads both the same way."""
    return frozenset(p.path for p in provisions if p.kind == "article"
                     and p.text.removeprefix(p.title).strip() == "削除")


def in_force_provisions(provisions: Sequence[ParsedProvision]) -> Sequence[ParsedProvision]:
    """A version's clauses without its deleted articles (`deleted_articles`) and their 削除 paragraphs: one rule for
    削除 across laws, the same as for an article a later text no longer has (not in force from that day)."""
    deleted = deleted_articles(provisions)
    if not deleted:
        return provisions
    return tuple(p for p in provisions if p.path not in deleted and article_path(p.path) not in deleted)


def build_timeline(law_id: str, contents: Sequence[VersionContent], listing: SourceListing | None = None
                   ) -> LawTimeline:
    """The law's versions in time and its clause nodes; with a `listing` (a synced law), periods as it gives them."""
    undated = {v.revision_id for v in listing.undated} if listing is not None else set()
    ordered = sorted((c for c in contents if c.revision.text not in undated), key=lambda c: c.sort_key)
    starts: list[date | None] = []
    for position, content in enumerate(ordered):
        revision = content.revision
        if revision.enforced_from is not None:
            starts.append(revision.enforced_from)
        else:  # a snapshot: its start is unknown, but not before the day it was seen if an older version exists
            starts.append(revision.known_in_force_on if position > 0 else None)
    named = {c.revision.text: named_amendments(c.provisions) for c in ordered}
    amendments = [VersionAmendments(c.revision.text, starts[i], c.revision.amended_by, named[c.revision.text])
                  for i, c in enumerate(ordered)]
    periods = plan_gaps(amendments)
    disputed = _cross_checked(law_id, amendments, listing) if listing is not None else ()
    listed = [listing.get(c.revision.text) if listing is not None else None for c in ordered]
    # Listed revisions whose text the store lacks (it could not be fetched or read): the wording before one is
    # known only up to the day it takes effect, never shown beyond it.
    present = {c.revision.text for c in ordered}
    missing = sorted(v.enforced_from for v in (listing.versions if listing is not None else ())
                     if v.enforced_from is not None and v.revision_id not in present)
    # The newest listed wording in force on the day the list was read is known in force up to that day.
    newest_enforced = max((i for i, entry in enumerate(listed) if entry is not None and not entry.scheduled),
                          default=None)
    versions: list[LawVersionInfo] = []
    for position, content in enumerate(ordered):
        until = starts[position + 1] if position + 1 < len(ordered) else None
        revision = content.revision
        entry = listed[position]
        if entry is None:
            versions.append(LawVersionInfo(
                revision_id=revision.text, law_id=law_id, enforced_from=starts[position], enforced_until=until,
                amended_by=revision.amended_by, source=content.source,
                dated_by="snapshot" if revision.is_snapshot else "revision_id",
                known_in_force_on=revision.known_in_force_on,
                known_until=periods[position].known_until, gap=periods[position].gap,
                scheduled=content.open_day or day_left_open(revision),
            ))
            continue
        assert listing is not None
        if until is None and listing.repealed_on is not None:
            until = listing.repealed_on
        start = starts[position]
        lacking = next((d for d in missing if (start is None or start < d) and (until is None or d < until)), None)
        disagreement = disputed[position]
        known_until = min((d for d in (lacking, disagreement.known_until) if d is not None), default=None)
        versions.append(LawVersionInfo(
            revision_id=revision.text, law_id=law_id, enforced_from=start, enforced_until=until,
            amended_by=revision.amended_by, source=content.source, dated_by=EGOV_API,
            known_in_force_on=listing.known_on if position == newest_enforced else None,
            known_until=known_until, gap=disagreement.gap, scheduled=entry.scheduled,
        ))

    provisions: dict[str, ProvisionVersion] = {}
    contains: set[tuple[str, str]] = set()
    has_part: set[tuple[str, str]] = set()
    # path -> (content hash, uid) of the run that is open at the previous version
    open_runs: dict[str, tuple[str, str]] = {}
    for position, content in enumerate(ordered):
        revision_id = versions[position].revision_id
        uid_by_path: dict[str, str] = {}
        next_runs: dict[str, tuple[str, str]] = {}
        for p in in_force_provisions(content.provisions):
            digest = provision_hash(p)
            previous = open_runs.get(p.path)
            if previous is not None and previous[0] == digest:
                uid = previous[1]
            else:
                uid = provision_uid(law_id, p.path, starts[position])
                provisions[uid] = ProvisionVersion(
                    uid=uid, law_id=law_id, path=p.path, kind=p.kind, num=p.num, title=p.title,
                    caption=p.caption, heading=p.heading, text=p.text, sentences=p.sentences, seq=p.seq,
                    valid_from=starts[position], valid_until=None, content_hash=digest,
                )
            next_runs[p.path] = (digest, uid)
            uid_by_path[p.path] = uid
            contains.add((revision_id, uid))
        for path, uid in uid_by_path.items():
            parent = parent_path(path)
            if parent is not None and parent in uid_by_path:
                has_part.add((uid_by_path[parent], uid))
        # Runs that do not continue into this version end where it starts, or, when the 附則 name amendments in
        # between that the store does not hold, where the first of them may have taken effect: after that day
        # the wording is not known, so it is never shown in force (docs/statutes.md). Runs that continue stay in
        # force across.
        if position > 0:
            end = versions[position - 1].known_until or starts[position]
            for path, (_, uid) in open_runs.items():
                if next_runs.get(path, (None, None))[1] != uid:
                    _close(provisions, uid, end)
        open_runs = next_runs
    last_end = (versions[-1].known_until or versions[-1].enforced_until) if listing is not None and versions \
        else None
    if last_end is not None:  # a repealed law, or a listed revision lacking: no clause outlives what is known
        for _, uid in open_runs.values():
            _close(provisions, uid, last_end)

    next_links = {
        (versions[i].revision_id, versions[i + 1].revision_id) for i in range(len(versions) - 1)
    }
    hashes = {versions[i].revision_id: version_hash(c.provisions) for i, c in enumerate(ordered)}
    for entry in listing.undated if listing is not None else ():
        # A revision whose day e-Gov leaves open: listed as scheduled, in force on no day, no clauses of its own.
        versions.append(LawVersionInfo(
            revision_id=entry.revision_id, law_id=law_id, enforced_from=None, enforced_until=None,
            amended_by=entry.amended_by, source=entry.note, dated_by=EGOV_API, scheduled=True))
        hashes[entry.revision_id] = ""
        named[entry.revision_id] = ()
    return LawTimeline(
        law_id=law_id, versions=tuple(versions), version_hashes=hashes,
        provisions=tuple(sorted(provisions.values(), key=lambda p: (p.path, p.valid_from or date.min))),
        contains=frozenset(contains), has_part=frozenset(has_part), next_links=frozenset(next_links), named=named,
    )


def _cross_checked(law_id: str, amendments: Sequence[VersionAmendments], listing: SourceListing
                   ) -> tuple[VersionPeriod, ...]:
    """Where the stored 附則 and the revision list disagree. Either way the store cannot tell which source is
    right, so the days concerned are unknown (for a clause that reads differently at the next stored version) and
    each amendment concerned says both sources; a later list or text that settles it is read on the next sync.

    - An amendment the 附則 name in force between two stored versions, for which the list has no revision: the
      list is e-Gov's word that nothing else happened, the 附則 the law's own that something did. Unknown from the
      first day it may have taken effect (as for files).
    - A listed revision whose amending law no stored text from its day on names in its 附則 (every e-Gov text
      carries the 附則 of the laws that amended it by then: on the 19 real files of 原子炉等規制法 each names its own
      and every earlier one): the revision's own wording is unknown from its first day."""
    listed = {num for v in listing.versions if v.amended_by and (num := law_num_of_act_id(v.amended_by))}
    periods = list(plan_gaps(amendments, also_held=listed))
    naming: dict[str, str] = {}
    for version in amendments:
        for amendment in version.named:
            naming.setdefault(amendment.law_num, version.revision_id)
    read = f"e-Gov's revision list read on {listing.known_on.isoformat()}"
    periods = [replace(period, gap=tuple(replace(a, conflict=(
        f"the 附則 of stored revision {naming.get(a.law_num, '?')} name it, and {read} has no revision for it"))
        for a in period.gap)) for period in periods]
    own = law_num_of_act_id(law_id)
    for position, version in enumerate(amendments):
        entry = listing.get(version.revision_id)
        number = law_num_of_act_id(version.amended_by) if version.amended_by else None
        if entry is None or entry.scheduled or number is None or number == own or version.starts is None:
            continue
        texts = [v for v in amendments[position:] if v.starts is not None]
        if any(number in {a.law_num for a in v.named} for v in texts):
            continue
        unnamed = KnownAmendment(
            law_num=number, promulgated=None, enforced_from=version.starts, basis="date", enforcement="",
            conflict=(f"{read} has revision {version.revision_id} for it, and the 附則 of no stored text from "
                      f"that day on name it ({', '.join(v.revision_id for v in texts)})"))
        period = periods[position]
        periods[position] = replace(period, known_until=version.starts, gap=(unnamed, *period.gap))
    return tuple(periods)


def _close(provisions: dict[str, ProvisionVersion], uid: str, until: date | None) -> None:
    provisions[uid] = replace(provisions[uid], valid_until=until)
