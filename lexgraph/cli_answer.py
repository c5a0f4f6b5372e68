"""`lexgraph ask`: an answer with citations on every sentence (registered by cli.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from lexgraph.answer.agents import DEFAULT_TAU, METHODS, MCQAItem, parse_choices
from lexgraph.answer.answerer import AskOptions
from lexgraph.answer.guardrails import DEFAULT_MAX_REPAIRS, RetriesExhausted
from lexgraph.answer.llm import NOT_CONFIGURED, LLMUnavailable, configured_client
from lexgraph.answer.model import MODES as ANSWER_MODES
from lexgraph.answer.model import Answer
from lexgraph.answer.prompts import STYLES
from lexgraph.answer.references import capped_limits
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
    _progress,
    app,
    err,
    eval_app,
)
from lexgraph.cli import out as console
from lexgraph.cli_search import LawsOpt, _fmt, _ks, _search_errors
from lexgraph.eval.answers import AnswerScore, AnswersReport, judge, rouge_l, write_answers_report
from lexgraph.eval.mcqa import ORDERS, MCQAConfig, file_sha256, items_from_lawqa, run_mcqa, write_report
from lexgraph.eval.retrieval import DatasetError, article_id, load_lawqa, stored_law_ids
from lexgraph.retrieve.search import MODES as SEARCH_MODES
from lexgraph.retrieve.search import SearchOptions


@app.command("ask")
def ask_command(
    question: Annotated[str, typer.Argument(help="The question, in Japanese.")],
    prompt: Annotated[str, typer.Option("--prompt", help=f"Prompt style: {', '.join(STYLES)}.")] = "text",
    mode: Annotated[str, typer.Option("--mode", help=f"Generation mode: {', '.join(ANSWER_MODES)}.")] = "cgg",
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
        limits = None if references is None else capped_limits(references)
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


@eval_app.command("mcqa")
def eval_mcqa(
    dataset: Annotated[Path | None, typer.Option("--dataset", help="lawqa_jp JSON (e.g. "
                                                 "../shared/data/lawqa_jp/dev.json).")] = None,
    method: Annotated[list[str] | None, typer.Option("--method", help=f"One of {', '.join(METHODS)}; "
                                                     "repeatable (default baseline).")] = None,
    use_context: Annotated[bool, typer.Option("--use-context", help="Give the agents the dataset's own statute "
                                              "text instead of lexgraph's retrieved clauses.")] = False,
    randomized: Annotated[bool, typer.Option("--randomized", help="Run each question in its 4 choice orders and "
                                             "report consistency.")] = False,
    limit: Annotated[int | None, typer.Option("--limit", help="Only the first N questions.")] = None,
    tau: Annotated[float, typer.Option("--tau", help="Debate: agreement that ends it (0.8 or 0.98).")] = DEFAULT_TAU,
    max_repairs: Annotated[int, typer.Option("--max-repairs", help="Repairs of an invalid agent output.")
                           ] = DEFAULT_MAX_REPAIRS,
    config: Annotated[Path | None, typer.Option("--config", help="Run again as a report's config.json says.")
                      ] = None,
    report: Annotated[Path | None, typer.Option("--report", help="Write metrics.json, details.csv, config.json "
                                                "and accuracy.png here.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Accuracy of the multi-agent methods on lawqa_jp's 4-choice questions, with every agent's trace."""
    llm = configured_client()
    if llm is None:
        _fail(f"eval mcqa asks a model; {NOT_CONFIGURED}", EXIT_UNAVAILABLE)
    if config is not None:
        try:
            settings = MCQAConfig.read(config)
        except (OSError, ValueError, TypeError, KeyError) as error:
            _fail(f"--config {config}: not a report's config.json ({error})", EXIT_BAD_INPUT)
    else:
        if dataset is None:
            _fail("give --dataset FILE (or --config DIR/config.json)", EXIT_USAGE)
        try:
            digest = file_sha256(dataset)
        except OSError as error:
            _fail(f"--dataset {dataset}: cannot be read ({error.strerror})", EXIT_BAD_INPUT)
        settings = MCQAConfig(str(dataset), digest, tuple(method or ["baseline"]), llm.config.model,
                              llm.config.base_url, use_context, randomized, limit, tau, max_repairs,
                              store=store or "")
    for name in settings.methods:
        if name not in METHODS:
            _fail(f"--method {name!r}: choose from {', '.join(METHODS)}", EXIT_USAGE)
    try:
        items = items_from_lawqa(load_lawqa(settings.dataset))[: settings.limit]
    except DatasetError as error:
        _fail(str(error), EXIT_BAD_INPUT)
    if config is not None and file_sha256(settings.dataset) != settings.dataset_sha256:
        err.print(f"[yellow]warning[/] {settings.dataset} changed since the configuration was written", highlight=False)
    with _open(store or settings.store or None, read_only=True) as lg, _search_errors(), \
            _progress("runs") as progress:
        task = progress.add_task("agents", total=len(items) * len(settings.methods) * (len(ORDERS) if
                                                                                        settings.randomized else 1))
        context_for = (lambda item: item.context) if settings.use_context else retrieved_context(lg, settings)
        try:
            runs = run_mcqa(llm, items, settings, context_for, on_result=lambda _: progress.advance(task))
        except LLMUnavailable as error:
            _fail(str(error), EXIT_UNAVAILABLE)
    files = write_report(report, settings, runs) if report is not None else []
    if as_json:
        _emit_json({"config": settings.to_json(), "methods": [run.to_json() for run in runs],
                    "report": [str(f) for f in files]})
        return
    table = Table("method", "accuracy", "consistency", "runs", "failed")
    for run in runs:
        table.add_row(run.method, _fmt(run.accuracy), _fmt(run.consistency), str(len(run.results)),
                      str(run.failed))
    console.print(f"{settings.dataset}: {len(items)} questions, model {settings.model}, "
                  f"{'dataset context' if settings.use_context else 'lexgraph retrieval'}", highlight=False)
    console.print(table)
    for path in files:
        console.print(f"wrote {path}", highlight=False)


