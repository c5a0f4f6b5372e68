"""Answering: the LLM client (and, with issue 6, prompt styles, guardrails and citation attachment)."""
