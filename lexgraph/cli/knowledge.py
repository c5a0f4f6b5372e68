"""`lexgraph knowledge interview`: contract-review knowledge from a lawyer, linked to the clauses it cites."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from lexgraph.cli.options import JsonOpt, StoreOpt
from lexgraph.cli.output import EXIT_BAD_INPUT, emit_json, err, fail, opened, out
from lexgraph.client import DEFAULT_MAX_REPAIRS
from lexgraph.errors import ModelUnavailable

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
                                             "default <store>/turns.jsonl.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Interview a lawyer (a model asks, you answer) and store the knowledge, linked to the clauses it cites.
    Only the interviewer's messages are shown; the turn's control and state stay in the log."""
    scripted = None
    if answers is not None:
        try:
            scripted = iter([line for line in answers.read_text(encoding="utf-8").splitlines() if line.strip()])
        except OSError as error:
            fail(f"--answers {answers}: cannot be read ({error.strerror})", EXIT_BAD_INPUT)
    with opened(store) as lg:
        try:
            interview = lg.interview(topic=topic, max_repairs=max_repairs, log=log)
            turn = interview.start()
            while not turn.done:
                if not as_json:
                    out.print(f"[bold cyan]聞き手[/] {turn.assistant_message}", highlight=False)
                text = _next_answer(scripted)
                if text is None:
                    fail("the interview ended before it was completed: nothing was stored", EXIT_BAD_INPUT)
                turn = interview.reply(text)
        except ModelUnavailable as error:  # `RetriesExhausted` included: where to read what the model said
            fail(f"{error}. Every reply and its errors are in the turn log {log or lg.turn_log_path()}",
                 error.exit_code)
        transcript = json.dumps(interview.messages, ensure_ascii=False)
        stored = lg.save_knowledge(turn.knowledge or {"entries": []}, transcript=transcript)
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
