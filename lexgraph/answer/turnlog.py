"""Every turn is kept: a JSONL line with the prompt, the raw replies, the validation errors, the retries, latency
and token usage, and the answer with the uid of every reference it cites, so that an answer can be audited against
the clauses and precedents it relied on. The log is a file of the user's (`config.turn_log_file`), never the store:
asking is reading, and a read writes nothing to the store. (Stores written before keep the ``(:Question)`` and
``(:Answer)`` nodes earlier versions recorded; nothing writes new ones.) The file is bounded: past
`MAX_LOG_BYTES` (``LEXGRAPH_TURN_LOG_MAX_MB``) it is moved to ``<name>.1`` (replacing the one before) and a new one
begun, so that it never holds more than twice that.

A turn that failed (retries exhausted, endpoint down) is logged too, with the error: the log is where one finds out
what the model said when the user got an error.

Each line carries ``schema_version`` (`TURN_SCHEMA_VERSION`) and ``mode``: what kind of turn it was, an answer's
generation mode (`ANSWER_MODES`) or ``interview`` (`INTERVIEW_MODE`) for a turn of the contract-review knowledge
interview, whose control, state, message and knowledge are kept in ``interview``. The shape of a line is the
``turn_log`` schema (``lexgraph/schemas/turn_log.schema.json``). Logs outlive the code that wrote them, so
`read_turns` reads every version through an adapter per version (`ADAPTERS`), each lifting a line one version up,
then checks it against the schema: a reader only ever sees the current shape. Changes are additive: a new field
gets a default in the adapter from the version before.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from lexgraph.answer.model import ANSWER_MODES, Answer, upgrade_answer_json
from lexgraph.documents.jsonl import read_records
from lexgraph.errors import ConfigurationError, InputError
from lexgraph.llm.guardrails import Attempt

#: The version of a turn log line: 1 had no ``schema_version`` (nor ``structured`` on its attempts); 2 adds them;
#: 3 writes the answer's conclusion and caveats as statements with citations and a basis (answer format 2); 4 logs
#: the knowledge interview's turns too (mode ``interview``, their content in ``interview``; null on answer turns);
#: 5 writes an interview turn in the design document's schema 1.0 (control, state, message, knowledge_json).
TURN_SCHEMA_VERSION = 5
#: The mode of a knowledge interview's turn; an answer's turn has one of `ANSWER_MODES`.
INTERVIEW_MODE = "interview"
#: Every ``mode`` a turn log line may have (the ``turn_log`` schema's enum; a test keeps the two equal).
TURN_MODES = (*ANSWER_MODES, INTERVIEW_MODE)
_TARGET_LABEL = {"law": "Provision", "precedent": "Precedent", "book": "Chunk", "guideline": "Chunk"}


@dataclass(frozen=True)
class Turn:
    """One question and its outcome: an answer, or the error the user saw (with the attempts that led to it)."""

    question: str
    as_of: date
    mode: str
    prompt_style: str
    model: str | None
    asked_at: str
    seconds: float
    answer: Answer | None = None
    error: str | None = None
    attempts: tuple[Attempt, ...] = ()  # of a failed turn or an interview turn; an answer carries its own
    prompts: Sequence[Sequence[Mapping[str, str]]] = ()  # likewise
    interview: Mapping[str, Any] | None = None  # an interview turn as the model wrote it (interview_turn 1.0)

    @property
    def uid(self) -> str:
        digest = hashlib.sha256(f"{self.asked_at}\x00{self.question}\x00{self.mode}".encode()).hexdigest()[:16]
        return f"q:{self.asked_at}:{digest}"

    @property
    def all_attempts(self) -> tuple[Attempt, ...]:
        """The model calls of the turn: an answer's own, or those that led to the error."""
        return self.answer.attempts if self.answer is not None else self.attempts

    @property
    def status(self) -> str:
        if self.interview is not None:
            return "answered"
        if self.answer is None:
            return "failed"
        return "extractive" if self.answer.extractive else "answered"

    def to_json(self) -> dict[str, Any]:
        attempts = self.all_attempts
        usage: dict[str, int] = {}
        for attempt in attempts:
            for key, value in attempt.usage.items():
                usage[key] = usage.get(key, 0) + int(value)
        return {
            "schema_version": TURN_SCHEMA_VERSION, "uid": self.uid, "asked_at": self.asked_at,
            "question": self.question, "as_of": self.as_of.isoformat(),
            "mode": self.mode, "prompt_style": self.prompt_style, "model": self.model, "status": self.status,
            "seconds": round(self.seconds, 3),
            "prompts": [[dict(m) for m in messages]
                        for messages in (self.answer.prompts if self.answer is not None else self.prompts)],
            "attempts": [a.to_json() for a in attempts], "retries": max(0, len(attempts) - 1), "usage": usage,
            "error": self.error, "answer": self.answer.to_json() if self.answer is not None else None,
            "interview": dict(self.interview) if self.interview is not None else None,
        }


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


#: A turn log is moved aside past this size (bytes); ``LEXGRAPH_TURN_LOG_MAX_MB`` sets it in megabytes.
MAX_LOG_BYTES = 64 * 1024 * 1024


def max_log_bytes() -> int:
    """The size past which a turn log is moved aside: ``LEXGRAPH_TURN_LOG_MAX_MB`` (a positive number), else
    `MAX_LOG_BYTES`. Raises `ConfigurationError` for a value that is not one."""
    raw = os.environ.get("LEXGRAPH_TURN_LOG_MAX_MB")
    if not raw:
        return MAX_LOG_BYTES
    try:
        megabytes = float(raw)
    except ValueError:
        megabytes = -1.0
    if not megabytes > 0:
        raise ConfigurationError(f"LEXGRAPH_TURN_LOG_MAX_MB must be a positive number of megabytes, not {raw!r}")
    return max(1, int(megabytes * 1024 * 1024))


