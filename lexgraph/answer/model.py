"""What an answer is: statements (sentences, a conclusion, caveats), each with the reference ids that support it
or a label saying it is the model's own, and how the answer was made (mode, prompt style, model or none, the
attempts the guardrails saw).

Every statement is attributable or labelled. Its ``basis`` says which:

- ``cited``: the model cited references for it, and the guardrails checked that each is one it was given;
- ``attached``: the model cited nothing, and lexgraph attached the closest references after generation
  (CitaLaw's attachment: a suggestion, marked as such, not the model's claim of support);
- ``model``: it cites nothing: the model's own statement, shown as such, never as supported;
- ``lexgraph``: written by lexgraph itself (the in-force check, the extractive answer's framing), not by a model;
- ``flagged``: the model's statement names a clause that `lexgraph cite` cannot find in force on the day (no such
  clause, or not in force then): whatever it cites, it is not supported, and ``flags`` says why.

A citation id only says which reference the model points at; the clause a sentence names in its own words (「民法第
九千条により…」) is a second claim, which the reference does not back. Every statute mention of a model's statement
therefore goes through the resolution `cite` uses (``mentions``), and one the store contradicts flags the statement.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from lexgraph.answer.lead import Confidence
from lexgraph.answer.references import References
from lexgraph.llm.guardrails import Attempt, Messages

ANSWER_MODES = ("cgg", "arg-q", "arg-qa", "closebook")  # closebook: CitaLaw's CloseBook, the zero-shot baseline
EXTRACTIVE_LABEL = "extractive: no language model was used; these are the most relevant clauses and passages, quoted"
#: The answer JSON's format: 2 since conclusion and caveats are statements with citations (1: plain strings).
ANSWER_FORMAT = 2
BASES = ("cited", "attached", "model", "lexgraph", "flagged")
#: How the terminal labels a statement that cites nothing.
BASIS_LABELS = {"model": "モデル自身の判断・出典なし", "lexgraph": "lexgraph の確認"}
#: The statuses of `lexgraph cite` that say the named clause is not there on the day (no such clause, not in
#: force then, or a law name no catalogue knows): a statement naming one is flagged.
CONTRADICTED = frozenset({"unresolved"})


@dataclass(frozen=True)
class AnswerMention:
    """A statute a statement names in its own words, as `lexgraph cite` resolved it on the answer's day."""

    surface: str
    status: str  # resolved | unverified | ambiguous | unresolved (`lexgraph.citations.model.Status`)
    reason: str = ""
    law_id: str = ""
    path: str = ""

    @property
    def contradicted(self) -> bool:
        return self.status in CONTRADICTED

    def to_json(self) -> dict[str, Any]:
        return {"surface": self.surface, "status": self.status, "reason": self.reason or None,
                "law_id": self.law_id or None, "path": self.path or None}


@dataclass(frozen=True)
class AnswerSentence:
    """One statement of an answer: a sentence, the conclusion or a caveat."""

    text: str
    citations: tuple[str, ...]
    attached: tuple[str, ...] = ()  # citations added after generation (CitaLaw attachment), not by the model
    by: str = "model"  # who wrote it: "model" or "lexgraph"
    mentions: tuple[AnswerMention, ...] = ()  # the statutes it names, resolved as `cite` resolves them

    @property
    def flags(self) -> tuple[str, ...]:
        """Why the statement is not supported: each clause it names that the store says is not there that day."""
        return tuple(f"{m.surface}: {m.reason or m.status}" for m in self.mentions if m.contradicted)

    @property
    def basis(self) -> str:
        if self.flags:
            return "flagged"
        if self.citations:
            return "cited"
        if self.attached:
            return "attached"
        return "lexgraph" if self.by == "lexgraph" else "model"

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "citations": list(self.citations), "attached": list(self.attached),
                "basis": self.basis, "mentions": [m.to_json() for m in self.mentions], "flags": list(self.flags)}

    @classmethod
    def from_reply(cls, value: Mapping[str, Any]) -> AnswerSentence:
        """A statement of a validated model reply."""
        return cls(str(value["text"]), tuple(value["citations"]))


