"""`lexgraph law …`: a law's clauses as of a date, its versions, diffs and cross-references."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from lexgraph import clause_label
from lexgraph.cli.comparison import LEGEND, folded, marked
from lexgraph.cli.options import AsOfOpt, JsonOpt, LawArg, StoreOpt, display_day, given_day, parse_day
from lexgraph.cli.output import (
    EXIT_BAD_INPUT,
    emit_json,
    err,
    fit,
    iso,
    one_line,
    opened,
    out,
    progress_bar,
    table,
)
from lexgraph.errors import ConfigurationError

if TYPE_CHECKING:
    from lexgraph import LinkSummary

app = typer.Typer(no_args_is_help=True, help="Read laws as of a date.")


@app.command("show")
def law_show(
    law: LawArg,
    clause: Annotated[str | None, typer.Argument(help="第七百九条, 709条, 第三条の二第一項第二号 or a709/p1.")] = None,
    as_of: AsOfOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The text of a clause in force on a date, with the revision it comes from."""
    day = parse_day(as_of)
    with opened(store, read_only=True) as lg:
        if clause is None:
            info = lg.law(law)
            versions = lg.versions(law)
            payload = {"law_id": info.law_id, "title": info.title, "law_num": info.law_num,
                       "law_type": info.law_type, "aliases": list(info.aliases),
                       "versions": [_version_json(v) for v in versions]}
            if as_json:
                emit_json(payload)
            else:
                _print_law(payload)
            return
        result = lg.show(law, clause, as_of=day)
    if as_json:
        emit_json(result.to_json())
        return
    p = result.provision
    out.print(f"[bold]{result.law.title} {clause_label(p.path)}[/]{p.caption}", highlight=False)
    out.print(f"as of {display_day(day)}  revision {result.version.revision_id}", style="dim", highlight=False)
    out.print(result.period if result.version.scheduled else f"in force {result.period}", style="dim",
              highlight=False)
    if result.beyond_knowledge:
        out.print(beyond_knowledge_note(result), style="yellow", highlight=False)
    out.print(p.text, highlight=False)


def beyond_knowledge_note(result: Any) -> str:
    """What `law show` says of a wording shown for a day past the last day the store knows it in force (the MCP
    server says the same)."""
    if result.known_up_to is None:  # a scheduled revision: known in force on no day (its reason says why)
        return (f"not known to be in force on {display_day(result.as_of)}: this is the last wording the store "
                f"knows; {result.unknown.reason}")
    return (f"not known to be in force on {display_day(result.as_of)}: this is the last wording the store knows, "
            f"in force up to {result.known_up_to}; whether it still was then is not known")


def _print_law(payload: dict[str, Any]) -> None:
    out.print(f"[bold]{payload['title']}[/] {payload['law_num']} ({payload['law_id']}, {payload['law_type']})",
              highlight=False)
    for v in payload["versions"]:
        out.print(f"  {v['revision_id']}  {v['period']}", highlight=False)


def _version_json(v: Any) -> dict[str, Any]:
    """A stored version: `enforced_until` is the next stored version's start (null for the newest, which is
    `known_up_to` a day, never "now"); `known_until` is earlier when the 附則 name amendments in between that the
    store does not hold (`gap`), and clauses that differ across the gap are not shown as in force inside it."""
    return {"revision_id": v.revision_id, "enforced_from": iso(v.enforced_from),
            "enforced_until": iso(v.enforced_until), "amended_by": v.amended_by, "dated_by": v.dated_by,
            "known_in_force_on": iso(v.known_in_force_on), "source": v.source,
            "known_until": iso(v.known_until), "known_up_to": iso(v.known_up_to),
            "gap": [a.to_json() for a in v.gap], "period": v.period,
            "scheduled": v.scheduled,
            "amendments": [a.to_json() for a in v.amendments]}


