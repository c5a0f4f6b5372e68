"""Measurements of lexgraph's parts against gold data: citation P/R/F1, retrieval recall@k, answer accuracy.

Each module scores one thing and returns a frozen value with a ``to_json()``; printing is left to the CLI.
"""
