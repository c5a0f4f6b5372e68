"""`Syncing`: the store brought up to e-Gov's revision lists through its API. It exists apart from `Ingesting`
because a sync talks to a remote source (pace, cache, limits on what is accepted) and decides which laws to read
again, while an ingest reads the files it is given."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from lexgraph.api.reading import Reading
from lexgraph.api.session import Session
from lexgraph.config import sync_cache_dir
from lexgraph.errors import LawNotFound

if TYPE_CHECKING:
    from lexgraph.ingest.sync import SyncSummary
    from lexgraph.statutes.egov_api import SyncLimits

__all__ = ["Syncing"]


class Syncing:
    """Laws synced from e-Gov's API v2, one law, a few, every law synced before, or all of them."""

    def __init__(self, session: Session, reading: Reading) -> None:
        self._session = session
        self._reading = reading

    def sync(
        self, laws: Sequence[str] = (), *, api: str | None = None, pace: float | None = None,
        updated_since: date | None = None, link: bool = True, cache_dir: Path | None = None,
        on_law: Callable[[int, int, str], None] | None = None, on_revision: Callable[[str, bool], None] | None = None,
        all_laws: bool = False, archive: Path | None = None, limits: SyncLimits | None = None,
        on_wait: Callable[[str, float], None] | None = None,
    ) -> SyncSummary:
        """Bring `laws` (titles, 略称, numbers or ids) up to e-Gov's revision lists (API v2 at `api`, else
        ``LEXGRAPH_EGOV_API``, else e-Gov): every listed revision the store lacks is fetched and stored with the
        period the list gives. With no `laws`, every law synced before is refreshed: only laws with revisions
        updated at e-Gov since their last sync (or since `updated_since`) are read again. Answers are kept in
        `cache_dir` (default: `sync_cache_dir` of the store). Raises `LawNotFound` for a name the catalogue does not
        know, `EgovNotFound` for a law e-Gov does not have, `SourceUnavailable` when e-Gov cannot be reached.

        `all_laws`: every law, starting from e-Gov's bulk download of all current laws in one zip (`archive`, or
        downloaded into the cache), ingested as files; then every stored law's revision list is read and the
        revisions the archive lacks fetched.

        `on_wait(message, seconds)` is told of each wait the server asks for (Retry-After) before it begins.
        `limits`: what is accepted from the server (each answer's size and time, Retry-After, the bulk archive);
        default: as configured (environment, lexgraph.toml's ``[sync]``). An answer beyond them, or failing a check
        of what it holds (another law, an id that is not e-Gov's, a day that does not exist, a redirect to another
        host), raises `AnswerRefused`."""
        from lexgraph.ingest.statutes import ingest_statutes, workers_for
        from lexgraph.ingest.sync import sync_laws, synced_laws
        from lexgraph.statutes.egov_api import DEFAULT_PACE, EgovApi, ResponseCache, SyncLimits, api_base

        session = self._session
        session.forget_reads()
        folder = cache_dir or sync_cache_dir(session.location or ".")
        client = EgovApi(api_base(api), cache=ResponseCache(folder, hold=True),
                         pace=DEFAULT_PACE if pace is None else pace,
                         limits=limits or SyncLimits.configured(), on_wait=on_wait)
        refresh = not laws and not all_laws
        if all_laws:
            bulk = archive or client.bulk_archive(folder / "bulk" / "all_xml.zip")
            ingest_statutes(session.store, [bulk], catalog=session.catalog, link=False, workers=workers_for([bulk]))
            law_ids = self._reading.all_law_ids()
        else:
            law_ids = [self._sync_law_id(name) for name in laws] if laws else \
                [i for i, _ in synced_laws(session.store)]
        if refresh and not law_ids:
            client.close()
            raise LawNotFound("no law has been synced yet: name one, e.g. `lexgraph sync 民法`")
        try:
            return sync_laws(session.store, client, list(dict.fromkeys(law_ids)), today=date.today(),
                             catalog=session.catalog, updated_since=updated_since, refresh=refresh, link=link,
                             on_law=on_law, on_revision=on_revision)
        finally:
            client.close()

    def _sync_law_id(self, name: str) -> str:
        """The e-Gov law id a name means: a stored law, else the catalogue; an id or law number as it is."""
        from lexgraph.statutes.sources import REVISION_PATTERN

        try:
            return self._reading.law(name).law_id
        except LawNotFound:
            entry = self._session.catalog.by_law_num(name.strip())
            if entry is not None:
                return entry.law_id
            if REVISION_PATTERN.fullmatch(f"{name.strip()}_20000101_000000000000000"):
                return name.strip()  # a law id the bundled catalogue does not list (enacted after it)
            return self._session.catalog_entry(name).law_id
