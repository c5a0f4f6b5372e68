"""JSON guardrails: no malformed model output reaches the user.

Every reply is parsed as one JSON object and validated against a JSON Schema (Draft 2020-12, files in
``lexgraph/schemas``) and, for answers, against the references actually given: a citation id that is not among
them, in any statement (sentence, conclusion or caveat), is an error like any schema violation, so a hallucinated
citation is refused. On failure the model gets a
repair prompt quoting its output and the exact errors, at most ``max_repairs`` times (default 2); when the retries
run out, `RetriesExhausted` carries every attempt, so the turn log keeps everything.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

from lexgraph.errors import ConfigurationError, RetriesExhausted
from lexgraph.llm.client import ChatReply, LLMClient

DEFAULT_MAX_REPAIRS = 2
_FENCE = re.compile(r"^\s*```(?:json)?\s*\n(.*?)\n\s*```\s*$", re.DOTALL)
_QUOTE_LIMIT = 2000


@cache
def load_schema(name: str) -> dict[str, Any]:
    """A schema from ``lexgraph/schemas/<name>.schema.json``, itself checked against Draft 2020-12."""
    text = (resources.files("lexgraph") / "schemas" / f"{name}.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    from jsonschema import Draft202012Validator  # here: importing jsonschema costs 80 ms a CLI start

    Draft202012Validator.check_schema(schema)
    return schema


@cache
def _validator(name: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(name))


def parse_json_object(raw: str) -> tuple[dict[str, Any] | None, str | None]:
    """The reply as a JSON object, or the reason it is not one. A single ```json fence is tolerated (small models
    add one); anything else around the object is an error, so that the repair prompt can say so."""
    text = raw.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    if not text:
        return None, "the reply is empty; reply with one JSON object"
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        return None, f"the reply is not valid JSON: {err.msg} at line {err.lineno}, column {err.colno}"
    if not isinstance(value, dict):
        return None, f"the reply is JSON but not an object (it is a {type(value).__name__}); reply with one object"
    return value, None


def schema_errors(name: str, value: Any) -> list[str]:
    """Every way `value` breaks the schema `name`, each as ``<where>: <message>``, in path order."""
    validator = _validator(name)
    return [f"{_where(e.absolute_path)}: {e.message}"
            for e in sorted(validator.iter_errors(value), key=lambda e: list(map(str, e.absolute_path)))]


def _where(path: Sequence[Any]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(the whole reply)"


@dataclass(frozen=True)
class ReplyCheck:
    """A schema, and optionally the reference ids a reply may cite (in every statement's ``citations``)."""

    schema_name: str
    allowed_ids: frozenset[str] | None = None
    extra: Callable[[dict[str, Any]], list[str]] | None = None

    @property
    def schema(self) -> dict[str, Any]:
        return load_schema(self.schema_name)

    def errors(self, raw: str) -> tuple[dict[str, Any] | None, list[str]]:
        value, problem = parse_json_object(raw)
        if value is None:
            return None, [problem or "not a JSON object"]
        errors = schema_errors(self.schema_name, value)
        if not errors and self.allowed_ids is not None:
            errors += citation_errors(value, self.allowed_ids)
        if not errors and self.extra is not None:
            errors += self.extra(value)
        return (value if not errors else None), errors


def statements(value: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    """Every statement of an answer with where it stands: each sentence, the conclusion and each caveat. All carry
    citations, so that none can make a claim the check does not see."""
    found = [(f"sentences[{i}]", s) for i, s in enumerate(value.get("sentences", [])) if isinstance(s, Mapping)]
    if isinstance(value.get("conclusion"), Mapping):
        found.append(("conclusion", value["conclusion"]))
    found += [(f"caveats[{i}]", c) for i, c in enumerate(value.get("caveats", [])) if isinstance(c, Mapping)]
    return found


def citation_errors(value: Mapping[str, Any], allowed: Collection[str]) -> list[str]:
    """Every citation of every statement that is not among the references given."""
    given = ", ".join(sorted(allowed, key=_id_order)) or "none"
    return [f"{where}.citations[{j}]: {cid!r} is not one of the references given ({given})"
            for where, statement in statements(value)
            for j, cid in enumerate(statement.get("citations", [])) if cid not in allowed]


def _id_order(reference_id: str) -> tuple[str, int]:
    kind, _, number = reference_id.partition(" ")
    return kind, int(number) if number.isdigit() else 0


@dataclass(frozen=True)
class Attempt:
    """One call: what was sent last, what came back, what was wrong with it."""

    raw: str
    errors: tuple[str, ...]
    latency_s: float
    usage: Mapping[str, int] = field(default_factory=dict)
    structured: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"raw": self.raw, "errors": list(self.errors), "latency_s": round(self.latency_s, 3),
                "usage": dict(self.usage), "structured": self.structured}


Messages = tuple[dict[str, str], ...]


@dataclass(frozen=True)
class ValidatedReply:
    value: dict[str, Any]
    attempts: tuple[Attempt, ...]


REPAIR_PROMPT = (
    "Your previous reply could not be used.\n"
    "<previous_reply>\n{raw}\n</previous_reply>\n"
    "<errors>\n{errors}\n</errors>\n"
    "Reply again with one JSON object that fixes every error above and follows the schema. Cite only the "
    "reference ids given. No text outside the JSON."
)


def repair_message(raw: str, errors: Sequence[str]) -> str:
    quoted = raw if len(raw) <= _QUOTE_LIMIT else raw[:_QUOTE_LIMIT] + " …(cut)"
    return REPAIR_PROMPT.format(raw=quoted, errors="\n".join(f"- {e}" for e in errors))


def complete_json(llm: LLMClient, messages: Sequence[Mapping[str, str]], check: ReplyCheck, *,
                  max_repairs: int = DEFAULT_MAX_REPAIRS, temperature: float = 0.2,
                  max_tokens: int | None = None) -> ValidatedReply:
    """Ask until the reply passes `check`, repairing at most `max_repairs` times."""
    if max_repairs < 0:
        raise ConfigurationError("max_repairs must be >= 0")
    conversation = [dict(m) for m in messages]
    attempts: list[Attempt] = []
    for _ in range(max_repairs + 1):
        reply: ChatReply = llm.chat(conversation, schema=check.schema, schema_name=check.schema_name,
                                    temperature=temperature, max_tokens=max_tokens)
        value, errors = check.errors(reply.content)
        attempts.append(Attempt(reply.content, tuple(errors), reply.latency_s, reply.usage, reply.structured))
        if value is not None:
            return ValidatedReply(value, tuple(attempts))
        conversation += [{"role": "assistant", "content": reply.content},
                         {"role": "user", "content": repair_message(reply.content, errors)}]
    last = attempts[-1].errors
    raise RetriesExhausted(
        f"the model gave no valid {check.schema_name} after {len(attempts)} attempts "
        f"({max_repairs} repairs); last errors: {'; '.join(last[:3])}", attempts,
        (tuple(dict(m) for m in messages),))
