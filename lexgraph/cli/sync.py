"""`lexgraph sync`: laws kept current from e-Gov 法令API Version 2, every revision with its period."""

from __future__ import annotations

import shutil
from contextlib import AbstractContextManager
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from lexgraph import store_exists, store_location
from lexgraph.cli.law import print_links_summary
from lexgraph.cli.options import JsonOpt, StoreOpt, parse_day
from lexgraph.cli.output import EXIT_BAD_INPUT, emit_json, err, line_shown, opened, out, progress_bar
from lexgraph.errors import ConfigurationError

if TYPE_CHECKING:
    from lexgraph import SyncLimits, SyncSummary


def sync_command(
    laws: Annotated[list[str] | None, typer.Argument(
        help="Laws to sync (title, 略称, law number or id). None: refresh every law synced before.")] = None,
    api: Annotated[str | None, typer.Option("--api", help="e-Gov 法令API v2 base URL (default: $LEXGRAPH_EGOV_API, "
                                            "else https://laws.e-gov.go.jp/api/2), e.g. a mirror.")] = None,
    pace: Annotated[float | None, typer.Option("--pace", min=0.0, help="Seconds between two requests "
                                               "(default 1; e-Gov publishes no limit, so lexgraph is polite).")
                    ] = None,
    updated_since: Annotated[str | None, typer.Option("--updated-since", help="With no LAW: read again the laws "
                                                      "with revisions updated at e-Gov since this day (default: "
                                                      "each law's last sync).")] = None,
    all_laws: Annotated[bool, typer.Option("--all", help="Every law: start from e-Gov's bulk download of all "
                                           "current laws (one zip), then read every revision list.")] = False,
    archive: Annotated[Path | None, typer.Option("--archive", help="With --all: a bulk download already on disk "
                                                 "(e-Gov's zip, or lawhub-style tar.xz) instead of downloading.")
                       ] = None,
    link: Annotated[bool, typer.Option("--link/--no-link", help="Link the cross-references of laws that gained "
                                       "a version.")] = True,
    max_answer_mb: Annotated[float | None, typer.Option(
        "--max-answer-mb", help="Refuse an answer larger than this (default 64; $LEXGRAPH_SYNC_MAX_ANSWER_MB, "
        "[sync] max_answer_mb in lexgraph.toml).")] = None,
    answer_seconds: Annotated[float | None, typer.Option(
        "--answer-seconds", help="Refuse an answer still coming after this many seconds in all (default 300; "
        "$LEXGRAPH_SYNC_ANSWER_SECONDS).")] = None,
    max_retry_after: Annotated[float | None, typer.Option(
        "--max-retry-after", help="Fail rather than wait when the server asks (Retry-After) for longer than this "
        "many seconds (default 600; $LEXGRAPH_SYNC_MAX_RETRY_AFTER).")] = None,
    max_archive_mb: Annotated[float | None, typer.Option(
        "--max-archive-mb", help="With --all: refuse a bulk download larger than this (default 4096; "
        "$LEXGRAPH_SYNC_MAX_ARCHIVE_MB).")] = None,
    archive_seconds: Annotated[float | None, typer.Option(
        "--archive-seconds", help="With --all: refuse a bulk download taking longer than this (default 3600; "
        "$LEXGRAPH_SYNC_ARCHIVE_SECONDS).")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Fetch each law's revision list from e-Gov and every revision the store lacks, each stored with the period
    the list gives; revisions not yet in force are stored as scheduled. Answers are cached beside the store, so a
    killed sync resumes without fetching again what it had."""
    since = parse_day(updated_since, "--updated-since")
    if since is not None and (laws or all_laws):
        raise ConfigurationError("--updated-since refreshes the laws synced before; give it without LAW or --all")
    if all_laws and laws:
        raise ConfigurationError("--all takes every law; give it without LAW")
    if archive is not None and not all_laws:
        raise ConfigurationError("--archive is the bulk download that --all starts from; give --all too")
    from lexgraph import SyncLimits

    limits = SyncLimits.configured({
        "max_answer_mb": max_answer_mb, "answer_seconds": answer_seconds, "max_retry_after": max_retry_after,
        "max_archive_mb": max_archive_mb, "archive_seconds": archive_seconds})
    location = store_location(store)
    fresh = not store_exists(location)
    try:
        summary = _sync(store, laws, api, pace, since, link, all_laws, archive, limits, as_json,
                        fresh=location if fresh else None)
    except BaseException:
        if fresh:
            _remove_if_empty(Path(location))
        raise
    if as_json:
        emit_json(summary.to_json())
    else:
        data = summary.to_json()
        out.print(f"synced {len(summary.laws) + len(summary.unchanged)} laws on {data['synced_on']} "
                  f"({len(summary.unchanged)} unchanged at e-Gov)  revisions listed {summary.listed} "
                  f"(scheduled {summary.scheduled})  versions added {summary.versions_added}  texts fetched "
                  f"{summary.texts_fetched}, from cache {summary.texts_from_cache}", highlight=False)
        for ingest in summary.ingests:
            if ingest.links is not None:
                print_links_summary(ingest.links)
        for failure in summary.failures:
            err.print(f"[red]failed[/] {escape(line_shown(str(failure)))}", highlight=False)
    if summary.failures:
        raise typer.Exit(EXIT_BAD_INPUT)


def _sync(store: str | None, laws: list[str] | None, api: str | None, pace: float | None, since: date | None,
          link: bool, all_laws: bool, archive: Path | None, limits: SyncLimits, as_json: bool, *,
          fresh: str | None) -> SyncSummary:
    """`fresh`: the location of a store folder that does not exist yet, created only once a first law is good."""
    from lexgraph import LexGraph

    context: AbstractContextManager[LexGraph] = \
        LexGraph.created_on_first_write(fresh) if fresh is not None else opened(store)
    with context as lg, progress_bar("revisions", quiet=as_json) as progress:
        task = progress.add_task("sync", total=None)

        def on_law(position: int, total: int, law_id: str) -> None:
            progress.update(task, description=f"law {position} of {total}: {law_id}")

        def on_revision(revision_id: str, from_cache: bool) -> None:
            progress.update(task, advance=1)

        def on_wait(message: str, seconds: float) -> None:  # a wait the server asked for is never silent
            err.print(escape(line_shown(message)), highlight=False)

        return lg.sync(laws or (), api=api, pace=pace, updated_since=since, link=link, on_law=on_law,
                       on_revision=on_revision, all_laws=all_laws, archive=archive, limits=limits, on_wait=on_wait)


def _remove_if_empty(location: Path) -> None:
    """A store this sync created, removed again when the sync failed while storing its first law (the store is
    created only then, `LexGraph.created_on_first_write`, and the cache written only then, `ResponseCache`'s
    `hold`): a sync that stored no law leaves nothing behind."""
    from lexgraph import LexGraph

    if not location.is_dir():
        return
    try:
        with LexGraph.open(location, read_only=True) as lg:
            empty = not lg.reading.all_law_ids()
    except Exception:  # a store that does not open is not one this sync may judge empty: left as it is
        return
    if empty:
        shutil.rmtree(location, ignore_errors=True)
