"""The citation graph as RDF (Turtle): for the RDF-triple prompt style of the integrated-citation-graph paper and
for `lexgraph export rdf`.

Every node gets an IRI a reader can follow or at least recognise: a law is its e-Gov page
(``law:129AC0000000089`` = https://laws.e-gov.go.jp/law/129AC0000000089; a law with only a provisional id,
``lglaw:…``, lexgraph's own), a judgment its page on the courts'
site (``hanrei:91244``), a clause its e-Gov law id and clause path (``clause:129AC0000000089.a709.p1``), and one
wording of a clause that clause plus the day the wording took effect (``wording:129AC0000000089.a709.20200401``).
Revisions are e-Gov revision ids (``rev:129AC0000000089_20200516_501AC0000000002``). The vocabulary (``lg:``) is
lexgraph's own and small: see `VOCABULARY`.

The Turtle is written by hand, not by rdflib, because it goes into prompts: it must be compact, stable in order,
and safe. Safe means that nothing taken from a document can close a prompt tag: IRIs are built only from ASCII
letters, digits, ``_``, ``-``, ``.`` and percent escapes, and string literals escape ``<``, ``>`` and ``&`` as
``\\u003C``-style escapes (which Turtle reads back as the characters themselves). The tests parse the output
back with rdflib.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from lexgraph.statutes.catalog import PROVISIONAL_ID

if TYPE_CHECKING:
    from lexgraph.graph.neighbourhood import GraphNode, Neighbourhood
    from lexgraph.store.base import GraphStore

VOCABULARY = "https://w3id.org/lexgraph/ns#"

#: Prefix → namespace, in the order the Turtle declares them.
PREFIXES: Mapping[str, str] = {
    "lg": VOCABULARY,
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "law": "https://laws.e-gov.go.jp/law/",
    "lglaw": "https://w3id.org/lexgraph/law/",
    "rev": "https://w3id.org/lexgraph/revision/",
    "clause": "https://w3id.org/lexgraph/clause/",
    "wording": "https://w3id.org/lexgraph/wording/",
    "hanrei": "https://www.courts.go.jp/app/hanrei_jp/detail2?id=",
    "precedent": "https://w3id.org/lexgraph/precedent/",
    "doc": "https://w3id.org/lexgraph/document/",
}

_PLAIN = re.compile(r"[A-Za-z0-9_-]")
_LAWSUIT_ID = re.compile(r"hanrei:(\d+)")
_WORDING_UID = re.compile(r"(?P<law>[^/@]+)/(?P<path>[^@]+)@(?P<day>\d{8}|[^@]*)")
_KIND_CLASS = {"law": "lg:Wording", "precedent": "lg:Precedent", "guideline": "lg:Guideline", "book": "lg:Book",
               "stub": "lg:Precedent", "other": "lg:Document"}
_EDGE_PREDICATE = {"CITES": "lg:cites", "CITES_ARTICLE": "lg:cites", "REFERS_TO": "lg:refersTo"}


def local_name(text: str) -> str:
    """`text` as the local part of a prefixed name: ASCII letters, digits, ``_`` and ``-`` as they are, ``.`` inside
    (not at either end), everything else as UTF-8 percent escapes. Turtle reads the escapes back verbatim, so two
    different texts never share a name."""
    out: list[str] = []
    for position, char in enumerate(text):
        inner = 0 < position < len(text) - 1
        if _PLAIN.fullmatch(char) or (char == "." and inner):
            out.append(char)
        else:
            out.extend(f"%{byte:02X}" for byte in char.encode("utf-8"))
    return "".join(out) or "%00"


def literal(text: str) -> str:
    """A Turtle string literal; ``<``, ``>`` and ``&`` escaped so that a document's text cannot close a tag."""
    escaped = (text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
               .replace("\t", "\\t").replace("<", "\\u003C").replace(">", "\\u003E").replace("&", "\\u0026"))
    return f'"{escaped}"'


def date_literal(day: date) -> str:
    return f'"{day.isoformat()}"^^xsd:date'