def retrieved_context(lg: Any, settings: MCQAConfig) -> Any:
    """The clauses lexgraph retrieves for a question and its choices, as the agents' statute text."""
    retriever = lg.retriever("hybrid")  # one for all questions: the index and the model stay loaded
    options = SearchOptions(k=settings.references, n=settings.references)

    def context(item: MCQAItem) -> str:
        query = f"{item.question}\n" + "\n".join(item.choices.values())
        result = lg.search(query, kind="provision", options=options, retriever=retriever)
        return "\n".join(f"{e.title}：{e.text}" for e in result.evidence if e.label == "Provision")
    return context


@eval_app.command("answers")
def eval_answers(
    dataset: Annotated[Path, typer.Option("--dataset", help="lawqa_jp JSON: the correct choice is the reference "
                                          "answer, the context's headings the gold evidence.")],
    limit: Annotated[int | None, typer.Option("--limit", help="Only the first N questions.")] = None,
    k: Annotated[str, typer.Option("--k", help="Cut-offs for the evidence Recall@k.")] = "5,10,20",
    mode: Annotated[str, typer.Option("--mode", help=f"Generation mode: {', '.join(ANSWER_MODES)}.")] = "cgg",
    prompt: Annotated[str, typer.Option("--prompt", help=f"Prompt style: {', '.join(STYLES)}.")] = "text",
    no_model: Annotated[bool, typer.Option("--no-model", help="Score extractive answers (and no judge).")] = False,
    report: Annotated[Path | None, typer.Option("--report", help="Write metrics.json, details.csv, config.json "
                                                "and answers.png here.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """ROUGE-L (Sudachi tokens), Recall@k of the cited evidence, and an LLM-judge score when a model is set."""
    ks = _ks(k)
    try:
        options = AskOptions(mode=mode, prompt_style=prompt)
        questions = load_lawqa(dataset)[:limit]
    except ValueError as error:
        _fail(str(error), EXIT_USAGE if not isinstance(error, DatasetError) else EXIT_BAD_INPUT)
    llm = None if no_model else configured_client()
    scores = AnswersReport(ks)
    with _open(store) as lg, _search_errors(), _progress("questions") as progress:
        law_ids = stored_law_ids(questions, lg.catalog, lg.store)
        retriever = lg.retriever("hybrid", llm=llm)
        task = progress.add_task("answering", total=len(questions))
        for question in questions:
            choices = parse_choices(question.choices)
            reference = choices.get(question.answer.strip().lower(), "")
            try:
                answer = lg.ask(question.query, options=options, use_model=llm is not None, llm=llm, record=False,
                                retriever=retriever)
            except (RetriesExhausted, LLMUnavailable) as error:
                err.print(f"[yellow]{question.qid}[/]: {error}", highlight=False)
                progress.advance(task)
                continue
            body = " ".join([*(s.text for s in answer.sentences), answer.conclusion])
            cited = tuple(dict.fromkeys(
                article_id(ref.law_id, ref.path) for cid in answer.cited_ids
                if (ref := answer.references.by_id(cid)) is not None and ref.kind == "law"))
            gold = tuple(f"{law_ids[t]}|{p}" for t, p in question.articles if law_ids.get(t))
            verdict = judge(llm, question.question, reference, body) if llm is not None else (None, "")
            scores.scores.append(AnswerScore(question.qid, body, reference, rouge_l(body, reference), cited, gold,
                                             verdict[0], verdict[1], answer.extractive))
            progress.advance(task)
    payload = scores.to_json()
    files = []
    if report is not None:
        files = write_answers_report(report, {"dataset": str(dataset), "limit": limit, "ks": list(ks), "mode": mode,
                                              "prompt": prompt, "model": llm.config.model if llm else None,
                                              "base_url": llm.config.base_url if llm else None}, scores)
    if as_json:
        _emit_json({**payload, "report": [str(f) for f in files]})
        return
    table = Table("metric", "value")
    table.add_row("questions", str(payload["questions"]))
    table.add_row("ROUGE-L (Sudachi)", _fmt(payload["rouge_l"]))
    for cut in ks:
        table.add_row(f"evidence Recall@{cut}", _fmt(payload[f"evidence_recall@{cut}"]))
    table.add_row("judge (1-5)", "-" if payload["judge"] is None else f"{payload['judge']:.2f}")
    console.print(table)
    for path in files:
        console.print(f"wrote {path}", highlight=False)
