"""`lexgraph ask`: an answer with citations on every sentence."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from lexgraph import (
    BASIS_LABELS,
    NOT_STORED_LABEL,
    AskOptions,
    ConfigurationError,
    Searching,
    SearchOptions,
    capped_limits,
)
from lexgraph.cli.options import AsOfOpt, JsonOpt, LawsOpt, StoreOpt, parse_day
from lexgraph.cli.output import emit_json, err, opened, out

if TYPE_CHECKING:
    from lexgraph import Answer, AnswerSentence


def ask_command(
    question: Annotated[str, typer.Argument(help="The question, in Japanese.")],
    prompt: Annotated[str, typer.Option("--prompt", help=f"Prompt style: {', '.join(AskOptions.styles())}.")
                      ] = AskOptions.prompt_style,
    mode: Annotated[str, typer.Option("--mode", help=f"Generation mode: {', '.join(AskOptions.modes())}.")
                    ] = AskOptions.mode,
    search_mode: Annotated[str, typer.Option("--search", help=f"Retrieval: {', '.join(SearchOptions.modes())}.")
                           ] = SearchOptions.mode,
    as_of: AsOfOpt = None,
    law: LawsOpt = None,
    max_repairs: Annotated[int, typer.Option("--max-repairs", help="Repair prompts after an invalid reply.")
                           ] = AskOptions.max_repairs,
    references: Annotated[int | None, typer.Option("--references", help="At most this many references of each "
                                                   "kind (default 5 books, 5 guidelines, 5 precedents, 10 laws).")
                          ] = None,
    no_model: Annotated[bool, typer.Option("--no-model", help="Answer extractively even if a model is set.")
                        ] = False,
    log: Annotated[Path | None, typer.Option("--log", help="Turn log (JSONL); default: the user's data folder "
                                                              "(LEXGRAPH_TURN_LOG).")
                   ] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Answer with the clauses and precedents each sentence relies on. Without a model (LEXGRAPH_LLM_MODEL), the
    answer is extractive and says so."""
    Searching.check_question(question)  # before the store is opened: bad input, whatever the store
    if references is not None and references < 1:
        raise ConfigurationError("--references must be at least 1")
    limits = None if references is None else capped_limits(references)
    options = AskOptions(mode=mode, prompt_style=prompt, max_repairs=max_repairs, limits=limits)
    search = SearchOptions(mode=search_mode)
    day = parse_day(as_of)
    with opened(store, read_only=True) as lg:  # asking reads; a model that fails names the turn log
        answer = lg.ask(question, options=options, as_of=day, laws=law or (), search=search, use_model=not no_model,
                        log=log)
    for note in answer.no_effect:  # on stderr, so that --json's stdout stays one document
        err.print(f"[yellow]note[/] {escape(note)}", highlight=False)
    if as_json:
        emit_json(answer.to_json())
    else:
        print_answer(answer)


def basis_marks(statement: AnswerSentence) -> str:
    """What a statement rests on, after it: [LAW 1] cited by the model, [LAW 2*] attached after generation, or the
    label of a statement that cites nothing (the model's own, or lexgraph's)."""
    marks = "".join(f"[{cid}]" for cid in statement.citations) + "".join(f"[{cid}*]" for cid in statement.attached)
    return escape(marks) if marks else f"[dim]（{BASIS_LABELS[statement.basis]}）[/]"


def print_flags(statement: AnswerSentence) -> None:
    """Under a statement naming a clause the store says is not there that day: which, and why (not supported)."""
    for flag in statement.flags:
        out.print(f"  [red]要確認（根拠なし）[/] {escape(flag)}", highlight=False)


def print_answer(answer: Answer) -> None:
    out.print(f"[bold]{answer.question}[/]  [dim]({answer.label}; as of {answer.as_of})[/]", highlight=False)
    for sentence in answer.sentences:
        out.print(f"- {escape(sentence.text)} {basis_marks(sentence)}", highlight=False)
        print_flags(sentence)
    out.print(f"[bold]結論[/] {escape(answer.conclusion.text)} {basis_marks(answer.conclusion)}", highlight=False)
    print_flags(answer.conclusion)
    for caveat in answer.caveats:
        out.print(f"[yellow]注意[/] {escape(caveat.text)} {basis_marks(caveat)}", highlight=False)
        print_flags(caveat)
    cited = set(answer.cited_ids)
    if cited:
        out.print("[bold]references[/]" + ("  (* attached after generation)" if any(
            s.attached for s in answer.sentences) else ""))
    for ref in answer.references.items:
        if ref.id in cited:
            period = ""
            if ref.kind == "law":
                period = f"  [dim]{ref.valid_from or '?'} – {ref.valid_until or ''}  {ref.revision_id}[/]"
            elif ref.stub:
                period = f"  [yellow]{NOT_STORED_LABEL}[/]"
            out.print(f"  {ref.id}  {ref.title}{period}", highlight=False)
