"""`lexgraph knowledge interview | list | show | export`: contract-review knowledge from a lawyer, linked to the
clauses it cites, and the knowledge stored."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from lexgraph import DEFAULT_MAX_REPAIRS, ModelUnavailable
from lexgraph.cli.options import JsonOpt, StoreOpt
from lexgraph.cli.output import emit_json, err, opened, out, write_text_out
from lexgraph.errors import InputError

app = typer.Typer(no_args_is_help=True, help="Capture contract-review knowledge linked to clauses.")


@app.command("interview")
def interview_command(
    topic: Annotated[str | None, typer.Option("--topic", help="What the interview is about, e.g. 秘密保持契約.")
                     ] = None,
    answers: Annotated[Path | None, typer.Option("--answers", help="Answer from this file, one line per turn, "
                                                 "instead of the keyboard.")] = None,
    max_repairs: Annotated[int, typer.Option("--max-repairs", help="Repair prompts after an invalid turn.")
                           ] = DEFAULT_MAX_REPAIRS,
    log: Annotated[Path | None, typer.Option("--log", help="Turn log (JSONL) for every turn, mode interview; "
                                             "default: the user's data folder (LEXGRAPH_TURN_LOG).")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Interview a lawyer (a model asks, you answer) and store the knowledge, linked to the clauses it cites.
    Only the interviewer's messages are shown; the turn's control and state stay in the log."""
    from lexgraph import LexGraph

    LexGraph.require_model("the knowledge interview")  # said before a store is opened or a question asked
    scripted = None
    if answers is not None:
        try:
            scripted = iter([line for line in answers.read_text(encoding="utf-8").splitlines() if line.strip()])
        except OSError as error:
            raise InputError(f"--answers {answers}: cannot be read ({error.strerror})") from error
    with opened(store) as lg:
        try:
            interview = lg.interview(topic=topic, max_repairs=max_repairs, log=log)
            turn = interview.start()
            while not turn.done:
                if not as_json:
                    out.print(f"[bold cyan]聞き手[/] {turn.assistant_message}", highlight=False)
                text = _next_answer(scripted)
                if text is None:
                    raise InputError("the interview ended before it was completed: nothing was stored")
                turn = interview.reply(text)
        except ModelUnavailable as error:  # `RetriesExhausted` included: where to read what the model said
            raise ModelUnavailable(f"{error}. Every reply and its errors are in the turn log "
                                   f"{log or lg.turn_log_path()}") from error
        transcript = json.dumps(interview.messages, ensure_ascii=False)
        assert turn.knowledge is not None  # a finished turn holds the whole entry (the guardrails' rule)
        stored = lg.save_knowledge(turn.knowledge, transcript=transcript)
    if as_json:
        emit_json({"turns": len(interview.turns), "entries": [s.to_json() for s in stored],
                    "knowledge": turn.knowledge})
        return
    out.print(f"[bold cyan]聞き手[/] {turn.assistant_message}", highlight=False)
    for entry in stored:
        links = ", ".join(f"{basis} → {uid}" for basis, uid in entry.linked) or "no clause found"
        out.print(f"stored {entry.uid} {entry.title}: {links}", highlight=False)
        for basis in entry.unresolved:
            err.print(f"[yellow]not linked[/] {basis}: no such clause in force in the store", highlight=False)


def _next_answer(scripted: Iterator[str] | None) -> str | None:
    if scripted is not None:
        return next(scripted, None)
    try:
        return input("あなた> ")
    except EOFError:
        return None


@app.command("list")
def list_command(store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """The stored knowledge entries, oldest first: uid, title, contract types and the clauses linked."""
    with opened(store, read_only=True) as lg:
        entries = lg.knowledge()
    if as_json:
        emit_json([e.to_json() for e in entries])
        return
    if not entries:
        err.print("no knowledge stored: record some with lexgraph knowledge interview", highlight=False)
        return
    for e in entries:
        kinds = "、".join(e.entry.get("contract_types", [])) or "（契約類型なし）"
        clauses = ", ".join(f"{c['law_id']} {c['path']}" for c in e.clauses) or "no clause linked"
        out.print(f"{e.uid}  {e.entry['title']}  [{kinds}]  {clauses}", highlight=False)


@app.command("show")
def show_command(uid: Annotated[str, typer.Argument(help="The entry's uid (k:<id>), as `knowledge list` prints it.")],
                 store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """One stored entry in full (the entry shape 1.0), with the clauses it is linked to."""
    with opened(store, read_only=True) as lg:
        found = lg.knowledge(uid)
    if not found:
        raise InputError(f"no knowledge entry {uid!r} is stored; `lexgraph knowledge list` shows the uids")
    entry = found[0]
    if as_json:
        emit_json(entry.to_json())
        return
    for name, value in entry.to_json().items():
        if name != "clauses" and value not in (None, "", []):
            out.print(f"{name}: {'、'.join(value) if isinstance(value, list) else value}", highlight=False)
    for c in entry.clauses:
        out.print(f"clause: {c['basis']} → {c['law_id']} {c['path']} ({c['uid']})", highlight=False)


@app.command("export")
def export_command(out_file: Annotated[Path | None, typer.Option("--out", help="Write JSONL here (default: "
                                                                  "stdout).")] = None,
                   store: StoreOpt = None) -> None:
    """Every stored entry as JSON Lines (one entry per line, shape 1.0 with schema_version and linked clauses)."""
    with opened(store, read_only=True) as lg:
        lines = [json.dumps(e.to_json(), ensure_ascii=False) for e in lg.knowledge()]
    write_text_out("".join(f"{line}\n" for line in lines), out_file, f"{len(lines)} entries")