def append_jsonl(path: str | os.PathLike[str], turn: Turn) -> None:
    """One line per turn, appended and flushed, so that a crash loses at most the turn in flight. A log already
    past `max_log_bytes` is first moved to ``<name>.1`` (replacing the one before): the log is bounded, and the
    turns just before the move are still there to read."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        full = target.is_file() and target.stat().st_size >= max_log_bytes()
    except OSError:
        full = False
    if full:
        os.replace(target, target.with_name(target.name + ".1"))
    with open(target, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(turn.to_json(), ensure_ascii=False, default=str) + "\n")
        handle.flush()


def _from_v1(line: dict[str, Any]) -> dict[str, Any]:
    """Version 1 → 2: the version itself, ``mode`` where a very early line lacked it (they were all ``cgg``), and
    ``structured`` on each attempt (unknown then: None)."""
    attempts = [{"structured": None, **attempt} for attempt in line.get("attempts", [])]
    return {**line, "schema_version": 2, "mode": line.get("mode") or "cgg", "attempts": attempts}


def _from_v2(line: dict[str, Any]) -> dict[str, Any]:
    """Version 2 → 3: the answer in format 2 (`model.upgrade_answer_json`): its conclusion and caveats, plain
    strings that cited nothing, become statements of basis ``model`` (``lexgraph`` for an extractive answer)."""
    answer = line.get("answer")
    return {**line, "schema_version": 3,
            "answer": upgrade_answer_json(answer) if isinstance(answer, dict) else answer}


def _from_v3(line: dict[str, Any]) -> dict[str, Any]:
    """Version 3 → 4: ``interview`` (null: the knowledge interview was not logged before 4, so every older line is
    an answer's turn)."""
    return {**line, "schema_version": 4, "interview": None}


_MODE_OF_PHASE_0 = {"hearing": ("interview", "collect_case"), "confirming": ("clarify", "draft_knowledge"),
                    "completed": ("finalize", "review_knowledge")}


def upgrade_interview_turn(turn: Mapping[str, Any]) -> dict[str, Any]:
    """An interview turn of lexgraph's format 0 (control: phase hearing / confirming / completed and missing_info;
    state: contract_type, clause, issue, position, rationale; knowledge_json: {"entries": [...]}) in the design
    document's 1.0: the phase gives the mode and the 1.0 phase, missing_info moves to state, the one entry becomes
    knowledge_json (answer.knowledge.upgrade_entry), and what 1.0 has no place for is kept in upgraded_from."""
    from lexgraph.answer.knowledge import upgrade_entry

    # A phase format 0 did not have stays as it was, for the turn_log schema to name.
    old_phase = str(turn.get("phase"))
    mode, phase = _MODE_OF_PHASE_0.get(old_phase, ("interview", old_phase))
    knowledge = turn.get("knowledge_json")
    entries = knowledge.get("entries", []) if isinstance(knowledge, Mapping) else []
    return {"control": {"schema_version": "1.0", "mode": mode},
            "state": {"phase": phase, "missing_info": list(turn.get("missing_info", []))},
            "assistant_message": turn.get("assistant_message"),
            "knowledge_json": upgrade_entry(entries[0]) if entries else None,
            "upgraded_from": {"format": 0, "state": turn.get("state"), "entries": entries[1:]}}


def _from_v4(line: dict[str, Any]) -> dict[str, Any]:
    """Version 4 → 5: an interview turn in the design document's schema 1.0 (`upgrade_interview_turn`)."""
    interview = line.get("interview")
    return {**line, "schema_version": 5,
            "interview": upgrade_interview_turn(interview) if isinstance(interview, dict) else interview}


#: version → the adapter that lifts a line of that version to the next.
ADAPTERS = {1: _from_v1, 2: _from_v2, 3: _from_v3, 4: _from_v4}


def upgrade_turn(line: dict[str, Any]) -> dict[str, Any]:
    """A logged turn in the current shape, whatever version wrote it. Raises `InputError` for a version newer than
    this code reads (upgrade lexgraph) or one it does not know."""
    version = line.get("schema_version", 1)
    if not isinstance(version, int) or version > TURN_SCHEMA_VERSION or version < 1:
        raise InputError(f"schema_version {version!r} is not one this lexgraph reads (1 to {TURN_SCHEMA_VERSION}); "
                         f"read the log with the lexgraph that wrote it, or upgrade")
    while version < TURN_SCHEMA_VERSION:
        line = ADAPTERS[version](line)
        version = line["schema_version"]
    _check_turn(line)
    return line


def _check_turn(line: dict[str, Any]) -> None:
    """The line against the ``turn_log`` schema; ValueError naming the field and what it holds."""
    from lexgraph.llm.guardrails import schema_errors

    errors = schema_errors("turn_log", line)
    if errors:
        raise InputError(f"not a turn of this lexgraph ({'; '.join(errors[:3])})")


def read_turns(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Every turn of a JSONL turn log, in the current shape (`upgrade_turn`). Raises `InputError` naming the
    file and line of one that is not JSON or not a turn."""
    turns = []
    try:
        for number, line in read_records(Path(path)):  # the project's one JSONL reader: FILE:LINE in every error
            try:
                if "question" not in line:
                    raise InputError("not a turn (no question)")
                turns.append(upgrade_turn(line))
            except ValueError as error:
                raise InputError(f"{path}:{number}: {error}") from None
    except ValueError as error:
        if isinstance(error, InputError):
            raise
        raise InputError(str(error)) from None
    return turns
