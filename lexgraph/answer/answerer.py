"""Answering a question: retrieve, build references, prompt, validate, attach citations, check them in time.

Modes (CitaLaw):
- ``cgg``: the references go in the prompt and the model answers from them;
- ``arg-q``: the model first answers closed-book (a draft citing nothing); references retrieved by the question are
  then given with the draft, and the model refines it;
- ``arg-qa``: the same, with references retrieved by the question and the draft together;
- ``closebook``: the closed-book answer alone, no references (CitaLaw's CloseBook; the integrated-citation-graph
  paper's zero-shot baseline): what the model knows by itself, citing nothing.

With no model, the answer is extractive (`extractive.extractive_answer`). Every model reply passes the guardrails
(`guardrails.complete_json`): schema, reference ids, bounded repairs. Then every statute the model's statements name
in their own words is resolved as `lexgraph cite` resolves it (`Cite`, given by the caller: the one resolver, not a
second), and a statement naming a clause the store says is not there that day is flagged (`model.AnswerMention`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import TYPE_CHECKING, Any

from lexgraph.answer.attach import (
    Embed,
    attach_citations,
    attach_published,
    in_force_caveats,
    stale_caveats,
    unknown_caveats,
)
from lexgraph.answer.extractive import extractive_answer
from lexgraph.answer.model import ANSWER_MODES, Answer, AnswerMention, AnswerSentence, cited_ids
from lexgraph.answer.prompts import STYLES, closed_book, render, with_draft
from lexgraph.answer.references import DEFAULT_LIMITS, References, build_references
from lexgraph.errors import ConfigurationError, RetriesExhausted
from lexgraph.llm.client import LLMClient
from lexgraph.llm.guardrails import DEFAULT_MAX_REPAIRS, Attempt, Messages, ReplyCheck, ValidatedReply, complete_json
from lexgraph.store.base import GraphStore

if TYPE_CHECKING:
    from lexgraph.citations.model import Citation
    from lexgraph.retrieve.search import SearchResult

#: Runs the search for a text (the question, or question + draft): `LexGraph.search` with the caller's filter.
Retrieve = Callable[[str], "SearchResult"]
#: The statutes a text names, resolved against the store on a day: what `LexGraph.cite` returns.
Cite = Callable[[str, date], "Sequence[Citation]"]


@dataclass(frozen=True)
class AskOptions:
    mode: str = "cgg"
    prompt_style: str = "text"
    max_repairs: int = DEFAULT_MAX_REPAIRS
    limits: Mapping[str, int] | None = None  # references per kind (DEFAULT_LIMITS)
    attachment: str = "lexgraph"  # uncited sentences by token cosine, or "citalaw": the paper's rule (attach_published)

    @staticmethod
    def modes() -> tuple[str, ...]:
        """The generation modes an answer can be asked in (``closebook``: CitaLaw's zero-shot baseline)."""
        return ANSWER_MODES

    @staticmethod
    def styles() -> tuple[str, ...]:
        """The prompt styles (one template each under ``answer/templates``)."""
        return STYLES

    def __post_init__(self) -> None:
        if self.mode not in self.modes():
            raise ConfigurationError(f"mode must be one of {', '.join(self.modes())}, not {self.mode!r}")
        if self.prompt_style not in STYLES:
            raise ConfigurationError(f"prompt style must be one of {', '.join(STYLES)}, not {self.prompt_style!r}")
        if self.max_repairs < 0:
            raise ConfigurationError("max_repairs must be >= 0")
        if self.attachment not in ATTACHMENTS:
            raise ConfigurationError(f"attachment must be one of {', '.join(ATTACHMENTS)}, not {self.attachment!r}")


ATTACHMENTS = ("lexgraph", "citalaw")


def ask(store: GraphStore, question: str, retrieve: Retrieve, llm: LLMClient | None, as_of: date,
        options: AskOptions | None = None, embed: Embed | None = None, cite: Cite | None = None) -> Answer:
    from lexgraph.retrieve.search import MAX_QUESTION_CHARS

    options = options or AskOptions()  # the question was checked at the door (`Answering.ask`: check_question)
    limits = options.limits or DEFAULT_LIMITS
    if llm is None:
        references = build_references(store, retrieve(question), limits)
        extracted = extractive_answer(question, references, as_of, mode=options.mode,
                                      prompt_style=options.prompt_style)
        checks = [AnswerSentence(text, (), by="lexgraph") for text in
                  (*in_force_caveats([r.id for r in references.items if r.unverified], references, as_of),
                   *unknown_caveats(references, as_of), *stale_caveats(references))]
        return replace(extracted, caveats=(*extracted.caveats, *checks), no_effect=without_model(options))
    attempts: list[Attempt] = []
    prompts: list[Messages] = []
    draft: str | None = None
    if options.mode == "closebook":
        only = _complete(llm, closed_book(question).messages(), ReplyCheck("answer", allowed_ids=frozenset()),
                         options, attempts, prompts)
        return finish(question, only.value, References(()), as_of, options, model=llm.config.model, draft=None,
                      attempts=tuple(attempts), prompts=tuple(prompts), embed=embed, cite=cite)
    if options.mode in ("arg-q", "arg-qa"):
        first = _complete(llm, closed_book(question).messages(), ReplyCheck("answer", allowed_ids=frozenset()),
                          options, attempts, prompts)
        draft = answer_text(first.value)
    # the question with the model's draft: cut at the bound of a question, so that a long draft (the model's, not
    # the user's) is searched by its beginning rather than refused as if the user had asked too much
    query = question if options.mode != "arg-qa" else f"{question}\n{draft}"[:MAX_QUESTION_CHARS]
    references = build_references(store, retrieve(query), limits)
    prompt = render(question, references, options.prompt_style)
    if draft is not None:
        prompt = with_draft(prompt, draft)
    reply = _complete(llm, prompt.messages(), ReplyCheck("answer", allowed_ids=references.ids), options, attempts,
                      prompts)
    return finish(question, reply.value, references, as_of, options, model=llm.config.model, draft=draft,
                  attempts=tuple(attempts), prompts=tuple(prompts), embed=embed, cite=cite)


def _complete(llm: LLMClient, messages: list[dict[str, str]], check: ReplyCheck, options: AskOptions,
              attempts: list[Attempt], prompts: list[Messages]) -> ValidatedReply:
    """One guarded call; the attempts and prompts of every stage so far travel with a failure, for the log."""
    prompts.append(tuple(messages))
    try:
        reply = complete_json(llm, messages, check, max_repairs=options.max_repairs)
    except RetriesExhausted as error:
        raise RetriesExhausted(str(error), [*attempts, *error.attempts], prompts) from None
    attempts += reply.attempts
    return reply


def answer_text(value: Mapping[str, Any]) -> str:
    """The sentences and the conclusion of a validated reply, as one text (the closed-book draft)."""
    sentences = " ".join(str(s.get("text", "")) for s in value.get("sentences", []))
    return f"{sentences} {value.get('conclusion', {}).get('text', '')}".strip()


def finish(question: str, value: Mapping[str, Any], references: References, as_of: date, options: AskOptions, *,
           model: str, draft: str | None, attempts: tuple[Attempt, ...], prompts: tuple[Messages, ...] = (),
           embed: Embed | None = None, cite: Cite | None = None) -> Answer:
    """A validated reply made into an answer: every statement with its checked citations (or labelled as the
    model's own), attachment for uncited sentences, the in-force check of everything cited, and (with `cite`)
    every statute the statements name checked clause by clause (`check_mentions`)."""
    sentences = [AnswerSentence.from_reply(s) for s in value["sentences"]]
    if options.attachment == "citalaw":
        if embed is None:
            raise ValueError("the CitaLaw attachment compares embeddings: pass an embedder's embed_passages")
        sentences = attach_published(sentences, references, embed)
    else:
        sentences = attach_citations(sentences, references)
    conclusion = AnswerSentence.from_reply(value["conclusion"])
    model_caveats = [AnswerSentence.from_reply(c) for c in value.get("caveats", [])]
    if cite is not None:
        sentences, (conclusion,), model_caveats = (check_mentions(group, cite, as_of) for group in
                                                   (sentences, [conclusion], model_caveats))
    cited = cited_ids([*sentences, conclusion, *model_caveats])
    checks = [AnswerSentence(text, (), by="lexgraph")
              for text in (*in_force_caveats(cited, references, as_of), *unknown_caveats(references, as_of),
                           *stale_caveats(references))]
    return Answer(question=question, sentences=tuple(sentences), conclusion=conclusion,
                  caveats=(*model_caveats, *checks), references=references, mode=options.mode,
                  prompt_style=options.prompt_style, as_of=as_of, model=model, draft=draft, attempts=attempts,
                  prompts=prompts)


def check_mentions(statements: Sequence[AnswerSentence], cite: Cite, as_of: date) -> list[AnswerSentence]:
    """Each statement with the statutes it names, resolved on `as_of` by `cite` (`lexgraph cite`'s resolution):
    a reference id backs what the reference says, not a clause the sentence names besides, so a sentence saying
    「民法第九千条により…」 while citing 借地借家法 is checked against the store on its own. Mentions that only
    carry a law forward (a bare 同法) are not statements and are left out."""
    checked = []
    for statement in statements:
        mentions = tuple(AnswerMention(c.surface, c.status, c.reason or "", c.law_id or "", c.path or "")
                         for c in cite(statement.text, as_of) if c.kind == "statute")
        checked.append(replace(statement, mentions=mentions) if mentions else statement)
    return checked


def without_model(options: AskOptions) -> tuple[str, ...]:
    """The options that change nothing in an extractive answer, each said: a prompt style lays out references for
    a model and a mode decides what a model is asked, and without a model no prompt is written. An option taken
    and silently ignored reads as one that was applied."""
    notes = []
    if options.prompt_style != AskOptions.prompt_style:
        notes.append(f"--prompt {options.prompt_style}: no effect without a model (the extractive answer quotes the "
                     "references; no prompt is written)")
    if options.mode != AskOptions.mode:
        notes.append(f"--mode {options.mode}: no effect without a model (the extractive answer asks no model, "
                     "closed-book or otherwise)")
    return tuple(notes)