def law_iri(law_id: str) -> str:
    """A law's e-Gov page; a law with no e-Gov id (the catalogue's provisional id, ``502ACX54B800018``) is named
    in lexgraph's own namespace instead: e-Gov has no page of that name, and publishing one under e-Gov's prefix
    would claim one."""
    prefix = "lglaw" if PROVISIONAL_ID.match(law_id) else "law"
    return f"{prefix}:{local_name(law_id)}"


def clause_iri(law_id: str, clause_path: str) -> str:
    """The clause itself, whatever its wording: e-Gov law id and clause path (``a709/p1`` → ``a709.p1``)."""
    return f"clause:{local_name('.'.join([law_id, *clause_path.split('/')]))}"


def wording_iri(law_id: str, clause_path: str, valid_from: date | None) -> str:
    """One wording of a clause: the clause and the day the wording took effect (``start-unknown`` for a first
    stored version whose start the store does not know)."""
    start = valid_from.strftime("%Y%m%d") if valid_from else "start-unknown"
    return f"wording:{local_name('.'.join([law_id, *clause_path.split('/'), start]))}"


def precedent_iri(uid: str) -> str:
    """A judgment with a courts.go.jp lawsuit id is its page there; any other (a stub known by its case number)
    gets a lexgraph IRI from its uid."""
    match = _LAWSUIT_ID.fullmatch(uid)
    return f"hanrei:{match.group(1)}" if match else f"precedent:{local_name(uid)}"


def document_iri(uid: str) -> str:
    return f"doc:{local_name(uid)}"


@dataclass(frozen=True)
class Triple:
    subject: str
    predicate: str
    object: str


def turtle(triples: Iterable[Triple], *, prefixes: Sequence[str] | None = None) -> str:
    """The triples as Turtle: the prefixes used, then one block per subject (in first-seen order), predicates in
    first-seen order, each distinct triple once."""
    by_subject: dict[str, dict[str, list[str]]] = {}
    for t in triples:
        objects = by_subject.setdefault(t.subject, {}).setdefault(t.predicate, [])
        if t.object not in objects:
            objects.append(t.object)
    used = prefixes if prefixes is not None else _prefixes_used(by_subject)
    lines = [f"@prefix {name}: <{PREFIXES[name]}> ." for name in PREFIXES if name in used]
    for subject, predicates in by_subject.items():
        body = " ;\n    ".join(f"{_predicate(p)} {', '.join(objects)}" for p, objects in predicates.items())
        lines.append(f"{subject} {body} .")
    return "\n".join(lines) + "\n"


def _predicate(name: str) -> str:
    return "a" if name == "rdf:type" else name


def _prefixes_used(by_subject: Mapping[str, Mapping[str, Sequence[str]]]) -> set[str]:
    terms = [s for s in by_subject] + [p for ps in by_subject.values() for p in ps]
    terms += [o for ps in by_subject.values() for objects in ps.values() for o in objects]
    used = {term.split(":", 1)[0] for term in terms if not term.startswith('"') and ":" in term}
    used |= {"xsd" for term in terms if "^^xsd:" in term}
    return used


def wording_triples(subject: str, *, law_id: str, clause_path: str, label: str, valid_from: date | None,
                    valid_until: date | None, revision_id: str = "") -> list[Triple]:
    """What a wording node says: its clause, law, label, period and the revision it was read from."""
    out = [Triple(subject, "rdf:type", "lg:Wording"), Triple(subject, "rdfs:label", literal(label)),
           Triple(subject, "lg:wordingOf", clause_iri(law_id, clause_path)), Triple(subject, "lg:law", law_iri(law_id))]
    if valid_from:
        out.append(Triple(subject, "lg:validFrom", date_literal(valid_from)))
    if valid_until:
        out.append(Triple(subject, "lg:validUntil", date_literal(valid_until)))
    if revision_id:
        out.append(Triple(subject, "lg:revision", f"rev:{local_name(revision_id)}"))
    return out


def node_iri(node: GraphNode) -> str:
    """The IRI of a node of a neighbourhood (lexgraph.graph.neighbourhood)."""
    if node.kind == "law":
        props = node.properties
        match = _WORDING_UID.fullmatch(node.uid)
        law_id = str(props.get("law_id") or (match.group("law") if match else ""))
        path = str(props.get("path") or (match.group("path") if match else node.uid))
        return wording_iri(law_id, path, _day(props.get("valid_from")))
    if node.kind == "whole_law":  # a law cited as a whole: its uid is its law id
        return law_iri(node.uid)
    if node.kind in ("precedent", "stub"):
        return precedent_iri(node.uid)
    return document_iri(node.uid)


