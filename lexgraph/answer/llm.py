"""The LLM behind any OpenAI-compatible endpoint, through the official ``openai`` client (DESIGN §6).

Configuration comes from the environment: ``OPENAI_BASE_URL``, ``OPENAI_API_KEY`` and ``LEXGRAPH_LLM_MODEL``.
No model is configured unless ``LEXGRAPH_LLM_MODEL`` is set, so a machine with an OpenAI key for other tools does
not start paying for lexgraph's searches. Timeouts are bounded and transient failures (429, 5xx, connection errors)
are retried with backoff by the client; what still fails becomes `LLMUnavailable` (exit code 3 in the CLI).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

DEFAULT_TIMEOUT = 60.0
DEFAULT_RETRIES = 2


class LLMUnavailable(RuntimeError):
    """No model is configured, or the endpoint cannot be reached or keeps failing."""


@dataclass(frozen=True)
class LLMConfig:
    model: str
    base_url: str | None = None
    api_key: str | None = None
    timeout: float = DEFAULT_TIMEOUT
    max_retries: int = DEFAULT_RETRIES

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> LLMConfig | None:
        """The configured model, or None when ``LEXGRAPH_LLM_MODEL`` is unset."""
        env = os.environ if environ is None else environ
        model = env.get("LEXGRAPH_LLM_MODEL", "").strip()
        if not model:
            return None
        timeout = env.get("LEXGRAPH_LLM_TIMEOUT", "").strip()
        return cls(model=model, base_url=env.get("OPENAI_BASE_URL") or None,
                   api_key=env.get("OPENAI_API_KEY") or None,
                   timeout=float(timeout) if timeout else DEFAULT_TIMEOUT)


NOT_CONFIGURED = ("no language model is configured: set LEXGRAPH_LLM_MODEL (and OPENAI_BASE_URL, OPENAI_API_KEY "
                  "for your endpoint, e.g. a local llama.cpp or vLLM server)")


class LLMClient:
    """Plain chat completions; structured output and repair come with the answering guardrails."""

    def __init__(self, config: LLMConfig) -> None:
        from openai import OpenAI

        self.config = config
        # Local servers need no key, but the client insists on one.
        self._client = OpenAI(base_url=config.base_url, api_key=config.api_key or "not-needed",
                              timeout=config.timeout, max_retries=config.max_retries)

    def complete(self, messages: Sequence[Mapping[str, str]], *, temperature: float = 0.7,
                 max_tokens: int = 512) -> str:
        import openai

        try:
            response = self._client.chat.completions.create(
                model=self.config.model, messages=[dict(m) for m in messages],  # type: ignore[misc]
                temperature=temperature, max_tokens=max_tokens)
        except (openai.APIConnectionError, openai.APITimeoutError) as err:
            raise LLMUnavailable(f"the model endpoint {self.config.base_url or 'api.openai.com'} cannot be "
                                 f"reached ({err}); check OPENAI_BASE_URL and that the server is running") from None
        except openai.APIStatusError as err:
            raise LLMUnavailable(f"the model endpoint answered HTTP {err.status_code} after retries: "
                                 f"{str(err)[:300]}") from None
        if not response.choices:
            raise LLMUnavailable("the model endpoint returned no choices")
        return response.choices[0].message.content or ""
