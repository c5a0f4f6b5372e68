"""The LLM behind any OpenAI-compatible endpoint, through the official ``openai`` client.

Configuration comes from the environment: ``OPENAI_BASE_URL``, ``OPENAI_API_KEY`` and ``LEXGRAPH_LLM_MODEL``
(``LEXGRAPH_LLM_TIMEOUT`` seconds, ``LEXGRAPH_LLM_RETRIES``). No model is configured unless ``LEXGRAPH_LLM_MODEL`` is
set, so a machine with an OpenAI key for other tools does not start paying for lexgraph's questions.

Timeouts are bounded, and transient failures (429, 5xx, connection errors, timeouts) are retried with exponential
backoff by the client (``max_retries``); what still fails becomes `ModelUnavailable` (exit code 3 in the CLI), with
the endpoint and the fix in the message. Structured output (``response_format`` with a JSON schema) is asked for
when `chat` is given a schema; a server that refuses the parameter is asked again without it, and the reply is
then validated by the guardrails like any other.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lexgraph.errors import LLMTimeout, ModelUnavailable

DEFAULT_TIMEOUT = 60.0
DEFAULT_RETRIES = 2
DEFAULT_MAX_TOKENS = 1024

NOT_CONFIGURED = ("no language model is configured: set LEXGRAPH_LLM_MODEL (and OPENAI_BASE_URL, OPENAI_API_KEY "
                  "for your endpoint, e.g. a local llama.cpp or vLLM server)")


@dataclass(frozen=True)
class LLMConfig:
    model: str
    base_url: str | None = None
    api_key: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    max_retries: int = DEFAULT_RETRIES
    structured_output: bool = True
    max_tokens: int = DEFAULT_MAX_TOKENS

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> LLMConfig | None:
        """The configured model, or None when ``LEXGRAPH_LLM_MODEL`` is unset."""
        env = os.environ if environ is None else environ
        model = env.get("LEXGRAPH_LLM_MODEL", "").strip()
        if not model:
            return None
        try:
            timeout = float(env.get("LEXGRAPH_LLM_TIMEOUT") or DEFAULT_TIMEOUT)
            retries = int(env.get("LEXGRAPH_LLM_RETRIES") or DEFAULT_RETRIES)
            max_tokens = int(env.get("LEXGRAPH_LLM_MAX_TOKENS") or DEFAULT_MAX_TOKENS)
        except ValueError as err:
            raise ModelUnavailable("LEXGRAPH_LLM_TIMEOUT, LEXGRAPH_LLM_RETRIES and LEXGRAPH_LLM_MAX_TOKENS must be "
                                   f"numbers ({err})") from None
        structured = env.get("LEXGRAPH_LLM_STRUCTURED", "1").strip().lower() not in ("0", "false", "no", "off")
        return cls(model=model, base_url=env.get("OPENAI_BASE_URL") or None,
                   api_key=env.get("OPENAI_API_KEY") or None, timeout=timeout, max_retries=retries,
                   structured_output=structured, max_tokens=max_tokens)

    @property
    def endpoint(self) -> str:
        return self.base_url or "https://api.openai.com/v1"


@dataclass(frozen=True)
class ChatReply:
    """The model's text, and what the turn log keeps about the call."""

    content: str
    latency_s: float
    usage: Mapping[str, int] = field(default_factory=dict)
    structured: bool = False  # whether the server accepted response_format for this call


class LLMClient:
    """Chat completions with bounded time and retries."""

    def __init__(self, config: LLMConfig) -> None:
        from openai import OpenAI

        self.config = config
        # Local servers need no key, but the client insists on one.
        self._client = OpenAI(base_url=config.base_url, api_key=config.api_key or "not-needed",
                              timeout=config.timeout, max_retries=config.max_retries)
        self._structured_refused = False

    def chat(self, messages: Sequence[Mapping[str, str]], *, schema: Mapping[str, Any] | None = None,
             schema_name: str = "reply", temperature: float = 0.2, max_tokens: int | None = None) -> ChatReply:
        """One completion. With `schema`, structured output is asked for where the server supports it."""
        import openai

        kwargs: dict[str, Any] = {"model": self.config.model, "messages": [dict(m) for m in messages],
                                  "temperature": temperature, "max_tokens": max_tokens or self.config.max_tokens}
        structured = schema is not None and self.config.structured_output and not self._structured_refused
        if structured:
            kwargs["response_format"] = {"type": "json_schema",
                                         "json_schema": {"name": schema_name, "schema": dict(schema or {})}}
        started = time.perf_counter()
        try:
            try:
                response = self._client.chat.completions.create(**kwargs)
            except openai.BadRequestError:
                if not structured:
                    raise
                # The server does not know response_format: ask again without it; the guardrails validate anyway.
                self._structured_refused = True
                structured = False
                kwargs.pop("response_format")
                response = self._client.chat.completions.create(**kwargs)
        except openai.APITimeoutError:
            raise LLMTimeout(f"the model endpoint {self.config.endpoint} did not answer within "
                                 f"{self.config.timeout:g} s (after {self.config.max_retries} retries); raise "
                                 "LEXGRAPH_LLM_TIMEOUT or check the server") from None
        except openai.APIConnectionError as err:
            raise ModelUnavailable(f"the model endpoint {self.config.endpoint} cannot be reached ({err}); check "
                                   "OPENAI_BASE_URL and that the server is running") from None
        except openai.APIStatusError as err:
            raise ModelUnavailable(f"the model endpoint {self.config.endpoint} answered HTTP {err.status_code} "
                                   f"after {self.config.max_retries} retries: {str(err)[:300]}") from None
        latency = time.perf_counter() - started
        if not response.choices:
            raise ModelUnavailable(f"the model endpoint {self.config.endpoint} returned no choices")
        usage = response.usage
        counts = {} if usage is None else {"prompt_tokens": usage.prompt_tokens or 0,
                                           "completion_tokens": usage.completion_tokens or 0,
                                           "total_tokens": usage.total_tokens or 0}
        return ChatReply(response.choices[0].message.content or "", latency, counts, structured)

    def complete(self, messages: Sequence[Mapping[str, str]], *, temperature: float = 0.7,
                 max_tokens: int = 512) -> str:
        """Free text (HyDE's hypothetical answers)."""
        return self.chat(messages, temperature=temperature, max_tokens=max_tokens).content


def configured_client(environ: Mapping[str, str] | None = None) -> LLMClient | None:
    config = LLMConfig.from_env(environ)
    return LLMClient(config) if config is not None else None
