"""The contract-review knowledge interview of the JSON-response design.

Each model turn is one JSON object (``interview_turn`` schema): ``control`` (the phase — hearing, confirming,
completed — and the ``missing_info`` still to ask for), ``state`` (everything learnt so far), ``assistant_message``
(the only part the user sees) and ``knowledge_json`` (the finished entries, exactly when the phase is completed).
Every turn passes the guardrails: a reply that breaks the schema, or completes without knowledge, is repaired or
refused, never shown. Every turn, valid or failed, goes to the turn log (mode ``interview``,
`turnlog.INTERVIEW_MODE`) with its attempts, so the log shows what the model said even where the user saw an error.
Finished entries are stored as ``(:Knowledge)`` linked to the clauses their legal basis names, in the wording in
force on the day they were recorded.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from lexgraph.answer.prompts import fill, template
from lexgraph.answer.turnlog import INTERVIEW_MODE, Turn, now
from lexgraph.citations.model import Citation
from lexgraph.llm.client import LLMClient, LLMUnavailable
from lexgraph.llm.guardrails import DEFAULT_MAX_REPAIRS, Attempt, ReplyCheck, RetriesExhausted, complete_json
from lexgraph.model import as_of_day
from lexgraph.store.base import GraphStore
from lexgraph.store.names import titled_name

MAX_TURNS = 20
#: The template of the interviewer's instructions; it stands as the turn's prompt style in the log.
SYSTEM_TEMPLATE = "interview_system"
#: Where a turn goes once the model has replied (or failed): the turn log's writer, e.g. `turnlog.append_jsonl`.
LogTurn = Callable[[Turn], None]


def _phase_rules(value: dict[str, Any]) -> list[str]:
    phase = value["control"]["phase"]
    knowledge = value["knowledge_json"]
    if phase == "completed" and knowledge is None:
        return ["knowledge_json: the phase is completed, so knowledge_json must hold the entries"]
    if phase != "completed" and knowledge is not None:
        return [f"knowledge_json: must be null while the phase is {phase}; give the entries when completed"]
    return []


TURN_CHECK = ReplyCheck("interview_turn", extra=_phase_rules)


@dataclass(frozen=True)
class InterviewTurn:
    phase: str
    missing_info: tuple[str, ...]
    state: dict[str, Any]
    assistant_message: str
    knowledge: dict[str, Any] | None
    attempts: tuple[Attempt, ...]

    @property
    def done(self) -> bool:
        return self.phase == "completed"


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
            raise RuntimeError("start the interview first")
        if self.turns[-1].done:
            raise RuntimeError("the interview is completed")
        if len(self.turns) >= MAX_TURNS:
            raise RuntimeError(f"the interview stopped after {MAX_TURNS} turns without completing")
        self.messages.append({"role": "user", "content": text})
        return self._next()

    def _next(self) -> InterviewTurn:
        said, sent = self.messages[-1]["content"], [dict(m) for m in self.messages]
        started, asked_at = time.perf_counter(), now()
        try:
            validated = complete_json(self.llm, self.messages, TURN_CHECK, max_repairs=self.max_repairs)
        except (RetriesExhausted, LLMUnavailable) as error:
            self._log(Turn(said, as_of_day(None), INTERVIEW_MODE, SYSTEM_TEMPLATE, self.llm.config.model, asked_at,
                           time.perf_counter() - started, error=str(error), attempts=getattr(error, "attempts", ()),
                           prompts=(sent,)))
            raise
        value = validated.value
        self._log(Turn(said, as_of_day(None), INTERVIEW_MODE, SYSTEM_TEMPLATE, self.llm.config.model, asked_at,
                       time.perf_counter() - started, attempts=validated.attempts, prompts=(sent,),
                       interview={"phase": value["control"]["phase"],
                                  "missing_info": list(value["control"]["missing_info"]), "state": value["state"],
                                  "assistant_message": value["assistant_message"],
                                  "knowledge_json": value["knowledge_json"]}))
        # The history holds the valid turn only, as the model should have written it.
        self.messages.append({"role": "assistant", "content": json.dumps(value, ensure_ascii=False)})
        turn = InterviewTurn(value["control"]["phase"], tuple(value["control"]["missing_info"]), value["state"],
                             value["assistant_message"], value["knowledge_json"], validated.attempts)
        self.turns.append(turn)
        return turn

    def _log(self, turn: Turn) -> None:
        if self.log is not None:
            self.log(turn)


@dataclass(frozen=True)
class StoredKnowledge:
    uid: str
    title: str
    linked: tuple[tuple[str, str], ...]  # (legal basis as written, provision uid)
    unresolved: tuple[str, ...]  # legal bases that name no stored clause

    def to_json(self) -> dict[str, Any]:
        return {"uid": self.uid, "title": self.title,
                "linked": [{"basis": basis, "provision": uid} for basis, uid in self.linked],
                "unresolved": list(self.unresolved)}


#: Resolves a legal basis (民法第四百十五条) to the stored clause uid in force on a day, or None.
ResolveClause = Callable[[str, date], str | None]


def clause_resolver(store: GraphStore, cite: Callable[[str, date], Sequence[Citation]]) -> ResolveClause:
    def resolve(text: str, day: date) -> str | None:
        for citation in cite(text, day):
            if citation.kind == "statute" and citation.law_id and citation.path:
                rows = store.query("provision_as_of", law_id=citation.law_id, path=citation.path, day=day)
                if rows:
                    return str(rows[0]["uid"])
        return None

    return resolve


def store_knowledge(store: GraphStore, knowledge: dict[str, Any], resolve: ResolveClause, *, day: date,
                    interview_log: str = "") -> list[StoredKnowledge]:
    """The completed entries as (:Knowledge) nodes with CITES to the clauses of their legal basis; idempotent."""
    stored = []
    with store.transaction() as tx:
        for entry in knowledge["entries"]:
            digest = hashlib.sha256(f"{entry['title']}\x00{entry['issue']}".encode()).hexdigest()[:16]
            uid = f"k:{digest}"
            linked, unresolved = [], []
            for basis in entry["legal_basis"]:
                provision = resolve(basis, day)
                (linked.append((basis, provision)) if provision else unresolved.append(basis))
            tx.upsert_nodes("Knowledge", [{
                "uid": uid, "name": titled_name(entry["title"], uid), "title": entry["title"],
                "contract_type": entry["contract_type"],
                "issue": entry["issue"], "recommendation": entry["recommendation"],
                "legal_basis": list(entry["legal_basis"]), "created_at": now(), "interview": interview_log}])
            if linked:
                tx.upsert_relationships("CITES", [{"from": uid, "to": p, "surface": basis, "extractor": "interview",
                                                   "status": "resolved"} for basis, p in linked],
                                        from_label="Knowledge", to_label="Provision")
            stored.append(StoredKnowledge(uid, entry["title"], tuple(linked), tuple(unresolved)))
    return stored