def cited_ids(statements: Iterable[AnswerSentence]) -> tuple[str, ...]:
    """Every reference id the statements cite or were given, in first-cited order."""
    return tuple(dict.fromkeys(cid for s in statements for cid in (*s.citations, *s.attached)))


@dataclass(frozen=True)
class Answer:
    question: str
    sentences: tuple[AnswerSentence, ...]
    conclusion: AnswerSentence
    caveats: tuple[AnswerSentence, ...]
    references: References
    mode: str
    prompt_style: str
    as_of: date
    model: str | None = None  # None: extractive
    draft: str | None = None  # the closed-book draft of arg-q / arg-qa
    attempts: tuple[Attempt, ...] = field(default=())
    prompts: tuple[Messages, ...] = field(default=())  # the messages of each stage (closed-book draft, answer)
    confidence: Confidence | None = None  # an extractive answer's: how sure its lead clause is (answer.lead)
    no_effect: tuple[str, ...] = ()  # options given that changed nothing (a prompt style without a model), each said

    @property
    def extractive(self) -> bool:
        return self.model is None

    @property
    def label(self) -> str:
        return EXTRACTIVE_LABEL if self.extractive else f"generated by {self.model} ({self.mode}, {self.prompt_style})"

    @property
    def statements(self) -> tuple[AnswerSentence, ...]:
        """Every statement: the sentences, the conclusion, the caveats."""
        return (*self.sentences, self.conclusion, *self.caveats)

    @property
    def cited_ids(self) -> tuple[str, ...]:
        return cited_ids(self.statements)

    @property
    def unsupported(self) -> tuple[AnswerSentence, ...]:
        """The model's statements that cite nothing (shown labelled as its own)."""
        return tuple(s for s in self.statements if s.basis == "model")

    @property
    def flagged(self) -> tuple[AnswerSentence, ...]:
        """The statements naming a clause the store says is not there on the day (`AnswerSentence.flags`)."""
        return tuple(s for s in self.statements if s.flags)

    def to_json(self) -> dict[str, Any]:
        cited = set(self.cited_ids)
        return {
            "format": ANSWER_FORMAT,
            "question": self.question, "label": self.label, "extractive": self.extractive, "model": self.model,
            "mode": self.mode, "prompt_style": self.prompt_style, "as_of": self.as_of.isoformat(),
            "sentences": [s.to_json() for s in self.sentences], "conclusion": self.conclusion.to_json(),
            "caveats": [c.to_json() for c in self.caveats], "draft": self.draft,
            "flagged": [s.text for s in self.flagged], "no_effect": list(self.no_effect),
            "confidence": self.confidence.to_json() if self.confidence else None,
            "references": [r.to_json() for r in self.references.items if r.id in cited],
            "attempts": [a.to_json() for a in self.attempts],
        }


def upgrade_answer_json(payload: Mapping[str, Any]) -> dict[str, Any]:
    """An answer's JSON (a turn log line's ``answer``, an ``Answer.body`` in the graph) in the current format.
    Format 1 (before every statement was attributable or labelled) wrote the conclusion and the caveats as plain
    strings, which cited nothing: they
    become statements of basis ``model``, or ``lexgraph`` for an extractive answer, which no model wrote (format 1
    does not say which caveats of a model's answer lexgraph added, so all are read as the model's); sentences
    gain their basis."""
    answer = dict(payload)
    if answer.get("format", 1) >= ANSWER_FORMAT:
        return answer
    by = "lexgraph" if answer.get("extractive") else "model"

    def statement(value: Any) -> dict[str, Any]:
        if isinstance(value, Mapping):
            return AnswerSentence(str(value.get("text", "")), tuple(value.get("citations", ())),
                                  tuple(value.get("attached", ())), by).to_json()
        return AnswerSentence(str(value), (), (), by).to_json()

    answer["sentences"] = [statement(s) for s in answer.get("sentences", [])]
    answer["conclusion"] = statement(answer.get("conclusion", ""))
    answer["caveats"] = [statement(c) for c in answer.get("caveats", [])]
    answer["format"] = ANSWER_FORMAT
    return answer
