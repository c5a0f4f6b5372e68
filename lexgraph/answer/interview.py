"""The contract-review knowledge interview of the JSON-response design (../shared/seeds/003), schema 1.0.

Each model turn is one JSON object (``interview_turn`` schema, the document's 1.0 as written): ``control``
(``schema_version`` "1.0" and the ``mode`` — interview, clarify, finalize), ``state`` (the ``phase`` — collect_case,
organize_risks, draft_knowledge, review_knowledge — and the ``missing_info`` still to ask for),
``assistant_message`` (the only part the user sees) and ``knowledge_json`` (null while the case is collected and
the risks organised; the draft, then the final entry, from draft_knowledge on). The interview is finished when the
model reviews the knowledge in mode finalize with nothing missing; the entry must then be a whole
``knowledge_entry`` (answer/knowledge.py). Every turn passes the guardrails: a reply that breaks the schema or
these rules is repaired or refused, never shown. Every turn, valid or failed, goes to the turn log (mode
``interview``, `turnlog.INTERVIEW_MODE`) with its attempts. The finished entry is stored as ``(:Knowledge)``
linked to the clauses its legal basis names, in the wording in force on the day it was recorded.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from lexgraph.answer.knowledge import KNOWLEDGE_SCHEMA
from lexgraph.answer.prompts import fill, template
from lexgraph.answer.turnlog import INTERVIEW_MODE, Turn, now
from lexgraph.errors import InputError, ModelUnavailable, RetriesExhausted
from lexgraph.llm.client import LLMClient
from lexgraph.llm.guardrails import DEFAULT_MAX_REPAIRS, Attempt, ReplyCheck, complete_json, schema_errors
from lexgraph.model import as_of_day

MAX_TURNS = 20
#: The template of the interviewer's instructions; it stands as the turn's prompt style in the log.
SYSTEM_TEMPLATE = "interview_system"
#: Where a turn goes once the model has replied (or failed): the turn log's writer, e.g. `turnlog.append_jsonl`.
LogTurn = Callable[[Turn], None]
#: The phases before any knowledge is drafted: knowledge_json is null in them.
COLLECTING = ("collect_case", "organize_risks")


def finished(value: dict[str, Any]) -> bool:
    """The model reviews the knowledge in mode finalize and has nothing left to ask: the interview is over."""
    return (value["control"]["mode"] == "finalize" and value["state"]["phase"] == "review_knowledge"
            and not value["state"]["missing_info"])


def _phase_rules(value: dict[str, Any]) -> list[str]:
    phase = value["state"]["phase"]
    knowledge = value["knowledge_json"]
    if phase in COLLECTING and knowledge is not None:
        return [f"knowledge_json: must be null while the phase is {phase}; draft the knowledge from draft_knowledge on"]
    if phase not in COLLECTING and knowledge is None:
        return [f"knowledge_json: the phase is {phase}, so knowledge_json must hold the draft (or final) entry"]
    if finished(value):  # the final entry must be whole; a draft may still be partial
        return [f"knowledge_json: {e.removeprefix('(the whole reply): ')}" if e.startswith("(the whole reply)")
                else f"knowledge_json.{e}" for e in schema_errors(KNOWLEDGE_SCHEMA, knowledge)]
    return []


TURN_CHECK = ReplyCheck("interview_turn", extra=_phase_rules)


@dataclass(frozen=True)
class InterviewTurn:
    mode: str
    phase: str
    missing_info: tuple[str, ...]
    assistant_message: str
    knowledge: dict[str, Any] | None
    attempts: tuple[Attempt, ...]
    done: bool


@dataclass
class Interview:
    """The conversation so far; `start` and `reply` each return the model's next (validated) turn."""

    llm: LLMClient
    topic: str | None = None
    max_repairs: int = DEFAULT_MAX_REPAIRS
    log: LogTurn | None = None
    turns: list[InterviewTurn] = field(default_factory=list)
    messages: list[dict[str, str]] = field(default_factory=list)

    def start(self) -> InterviewTurn:
        note = f"- 今回の聞き取りのテーマ：{self.topic}" if self.topic else ""
        self.messages = [{"role": "system", "content": fill(template(SYSTEM_TEMPLATE), {"topic_note": note})},
                         {"role": "user", "content": "聞き取りを始めてください。"}]
        return self._next()

    def reply(self, text: str) -> InterviewTurn:
        if not self.turns:
            raise InputError("start the interview first")
        if self.turns[-1].done:
            raise InputError("the interview is completed")
        if len(self.turns) >= MAX_TURNS:
            raise InputError(f"the interview stopped after {MAX_TURNS} turns without completing")
        self.messages.append({"role": "user", "content": text})
        return self._next()

    def _next(self) -> InterviewTurn:
        said, sent = self.messages[-1]["content"], [dict(m) for m in self.messages]
        started, asked_at = time.perf_counter(), now()
        try:
            validated = complete_json(self.llm, self.messages, TURN_CHECK, max_repairs=self.max_repairs)
        except (RetriesExhausted, ModelUnavailable) as error:
            self._log(Turn(said, as_of_day(None), INTERVIEW_MODE, SYSTEM_TEMPLATE, self.llm.config.model, asked_at,
                           time.perf_counter() - started, error=str(error), attempts=getattr(error, "attempts", ()),
                           prompts=(sent,)))
            raise
        value = validated.value
        self._log(Turn(said, as_of_day(None), INTERVIEW_MODE, SYSTEM_TEMPLATE, self.llm.config.model, asked_at,
                       time.perf_counter() - started, attempts=validated.attempts, prompts=(sent,),
                       interview=value))
        # The history holds the valid turn only, as the model should have written it.
        self.messages.append({"role": "assistant", "content": json.dumps(value, ensure_ascii=False)})
        turn = InterviewTurn(value["control"]["mode"], value["state"]["phase"], tuple(value["state"]["missing_info"]),
                             value["assistant_message"], value["knowledge_json"], validated.attempts, finished(value))
        self.turns.append(turn)
        return turn

    def _log(self, turn: Turn) -> None:
        if self.log is not None:
            self.log(turn)
