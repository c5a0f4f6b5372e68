"""`lexgraph ask`: an answer with citations on every sentence (registered by cli.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from lexgraph.answer.answerer import AskOptions
from lexgraph.answer.guardrails import DEFAULT_MAX_REPAIRS, RetriesExhausted
from lexgraph.answer.llm import LLMUnavailable
from lexgraph.answer.model import MODES, Answer
from lexgraph.answer.prompts import STYLES
from lexgraph.answer.references import DEFAULT_LIMITS
from lexgraph.cli import (
    EXIT_BAD_INPUT,
    EXIT_UNAVAILABLE,
    EXIT_USAGE,
    AsOfOpt,
    JsonOpt,
    StoreOpt,
    _day,
    _emit_json,
    _fail,
    _open,
    app,
    err,
)
from lexgraph.cli import out as console
from lexgraph.cli_search import LawsOpt, _search_errors
from lexgraph.retrieve.search import MODES as SEARCH_MODES
from lexgraph.retrieve.search import SearchOptions


@app.command("ask")
def ask_command(
    question: Annotated[str, typer.Argument(help="The question, in Japanese.")],
    prompt: Annotated[str, typer.Option("--prompt", help=f"Prompt style: {', '.join(STYLES)}.")] = "text",
    mode: Annotated[str, typer.Option("--mode", help=f"Generation mode: {', '.join(MODES)}.")] = "cgg",
    search_mode: Annotated[str, typer.Option("--search", help=f"Retrieval: {', '.join(SEARCH_MODES)}.")] = "hybrid",
    as_of: AsOfOpt = None,
    law: LawsOpt = None,
    max_repairs: Annotated[int, typer.Option("--max-repairs", help="Repair prompts after an invalid reply.")
                           ] = DEFAULT_MAX_REPAIRS,
    references: Annotated[int | None, typer.Option("--references", help="At most this many references of each "
                                                   "kind (default 5 books, 5 guidelines, 5 precedents, 10 laws).")
                          ] = None,
    no_model: Annotated[bool, typer.Option("--no-model", help="Answer extractively even if a model is set.")
                        ] = False,
    log: Annotated[Path | None, typer.Option("--log", help="Turn log (JSONL); default <store>/turns.jsonl.")
                   ] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Answer with the clauses and precedents each sentence relies on. Without a model (LEXGRAPH_LLM_MODEL), the
    answer is extractive and says so."""
    try:
        limits = None if references is None else {k: min(v, references) for k, v in DEFAULT_LIMITS.items()}
        if references is not None and references < 1:
            raise ValueError("--references must be at least 1")
        options = AskOptions(mode=mode, prompt_style=prompt, max_repairs=max_repairs, limits=limits)
        search = SearchOptions(mode=search_mode)
    except ValueError as error:
        _fail(str(error), EXIT_USAGE)
    day = _day(as_of)
    with _open(store) as lg, _search_errors():
        try:
            answer = lg.ask(question, options=options, as_of=day, laws=law or (), search=search,
                            use_model=not no_model, log=log)
        except RetriesExhausted as error:
            _fail(f"{error}. Every reply and its errors are in the turn log {log or lg.turn_log_path()}; try "
                  "again, raise --max-repairs, or use a stronger model", EXIT_UNAVAILABLE)
        except LLMUnavailable as error:
            _fail(str(error), EXIT_UNAVAILABLE)
    if as_json:
        _emit_json(answer.to_json())
    else:
        print_answer(answer)


def print_answer(answer: Answer) -> None:
    console.print(f"[bold]{answer.question}[/]  [dim]({answer.label}; as of {answer.as_of})[/]", highlight=False)
    for sentence in answer.sentences:
        marks = "".join(f"[{cid}]" for cid in sentence.citations)
        attached = "".join(f"[{cid}*]" for cid in sentence.attached)
        console.print(f"- {sentence.text} {marks}{attached}", highlight=False)
    console.print(f"[bold]結論[/] {answer.conclusion}", highlight=False)
    for caveat in answer.caveats:
        console.print(f"[yellow]注意[/] {caveat}", highlight=False)
    cited = set(answer.cited_ids)
    if cited:
        console.print("[bold]references[/]" + ("  (* attached after generation)" if any(
            s.attached for s in answer.sentences) else ""))
    for ref in answer.references.items:
        if ref.id in cited:
            period = ""
            if ref.kind == "law":
                period = f"  [dim]{ref.valid_from or '?'} – {ref.valid_until or ''}  {ref.revision_id}[/]"
            console.print(f"  {ref.id}  {ref.title}{period}", highlight=False)


knowledge_app = typer.Typer(no_args_is_help=True, help="Capture contract-review knowledge linked to clauses.")
app.add_typer(knowledge_app, name="knowledge")


@knowledge_app.command("interview")
def interview_command(
    topic: Annotated[str | None, typer.Option("--topic", help="What the interview is about, e.g. 秘密保持契約.")
                     ] = None,
    answers: Annotated[Path | None, typer.Option("--answers", help="Answer from this file, one line per turn, "
                                                 "instead of the keyboard.")] = None,
    max_repairs: Annotated[int, typer.Option("--max-repairs", help="Repair prompts after an invalid turn.")
                           ] = DEFAULT_MAX_REPAIRS,
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
            _fail(f"--answers {answers}: cannot be read ({error.strerror})", EXIT_BAD_INPUT)
    with _open(store) as lg:
        try:
            interview = lg.interview(topic=topic, max_repairs=max_repairs)
            turn = interview.start()
            while not turn.done:
                if not as_json:
                    console.print(f"[bold cyan]聞き手[/] {turn.assistant_message}", highlight=False)
                text = _next_answer(scripted)
                if text is None:
                    _fail("the interview ended before it was completed: nothing was stored", EXIT_BAD_INPUT)
                turn = interview.reply(text)
        except (RetriesExhausted, LLMUnavailable) as error:
            _fail(str(error), EXIT_UNAVAILABLE)
        except RuntimeError as error:
            _fail(str(error), EXIT_BAD_INPUT)
        transcript = json.dumps(interview.messages, ensure_ascii=False)
        stored = lg.save_knowledge(turn.knowledge or {"entries": []}, transcript=transcript)
    if as_json:
        _emit_json({"turns": len(interview.turns), "entries": [s.to_json() for s in stored],
                    "knowledge": turn.knowledge})
        return
    console.print(f"[bold cyan]聞き手[/] {turn.assistant_message}", highlight=False)
    for entry in stored:
        links = ", ".join(f"{basis} → {uid}" for basis, uid in entry.linked) or "no clause found"
        console.print(f"stored {entry.uid} {entry.title}: {links}", highlight=False)
        for basis in entry.unresolved:
            err.print(f"[yellow]not linked[/] {basis}: no such clause in force in the store", highlight=False)


def _next_answer(scripted: Iterator[str] | None) -> str | None:
    if scripted is not None:
        return next(scripted, None)
    try:
        return input("あなた> ")
    except EOFError:
        return None
