"""`Answering`: answers with a citation on every sentence, the contract-review knowledge interview and its stored
entries, and the turn log they all write to. It exists so that every use of a language model over the store, and
the log kept of each turn, has one home (the store is only read by a question)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexgraph.api.citing import Citing
from lexgraph.api.searching import Searching
from lexgraph.api.session import Session
from lexgraph.config import turn_log_file
from lexgraph.errors import ModelUnavailable, RetriesExhausted
from lexgraph.llm.client import NOT_CONFIGURED, LLMClient, configured_client
from lexgraph.llm.guardrails import DEFAULT_MAX_REPAIRS
from lexgraph.model import as_of_day
from lexgraph.retrieve.options import SearchOptions

if TYPE_CHECKING:
    from lexgraph.answer.answerer import AskOptions
    from lexgraph.answer.interview import Interview
    from lexgraph.answer.knowledge import KnowledgeEntry, StoredKnowledge
    from lexgraph.answer.model import Answer
    from lexgraph.answer.turnlog import Turn
    from lexgraph.citations import Citation
    from lexgraph.retrieve.retrievers import Retriever
    from lexgraph.retrieve.search import SearchResult

__all__ = ["Answering"]


class Answering:
    """Questions answered with citations, the knowledge interview, stored knowledge, the turn log."""

    def __init__(self, session: Session, searching: Searching, citing: Citing) -> None:
        self._session = session
        self._searching = searching
        self._citing = citing

    @staticmethod
    def turn_log_path() -> Path:
        """Where turns are logged (`config.turn_log_file`): ``LEXGRAPH_TURN_LOG``, else the user's data folder;
        never the store, which a question only reads."""
        return turn_log_file()

    def ask(self, question: str, *, options: AskOptions | None = None, as_of: date | None = None,
            laws: Sequence[str] = (), search: SearchOptions | None = None, llm: LLMClient | None = None,
            use_model: bool = True, log: Path | None = None,
            retriever: Retriever | None = None) -> Answer:
        """Answer with citations on every sentence, as the law stood on `as_of` (None: today): from the model
        configured in the environment (or `llm`), or extractively when there is none (or `use_model` is False).
        Every turn goes to the turn log (`log`, else `turn_log_path`), never into the store, which asking only
        reads; a failure is logged before it is raised (`RetriesExhausted`, `ModelUnavailable`; a search raises
        `IndexUnavailable`). Pass a `retriever` to reuse one across questions."""
        from lexgraph.answer.answerer import AskOptions
        from lexgraph.answer.answerer import ask as ask_question
        from lexgraph.answer.turnlog import Turn
        from lexgraph.answer.turnlog import now as turn_now

        self._searching.check_question(question)  # before a model or the index is read
        options = options or AskOptions()
        day = as_of_day(as_of)
        model = llm if llm is not None else (configured_client() if use_model else None)
        search = search or SearchOptions()
        retriever = retriever or self._searching.retriever(llm=model, options=search)

        def retrieve(text: str) -> SearchResult:
            return self._searching.search(text, as_of=day, laws=laws, options=search, retriever=retriever)

        started = time.perf_counter()
        asked_at = turn_now()
        answer: Answer | None = None
        try:
            embed = self._session.default_embedder().embed_passages if options.attachment == "citalaw" else None
            citers: dict[date, Callable[[str], list[Citation]]] = {}  # what `cite` reads, once per answer

            def cite(text: str, on: date) -> list[Citation]:
                if on not in citers:
                    citers[on] = self._citing.citer(on, precedents=False)
                return citers[on](text)

            answer = ask_question(self._session.store, question, retrieve, model, day, options, embed=embed,
                                  cite=cite)
        except (RetriesExhausted, ModelUnavailable) as error:
            self._log_turn(Turn(question, day, options.mode, options.prompt_style,
                                model.config.model if model else None, asked_at, time.perf_counter() - started,
                                error=str(error), attempts=getattr(error, "attempts", ()),
                                prompts=getattr(error, "prompts", ())), log)
            if isinstance(error, RetriesExhausted):
                raise RetriesExhausted(f"{error}. Every reply and its errors are in the turn log "
                                       f"{log or self.turn_log_path()}; try again, raise max_repairs "
                                       "(--max-repairs), or use a stronger model", error.attempts,
                                       error.prompts) from error
            raise
        self._log_turn(Turn(question, day, options.mode, options.prompt_style, answer.model, asked_at,
                            time.perf_counter() - started, answer=answer), log)
        return answer

    @staticmethod
    def require_model(purpose: str) -> None:
        """Raise `ModelUnavailable` naming `purpose` when no model is configured: a command that cannot run
        without one says so before it opens a store or asks anything."""
        if configured_client() is None:
            raise ModelUnavailable(f"{purpose} needs a model; {NOT_CONFIGURED}")

    def interview(self, *, topic: str | None = None, llm: LLMClient | None = None,
                  max_repairs: int = DEFAULT_MAX_REPAIRS, log: Path | None = None) -> Interview:
        """A contract-review knowledge interview with `llm` or the configured model, every turn (valid or failed)
        appended to the turn log (`log`, else `turn_log_path`) with mode ``interview``. Raises `ModelUnavailable`
        without a model."""
        from lexgraph.answer.interview import Interview
        from lexgraph.answer.turnlog import append_jsonl

        if llm is None:
            self.require_model("the knowledge interview")
        model = llm if llm is not None else configured_client()
        assert model is not None
        target = log or self.turn_log_path()
        return Interview(model, topic=topic, max_repairs=max_repairs, log=lambda turn: append_jsonl(target, turn))

    def save_knowledge(self, knowledge: dict[str, Any], *, day: date | None = None,
                       transcript: str = "") -> list[StoredKnowledge]:
        """Finished interview entries as (:Knowledge), linked to the clauses their legal basis names as of `day`
        (None: today); returns each entry with the clauses it was linked to and the bases left unresolved."""
        from lexgraph.answer.knowledge import clause_resolver, store_knowledge

        resolve = clause_resolver(self._session.store, self._citing.statute_citations)
        return store_knowledge(self._session.store, knowledge, resolve, day=as_of_day(day), interview_log=transcript)

    def knowledge(self, uid: str | None = None) -> list[KnowledgeEntry]:
        """The stored contract-review knowledge (or the entry `uid` names), oldest first, each in the entry shape
        1.0 whatever version recorded it, with the clauses it is linked to."""
        from lexgraph.answer.knowledge import read_knowledge

        return read_knowledge(self._session.store, uid)

    def _log_turn(self, turn: Turn, log: Path | None) -> None:
        from lexgraph.answer.turnlog import append_jsonl

        append_jsonl(log or self.turn_log_path(), turn)