def neighbourhood_turtle(hood: Neighbourhood) -> str:
    """A neighbourhood (`lexgraph graph neighbourhood`) as Turtle: each node typed and labelled with its caption,
    a wording with its clause, law and period, a judgment with its court, date and case number; each edge a
    ``lg:cites`` or ``lg:refersTo`` triple (the count of citations it stands for is in the JSON view, not here:
    plain triples cannot carry it without reification)."""
    iris = {n.uid: node_iri(n) for n in hood.nodes}
    triples: list[Triple] = []
    for node in hood.nodes:
        subject = iris[node.uid]
        props = node.properties
        if node.kind == "law":
            match = _WORDING_UID.fullmatch(node.uid)
            triples += wording_triples(
                subject, law_id=str(props.get("law_id") or (match.group("law") if match else "")),
                clause_path=str(props.get("path") or (match.group("path") if match else "")),
                label=node.caption, valid_from=_day(props.get("valid_from")),
                valid_until=_day(props.get("valid_until")))
            continue
        if node.kind == "whole_law":
            triples += [Triple(subject, "rdf:type", "lg:Law"), Triple(subject, "rdfs:label", literal(node.caption))]
            continue
        triples += [Triple(subject, "rdf:type", _KIND_CLASS.get(node.kind, "lg:Document")),
                    Triple(subject, "rdfs:label", literal(node.caption))]
        for key, predicate in (("court", "lg:court"), ("case_number", "lg:caseNumber"), ("case_name", "lg:caseName")):
            if props.get(key):
                triples.append(Triple(subject, predicate, literal(str(props[key]))))
        if (decided := _day(props.get("date"))) is not None:
            triples.append(Triple(subject, "lg:decided", date_literal(decided)))
    for edge in hood.edges:
        triples.append(Triple(iris[edge.source], _EDGE_PREDICATE.get(edge.type, "lg:cites"), iris[edge.target]))
    return turtle(triples)


def _day(value: object) -> date | None:
    if isinstance(value, date):
        return value
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        return date.fromisoformat(value)
    return None


def prefix_lines() -> str:
    """Every prefix of `PREFIXES`, declared once at the head of a streamed export (`law_turtle`'s blocks have
    none)."""
    return "".join(f"@prefix {name}: <{namespace}> .\n" for name, namespace in PREFIXES.items())


def law_turtle(store: GraphStore, law_id: str) -> str:
    """One stored law as Turtle without prefix lines: the law, each wording of its clauses (clause, law, label,
    period, the revisions holding it) and each cross-reference leaving it (``lg:cites``, wording to wording). Two
    queries of this law alone, so that `lexgraph export rdf --all` writes the whole store law by law in the
    memory of its largest law."""
    from lexgraph.numerals import clause_label
    from lexgraph.store.rows import RDF_LAW_CITATIONS, RDF_LAW_WORDINGS

    triples: list[Triple] = []
    for wording in store.rows(RDF_LAW_WORDINGS, law_id=law_id):
        if not triples:
            triples += [Triple(law_iri(law_id), "rdf:type", "lg:Law"),
                        Triple(law_iri(law_id), "rdfs:label", literal(wording.law_title or law_id))]
        path = wording.path
        label = f"{wording.law_title or law_id} {clause_label(path)}"
        triples += wording_triples(wording_iri(law_id, path, _day(wording.valid_from)), law_id=law_id,
                                   clause_path=path, label=label, valid_from=_day(wording.valid_from),
                                   valid_until=_day(wording.valid_until), revision_id=wording.revision_id or "")
    for cite in store.rows(RDF_LAW_CITATIONS, law_id=law_id):
        triples.append(Triple(wording_iri(law_id, cite.path, _day(cite.valid_from)), "lg:cites",
                              wording_iri(cite.to_law_id, cite.to_path, _day(cite.to_valid_from))))
    return turtle(triples, prefixes=()) if triples else ""