@app.command("versions")
def law_versions(
    law: LawArg,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The stored revisions of a law and their enforcement periods."""
    with opened(store, read_only=True) as lg:
        info = lg.law(law)
        versions = lg.versions(law)
    repealed = getattr(info, "repealed_on", None)
    if as_json:
        emit_json({"law_id": info.law_id, "title": info.title, "repealed_on": iso(repealed),
                   "versions": [_version_json(v) for v in versions]})
        return
    grid = table("revision id", "from", "dated by", "until")
    for column in (grid.columns[0], grid.columns[1], grid.columns[3]):
        column.no_wrap = True  # an id is copied into other commands, and a day read whole: never folded
    for v in versions:
        grid.add_row(v.revision_id, _from_cell(v), _dated_by_cell(v), _until_cell(v))
    out.print(f"[bold]{info.title}[/] ({info.law_id})"
              + (f"  [red]repealed (廃止) from {iso(repealed)}[/]" if repealed else ""), highlight=False)
    out.print(grid)
    for v in versions:
        if v.gap:
            out.print(f"gap: between {v.revision_id} and the next stored version, the 附則 name amendments the "
                      f"store does not hold; clauses that differ are not known from {v.known_until}:",
                      highlight=False, soft_wrap=False)
            for amendment in v.gap:
                out.print(f"  {amendment.describe()}", highlight=False, soft_wrap=False)


def _from_cell(v: Any) -> str:
    if v.scheduled:
        return f"{iso(v.enforced_from)}\n施行予定" if v.enforced_from else "day open\n施行予定"
    return iso(v.enforced_from) or "unknown"


def _dated_by_cell(v: Any) -> str:
    if v.dated_by == "revision_id":
        return "its id"
    if v.dated_by == "egov-api":
        return "e-Gov"
    return f"snapshot (seen {v.known_in_force_on})"


def _until_cell(v: Any) -> str:
    if v.scheduled:
        return iso(v.enforced_until) or "(not known\nin force)"
    until = iso(v.enforced_until) or f"known up to\n{iso(v.known_up_to) or '?'}"
    if v.enforced_until is not None and v.known_up_to is not None:
        until += f"\n(known up to\n{iso(v.known_up_to)})"
    if v.known_until is not None and v.gap:
        until += "\n(gap below)"
    elif v.known_until is not None and v.dated_by == "egov-api":
        until += f"\n(text known to\n{iso(v.known_until)})"
    return until


@app.command("diff")
def law_diff(
    law: LawArg,
    from_day: Annotated[str, typer.Option("--from", help="YYYY-MM-DD or 和暦 (令和3年1月1日, R3.1.1)")],
    to_day: Annotated[str, typer.Option("--to", help="YYYY-MM-DD or 和暦 (令和3年1月1日, R3.1.1)")],
    level: Annotated[str, typer.Option(help="article (articles and other top-level units) or all (every clause)")]
    = "article",
    names_only: Annotated[bool, typer.Option("--names-only", help="List the clauses that changed, without their "
                                             "wordings.")] = False,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Clauses added, changed and removed between the versions in force on two dates.

    Each change is shown as a 新旧対照: its wording before (改正前) and after (改正後), the changed words marked
    [-削られた文字-] and {+加えられた文字+}."""
    if level not in ("article", "all"):
        raise ConfigurationError("--level is article or all")
    start, end = given_day(from_day, "--from"), given_day(to_day, "--to")
    with opened(store, read_only=True) as lg:
        diff = lg.diff(law, start, end, level=level)
    if as_json:
        emit_json(diff.to_json())
        return
    out.print(f"[bold]{diff.law.title}[/]: {diff.count('added')} added, {diff.count('changed')} changed, "
              f"{diff.count('removed')} removed", highlight=False)
    out.print(f"  from: revision {diff.from_revision} ({start})", style="dim", highlight=False)
    out.print(f"  to:   revision {diff.to_revision} ({end})", style="dim", highlight=False)
    if not diff.complete:
        _print_wrapped(f"compared only up to {diff.compared_to}: the store knows {diff.law.title} no further, so "
                       f"what changed from then to {end} is not known", "")
    if diff.changes and not names_only:
        out.print(f"  {LEGEND}", style="dim", highlight=False)
    for change in diff.changes:
        colour = {"added": "green", "changed": "yellow", "removed": "red"}[change.status]
        out.print(f"[{colour}]{change.status:8}[/] {clause_label(change.path)}", highlight=False)
        if not names_only:
            _print_comparison(change.before, change.after)


def _print_comparison(before: str | None, after: str | None) -> None:
    """A change's 新旧対照, each wording under its label, indented and wrapped to the terminal (never cut)."""
    old, new = marked(before, after)
    for label, wording in (("改正前", old), ("改正後", new)):
        if wording is not None:
            out.print(f"  {label}", style="dim", highlight=False)
            for piece in folded(wording, max(out.width - 4, 20)):
                out.print("    ", piece, sep="", highlight=False)


@app.command("cites")
def law_cites(
    law: LawArg,
    clause: Annotated[str, typer.Argument(help="第七百十条, 710条 or a710/p1.")],
    as_of: AsOfOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The clauses a clause (and the clauses inside it) cites, as both were worded on a date."""
    _print_clause_links(law, clause, as_of, store, as_json, "cites")


@app.command("cited-by")
def law_cited_by(
    law: LawArg,
    clause: Annotated[str | None, typer.Argument(help="第七百九条, 709条 or a709; none: what cites the law as a "
                                                 "whole (named with its number, no clause).")] = None,
    kind: Annotated[str, typer.Option(help="provision (clauses of laws), precedent, book, guideline, other, or "
                                      "document (all but provisions).")] = "provision",
    as_of: Annotated[str | None, typer.Option("--as-of", help="Date (YYYY-MM-DD or 令和3年1月1日, R3.1.1). "
                                              "Clauses: default today. "
                                              "Documents: only those citing the wording in force then "
                                              "(default: any wording).")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """What cites a clause (or a clause inside it), or the law as a whole: other clauses, or precedents, books and
    guidelines."""
    if kind == "provision":
        _print_clause_links(law, clause, as_of, store, as_json, "cited_by")
        return
    from lexgraph import DOCUMENT_KINDS, clause_path

    kinds = DOCUMENT_KINDS if kind == "document" else (kind,)
    if kind != "document" and kind not in DOCUMENT_KINDS:
        raise ConfigurationError("--kind is provision, precedent, book, guideline, other or document")
    day = parse_day(as_of)
    with opened(store, read_only=True) as lg:
        info = lg.law(law)
        path = clause_path(clause) if clause is not None else ""
        found = lg.documents_citing(law, clause, as_of=day, kinds=kinds)
    if as_json:
        emit_json({"law_id": info.law_id, "law_title": info.title, "clause": clause,
                    "as_of": day.isoformat() if day else None, "kind": kind,
                    "cited_by": [c.to_json() for c in found]})
        return
    out.print(f"[bold]{_clause_title(info.title, path)}[/]: cited by {len({c.uid for c in found})} {kind}(s) in "
              f"{len(found)} chunk(s)", highlight=False)
    shown = set()
    for c in found:  # citing document → the clause it cites, then the wording it read on a line of its own
        if (c.uid, c.surface, c.path, c.revision_id) in shown:
            continue  # the same citation in another chunk of the same document
        shown.add((c.uid, c.surface, c.path, c.revision_id))
        court = " ".join(part for part in (c.court or c.kind, c.decision_type) if part)
        out.print(f"  {c.day or '?'}  {court}  {c.name}", highlight=False)
        out.print(f"    「{one_line(c.surface)}」 → {_clause_title(info.title, c.path)}", highlight=False)
        if not c.path:  # the law as a whole: no wording was cited, the revision in force then is said
            read = f"revision in force then: {c.revision_id}" if c.revision_id else "no stored revision in force then"
        else:
            read = f"wording of revision {c.revision_id}" if c.revision_id else "wording not stored"
        out.print(f"    {read}", style="dim", highlight=False)


def _clause_title(title: str, path: str) -> str:
    """A clause with its law's title, or the title alone for the law as a whole (an empty path)."""
    return f"{title} {clause_label(path)}" if path else f"{title} (the law as a whole)"


def _print_clause_links(law: str, clause: str | None, as_of: str | None, store: str | None, as_json: bool,
                        direction: str) -> None:
    day = parse_day(as_of)
    with opened(store, read_only=True) as lg:
        # `law cites` always names a clause; only `law cited-by` may ask about the law as a whole
        found = lg.cites(law, clause or "", as_of=day) if direction == "cites" else \
            lg.cited_by(law, clause, as_of=day)
    if as_json:
        emit_json(found.to_json())
        return
    verb = "cites" if direction == "cites" else "is cited by"
    out.print(f"[bold]{_clause_title(found.law.title, found.path)}[/] {verb} {len(found.links)} clause(s) as of "
              f"{display_day(day)}", highlight=False)
    if found.unknown:
        _print_wrapped(f"not known in force on {display_day(day)}, read as its last known wording: "
                       f"{_unnamed(str(found.unknown))}", "")
    for link in found.links:  # always citing 「words」 → cited, then the far clause's wording
        other = f"{link.other_law_title} {clause_label(link.other.path)}"
        if direction == "cites":
            out.print(f"  {clause_label(link.near_path)} 「{link.surface}」 → {other}", highlight=False)
        else:
            near = clause_label(link.near_path) if link.near_path else found.law.title
            out.print(f"  {other} 「{link.surface}」 → {near}", highlight=False)
        out.print(f"    {fit(link.other.text)}", style="dim", highlight=False)
        if link.unverified:
            _print_wrapped(f"not known in force then: {_unnamed(link.unverified)}", "    ")


_DECISION_SUBJECT = re.compile(r"^[0-9A-Z]{10,}\s+\S+:\s+")  # "129AC0000000089 a709: " (the line names the clause)


def _unnamed(reason: str) -> str:
    """A reason of the in-force decision without its leading law id and clause path, which the line already
    names as a lawyer writes them."""
    return _DECISION_SUBJECT.sub("", reason, count=1)


def _print_wrapped(text: str, indent: str) -> None:
    """A caveat in yellow, folded to the 80 columns of a terminal (ids are never cut: they are single words)."""
    import textwrap

    for line in textwrap.wrap(text, width=80 - len(indent), break_long_words=False, break_on_hyphens=False):
        out.print(f"{indent}{line}", style="yellow", highlight=False)


@app.command("link")
def law_link(
    laws: Annotated[list[str] | None, typer.Argument(help="Laws to link (default: every stored law).")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """(Re)compute the CITES edges between clauses, for laws ingested with --no-link or stored before linking."""
    with opened(store) as lg, progress_bar() as progress:
        task = progress.add_task("linking", total=None)
        summary = lg.link(laws, on_law=lambda law_id: progress.update(task, advance=1, description=law_id))
    if as_json:
        emit_json(summary.to_json())
    else:
        print_links_summary(summary)
    if summary.failed_laws:
        raise typer.Exit(EXIT_BAD_INPUT)


def print_links_summary(summary: LinkSummary) -> None:
    out.print(f"linked {summary.laws} laws: {summary.citations} citations in {summary.clauses_read} clauses, "
              f"{summary.edges_total} CITES edges (+{summary.edges_added} −{summary.edges_removed}); "
              f"{len(summary.pending_laws)} cited laws not stored", highlight=False)
    for reason, count in summary.not_linked.most_common():
        out.print(f"  not linked: {count} × {reason}", style="dim", highlight=False)
    for law_id, reason in summary.failed_laws.items():
        err.print(f"[red]failed[/] linking {law_id}: {escape(reason)}; its edges are as they were, and "
                  f"`lexgraph law link {law_id}` tries again", highlight=False)
