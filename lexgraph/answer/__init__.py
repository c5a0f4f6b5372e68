"""Answering: references, prompt styles, the answerer (CGG / ARG), extractive answers, citation attachment, the
MCQA agents and the knowledge interview. The model client and its JSON guardrails live below, in `lexgraph.llm`."""
