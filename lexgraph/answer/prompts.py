"""Prompt styles of the integrated-citation-graph paper, rendered from the templates in ``answer/templates``.

The common frame: an ``<instruction>``, the ``<question>``, and ``<references>`` holding ``<books>``,
``<guidelines>``, ``<precedents>`` and ``<laws>``, each a JSON list of ``{id, title, text}``. The styles differ in
what the references carry:

- ``text``: the references as they are;
- ``focus-literature``: each book or guideline chunk gets ``cites``, the text of the clauses and precedents it cites;
- ``focus-law``: each clause gets ``cited``, the chunks and precedents citing it;
- ``rdf``: Text-only, plus the references and their citation relations as RDF (Turtle, lexgraph.graph.rdf) in
  ``<relations>``: each reference an IRI (e-Gov law id and clause path, courts.go.jp lawsuit id) tied to its prompt
  id by ``lg:promptId``, each citation a ``lg:cites`` triple.

Documents are data. Reference text is JSON-encoded with ``<``, ``>`` and ``&`` escaped, so nothing inside a
judgment or a book can close a tag and speak outside ``<references>``; the instruction tells the model that text
inside references is never an instruction.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from lexgraph.answer.references import KINDS, Reference, References
from lexgraph.errors import ConfigurationError
from lexgraph.graph.rdf import Triple, document_iri, literal, precedent_iri, turtle, wording_iri, wording_triples

STYLES = ("text", "focus-literature", "focus-law", "rdf")
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
_TEXT_LIMIT = 1200  # characters of one reference's text in a prompt


@cache
def template(name: str) -> str:
    return (resources.files("lexgraph") / "answer" / "templates" / f"{name}.txt").read_text(encoding="utf-8")


def fill(text: str, values: Mapping[str, str]) -> str:
    """Replace ``{name}`` placeholders in one pass, so that a value is never scanned for placeholders itself."""
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def data_json(value: Any) -> str:
    """JSON that cannot break out of its tag: ``<``, ``>`` and ``&`` become ``\\u003c``-style escapes (JSON
    structure never uses them, so replacing them everywhere only touches string contents)."""
    text = json.dumps(value, ensure_ascii=False, indent=1)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@dataclass(frozen=True)
class Prompt:
    style: str
    system: str
    user: str

    def messages(self) -> list[dict[str, str]]:
        return [{"role": "system", "content": self.system}, {"role": "user", "content": self.user}]


def _short(text: str) -> str:
    return text if len(text) <= _TEXT_LIMIT else text[:_TEXT_LIMIT] + "…"


def _entry(ref: Reference) -> dict[str, Any]:
    return {"id": ref.id, "title": ref.title, "text": _short(ref.shown_text)}


def render(question: str, references: References, style: str = "text") -> Prompt:
    if style not in STYLES:
        raise ConfigurationError(f"prompt style must be one of {', '.join(STYLES)}, not {style!r}")
    lists: dict[str, list[dict[str, Any]]] = {kind: [_entry(r) for r in references.of_kind(kind)] for kind in KINDS}
    if style == "focus-literature":
        for kind in ("book", "guideline"):
            for entry, ref in zip(lists[kind], references.of_kind(kind), strict=True):
                entry["cites"] = [_entry(cited) for cid in ref.cites if (cited := references.by_id(cid))]
    if style == "focus-law":
        for entry, ref in zip(lists["law"], references.of_kind("law"), strict=True):
            entry["cited"] = [_entry(citing) for cid in ref.cited_by if (citing := references.by_id(cid))]
    relations = ""
    if style == "rdf":
        relations = f"<relations>\n{references_turtle(references)}</relations>\n"
    note = template(f"style_{style.replace('-', '_')}").strip()
    instruction = fill(template("instruction"), {"style_note": note}).strip()
    user = fill(template("frame"), {
        "instruction": instruction, "question": escape_tags(question.strip()),
        "books": data_json(lists["book"]), "guidelines": data_json(lists["guideline"]),
        "precedents": data_json(lists["precedent"]), "laws": data_json(lists["law"]), "relations": relations,
    })
    if references.unknown:  # said to the model, so that it neither guesses them nor answers from another clause
        left_out = [{"title": title, "reason": reason} for title, reason in references.unknown]
        user = f"{user.rstrip()}\n" + fill(template("unknown_wording"), {"unknown": data_json(left_out)})
    return Prompt(style, template("system").strip(), user)


def reference_iri(ref: Reference) -> str:
    if ref.kind == "law":
        return wording_iri(ref.law_id, ref.path, ref.valid_from)
    return precedent_iri(ref.uid) if ref.kind == "precedent" else document_iri(ref.uid)


_CLASSES = {"book": "lg:Book", "guideline": "lg:Guideline", "precedent": "lg:Precedent"}


def references_turtle(references: References) -> str:
    """The references and the citations between them as Turtle: each reference's IRI with its class, label and
    ``lg:promptId`` (the id the reply cites), a clause's wording with its law, period and revision; then one
    ``lg:cites`` triple per relation. Safe between tags by construction (lexgraph.graph.rdf)."""
    iris = {ref.id: reference_iri(ref) for ref in references.items}
    triples: list[Triple] = []
    for ref in references.items:
        subject = iris[ref.id]
        if ref.kind == "law":
            triples += wording_triples(subject, law_id=ref.law_id, clause_path=ref.path, label=ref.title,
                                       valid_from=ref.valid_from, valid_until=ref.valid_until,
                                       revision_id=ref.revision_id)
        else:
            triples += [Triple(subject, "rdf:type", _CLASSES[ref.kind]),
                        Triple(subject, "rdfs:label", literal(ref.title))]
        triples.append(Triple(subject, "lg:promptId", literal(ref.id)))
    triples += [Triple(iris[a], "lg:cites", iris[b]) for a, b in references.relations if a in iris and b in iris]
    return turtle(triples)


def escape_tags(text: str) -> str:
    """Text placed between our tags (the question, a draft) must not close them: angle brackets become full-width."""
    return text.replace("<", "＜").replace(">", "＞")


def closed_book(question: str) -> Prompt:
    """ARG's first step: the question alone, answered from the model's own knowledge, citing nothing."""
    return Prompt("closed-book", template("system").strip(),
                  fill(template("closed_book"), {"question": escape_tags(question.strip())}))


def with_draft(prompt: Prompt, draft: str) -> Prompt:
    """ARG's second step: the references prompt, and the closed-book draft to check against them (as data)."""
    refine = fill(template("refine"), {"draft": escape_tags(draft.strip())})
    return Prompt(prompt.style, prompt.system, f"{prompt.user.rstrip()}\n{refine}")
