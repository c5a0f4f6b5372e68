"""The MCP tools: each a thin face over one `LexGraph` method, as a CLI command is, returning a typed shape.

Every tool reads; none writes. The store is opened read-only (`LexGraph.open(..., read_only=True)`), `ask` records
no turn in the graph, and `cypher` runs through `LexGraph.query`, which refuses a statement that writes. A tool
that fails raises the library's error; the server turns it into an error result with the CLI's message
(`failures`). A clause that is not in force on the day, or whose wording the store cannot know, is an answer,
not a failure: `clause_as_of` returns it with its status and the CLI's message. A clause no stored version has is
a failure, and its message names the clauses that do exist nearby.

Results are concise unless ``detail: "full"`` is asked, and every one is held to the server's size bound, long
lists in pages (`pages`): the CLI's ``--json`` is the full answer, a tool's default is what an assistant needs to
decide its next step.
"""

from __future__ import annotations

import json
import os
import re
from datetime import date
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from lexgraph import (
    DATE_FORMS,
    DOCUMENT_KINDS,
    MAX_QUESTION_CHARS,
    UNIT_KINDS,
    AskOptions,
    DateFormatError,
    InputError,
    LexGraph,
    NotFound,
    NotInForce,
    SearchOptions,
    WordingUnknown,
    as_of_day,
    citation_day,
    clause_label,
    clause_path,
    parse_day,
)
from lexgraph.cli.law import _version_json as version_json
from lexgraph.cli.law import beyond_knowledge_note
from lexgraph.cli.mcp_server import shapes
from lexgraph.cli.mcp_server.pages import DEFAULT_LIMIT, bounded, call_key, paged, snippet
from lexgraph.cli.mcp_server.uris import clause_uri, law_uri
from lexgraph.cli.output import iso

#: At most this many rows come back from `cypher`: an assistant's context is not a place for a whole table.
MAX_ROWS = 200
#: The `clause` of a `cited_by` answer about the law as a whole (no clause asked, the path empty).
WHOLE_LAW = "法令全体"

Law = Annotated[str, Field(description="法令名・略称・法令番号・法令ID のいずれか（例: 民法, 129AC0000000089）。")]
Clause = Annotated[str, Field(description="条項（例: 第七百九条, 709条, 第七百十条第一項, a710/p1）。")]
AsOf = Annotated[str | None, Field(description=f"基準日（{DATE_FORMS}）。省略時は今日。")]
Laws = Annotated[list[str] | None, Field(description="この法令に限る（法令名・略称・法令ID、複数可）。")]
DetailArg = Annotated[shapes.Detail, Field(description="brief（既定: 判断に要る項目だけ）または full（CLI の --json と"
                                                       "同じすべての項目）。")]
Cursor = Annotated[str | None, Field(description="前の結果の next_cursor（続きのページ）。他の引数は前と同じにする。")]


def day_of(text: str | None, field: str = "as_of") -> date | None:
    """A date argument: None when not given; a `DateFormatError` naming the argument when it cannot be read."""
    if text is None or not text.strip():
        return None
    try:
        return parse_day(text)
    except DateFormatError as error:
        raise DateFormatError(f"{field}: {error}") from error


#: The fields of a concise (``brief``) result, per shape: what an assistant decides its next step by.
BRIEF_CLAUSE = ("status", "message", "law_id", "law_title", "clause", "as_of", "caption", "text", "period", "uri")
BRIEF_VERSION = ("revision_id", "period", "known_until")
BRIEF_CHANGE = ("clause", "path", "status")
BRIEF_CITATION = ("start", "end", "surface", "kind", "status", "reason", "law_title", "law_id", "revision_id",
                  "clause", "uri", "court", "date", "decision_type", "case_number")
BRIEF_LINK = ("near_clause", "surface", "law_id", "law_title", "path", "clause", "uri", "status", "reason")
BRIEF_HIT = ("rank", "title", "snippet", "score", "valid_from", "valid_until")
BRIEF_EVIDENCE = ("title", "snippet", "score", "uid", "valid_from", "valid_until", "direct_rank", "cited_by",
                  "stub")
BRIEF_REFERENCE = ("id", "kind", "title", "law_id", "path", "revision_id", "valid_from", "valid_until", "uid")
WHOLE_CLAUSE = "the clause's uri (resources/read) gives its whole wording"
WHOLE_LIST = "detail: full gives every field; a larger --result-limit gives longer texts"


def _only(entry: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: entry[key] for key in keys if entry.get(key) is not None}


def _article_key(path: str) -> tuple[int, ...]:
    """An article path's place among a law's articles: a400 < a400_2 < a401."""
    return tuple(int(n) for n in re.findall(r"[0-9]+", path))


class Tools:
    """The tools over one open, read-only handle, each result held to `limit` bytes. Each method is a tool; its
    docstring is for Python readers, the Japanese description an assistant chooses by is given where it is
    registered (`server.TOOLS`)."""

    def __init__(self, lg: LexGraph, limit: int = DEFAULT_LIMIT) -> None:
        self.lg = lg
        self.limit = limit

    def _page(self, tool: str, arguments: dict[str, Any], payload: dict[str, Any], lists: tuple[str, ...],
              cursor: str | None) -> dict[str, Any]:
        return paged(payload, lists, cursor=cursor, key=call_key(tool, arguments), limit=self.limit, how=WHOLE_LIST)

    # clauses ---------------------------------------------------------------------------------------------------

    def clause_as_of(self, law: Law, clause: Clause, as_of: AsOf = None,
                     detail: DetailArg = "brief") -> shapes.ClauseAsOf:
        """`lexgraph law show LAW CLAUSE --as-of DAY`, with "not in force" and "unknown" as statuses."""
        found = self.clause_on(law, clause, as_of).model_dump(mode="json")
        if detail == "brief":
            found = _only(found, BRIEF_CLAUSE)
        return shapes.ClauseAsOf.model_validate(bounded(found, self.limit, WHOLE_CLAUSE))

    def clause_on(self, law: str, clause: str, as_of: str | None) -> shapes.ClauseAsOf:
        """The clause on a day, whole (the resources read it so: a client reading a resource asked for all of it).
        A clause that no stored version has raises `NotFound` naming the clauses that exist near it."""
        day = as_of_day(day_of(as_of))
        info = self.lg.law(law)
        path = clause_path(clause)
        common = {"law_id": info.law_id, "law_title": info.title, "clause": clause_label(path), "path": path,
                  "as_of": day.isoformat()}
        try:
            found = self.lg.show(law, clause, as_of=day)
        except WordingUnknown as error:  # the store cannot know the wording that day
            return shapes.ClauseAsOf(status="unknown", message=str(error), **common)
        except NotInForce as error:
            answer = getattr(error, "answer", None)  # the decision: no periods at all is a clause never stored
            if answer is not None and not getattr(answer, "periods", True):
                raise NotFound(f"{error}; {self._nearby(info.law_id, info.title, path)}") from None
            return shapes.ClauseAsOf(status="not_in_force", message=str(error), **common)
        p = found.provision
        common["clause"] = clause_label(p.path)
        common["path"] = p.path
        last_known = found.beyond_knowledge
        message = beyond_knowledge_note(found) if last_known else None
        return shapes.ClauseAsOf(
            status="last_known" if last_known else "in_force", message=message, **common,
            revision_id=found.version.revision_id, uri=clause_uri(info.law_id, p.path, found.version.revision_id),
            caption=p.caption or None, text=p.text, valid_from=iso(p.valid_from), valid_until=iso(p.valid_until),
            known_up_to=iso(found.known_up_to) if p.valid_until is None else None, period=found.period)

    def _nearby(self, law_id: str, title: str, path: str) -> str:
        """What the law does have where `path` was looked for: the clauses inside its article, or the articles
        before and after it."""
        article = path.split("/", 1)[0]
        rows = self.lg.query("MATCH (p:Provision {law_id: $law_id}) WHERE p.path = $article OR p.path STARTS WITH "
                             "$inside RETURN DISTINCT p.path AS path", {"law_id": law_id, "article": article,
                                                                        "inside": f"{article}/"})
        depth = path.count("/")
        inside = sorted({r["path"] for r in rows if r["path"].count("/") == depth}, key=_article_key)
        if inside:
            return f"{clause_label(article)} has {', '.join(clause_label(p) for p in inside[:12])}"
        rows = self.lg.query("MATCH (p:Provision {law_id: $law_id}) WHERE p.kind = 'article' AND NOT p.path "
                             "CONTAINS '/' AND NOT p.path STARTS WITH 'suppl' RETURN DISTINCT p.path AS path",
                             {"law_id": law_id})
        articles = sorted({r["path"] for r in rows}, key=_article_key)
        if not articles:
            return f"{title} has no articles stored"
        key = _article_key(path)
        before = [a for a in articles if _article_key(a) < key][-2:]
        after = [a for a in articles if _article_key(a) > key][:2]
        near = ", ".join(clause_label(a) for a in (*before, *after))
        return (f"the articles nearest it are {near} ({title} has {len(articles)} articles, {clause_label(articles[0])}"
                f" to {clause_label(articles[-1])})")

    def clause_in_revision(self, law: str, clause: str, revision_id: str) -> shapes.ClauseAsOf:
        """The clause's wording in one stored revision (the resource ``…/{clause_path}@{revision_id}``): the clause
        as of the first day the revision is known in force. Raises `NotFound` when the law has no such revision
        and `NotInForce` when the clause is not in it."""
        versions = {v.revision_id: v for v in self.lg.versions(law)}
        version = versions.get(revision_id)
        if version is None:
            raise NotFound(f"{law} has no stored revision {revision_id!r}; its revisions: "
                           f"{', '.join(versions) or 'none'}")
        day = version.enforced_from or version.known_in_force_on
        if day is None:
            raise NotFound(f"revision {revision_id} has no known day in force, so its clauses cannot be read "
                           "by day; read the law's versions (lexgraph://law/{law_id})")
        found = self.clause_on(law, clause, day.isoformat())
        if found.status == "not_in_force" or found.status == "unknown":
            raise NotInForce(found.message or f"{clause} is not in revision {revision_id}")
        if found.revision_id != revision_id:
            raise NotFound(f"{clause} on {day} reads from revision {found.revision_id}, not {revision_id}")
        return found

    # laws ------------------------------------------------------------------------------------------------------

    def law_versions(self, law: Law, detail: DetailArg = "brief", cursor: Cursor = None) -> shapes.LawVersions:
        """`lexgraph law versions LAW --json`, each version as that command writes it (``detail: "full"``)."""
        payload = self.versions_of(law)
        if detail == "brief":
            payload["versions"] = [{**_only(v, BRIEF_VERSION),
                                    **({"gap": [a["law_num"] for a in v["gap"]]} if v.get("gap") else {})}
                                   for v in payload["versions"]]
        return shapes.LawVersions.model_validate(
            self._page("law_versions", {"law": law, "detail": detail}, payload, ("versions",), cursor))

    def versions_of(self, law: str) -> dict[str, Any]:
        """A law and all its versions, whole (the resource ``lexgraph://law/{law_id}``)."""
        info = self.lg.law(law)
        return {"law_id": info.law_id, "title": info.title, "law_num": info.law_num, "uri": law_uri(info.law_id),
                "versions": [version_json(v) for v in self.lg.versions(law)]}

    def law_diff(
        self, law: Law,
        from_day: Annotated[str, Field(description=f"比較の始めの日（{DATE_FORMS}）。")],
        to_day: Annotated[str, Field(description=f"比較の終わりの日（{DATE_FORMS}）。")],
        level: Annotated[str, Field(description="article（条単位）または all（項・号まで）。",
                                    json_schema_extra={"enum": ["article", "all"]})] = "article",
        detail: DetailArg = "brief", cursor: Cursor = None,
    ) -> shapes.LawDiff:
        """`lexgraph law diff LAW --from D1 --to D2 --json`: the clauses that changed, and (``detail: "full"``)
        their wordings before and after."""
        start, end = day_of(from_day, "from_day"), day_of(to_day, "to_day")
        if start is None or end is None:
            raise InputError("from_day and to_day are both needed (YYYY-MM-DD)")
        if level not in ("article", "all"):
            raise InputError(f"level is article or all, not {level!r}")
        payload = self.lg.diff(law, start, end, level=level).to_json()
        changes = [{**c, "clause": clause_label(c["path"])} for c in payload["changes"]]
        payload["changes"] = changes if detail == "full" else [_only(c, BRIEF_CHANGE) for c in changes]
        arguments = {"law": law, "from_day": from_day, "to_day": to_day, "level": level, "detail": detail}
        return shapes.LawDiff.model_validate(self._page("law_diff", arguments, payload, ("changes",), cursor))

    # citations -------------------------------------------------------------------------------------------------

    def cite(
        self,
        text: Annotated[str, Field(description="引用を探す文章（判決文、契約書、条文など）。")],
        as_of: Annotated[str | None, Field(description=f"法令を読む基準日（{DATE_FORMS}）。省略時は文中の判決日、"
                                                       "なければ今日。")] = None,
        in_law: Annotated[str | None, Field(description="文章がこの法令の条文であるとき、その法令"
                                                        "（前条・同法の解決用）。")] = None,
        at: Annotated[str | None, Field(description="文章がその条文であるとき、その条（例: 第二十一条第二項）。")]
        = None,
        detail: DetailArg = "brief", cursor: Cursor = None,
    ) -> shapes.Citations:
        """`lexgraph cite --json`: statutes and precedents cited in a text, resolved to the revision then."""
        if at and not in_law:
            raise InputError("at names a clause of the law given by in_law; give in_law too")
        day, why = citation_day(text, day_of(as_of))
        citations = []
        for c in self.lg.cite(text, as_of=day, in_law=in_law, at=at):
            entry = c.to_json()
            if c.kind == "statute" and c.law_id and c.revision_id and c.path:
                entry["uri"] = clause_uri(c.law_id, c.path, c.revision_id)
            if detail == "brief":
                entry = _only({**entry, "clause": clause_label(c.path) if c.path else None}, BRIEF_CITATION)
            citations.append(entry)
        payload = {"as_of": day.isoformat(), "as_of_source": why, "citations": citations}
        arguments = {"text": text, "as_of": as_of, "in_law": in_law, "at": at, "detail": detail}
        return shapes.Citations.model_validate(self._page("cite", arguments, payload, ("citations",), cursor))

    def cites(self, law: Law, clause: Clause, as_of: AsOf = None, detail: DetailArg = "brief",
              cursor: Cursor = None) -> shapes.ClauseLinks:
        """`lexgraph law cites LAW CLAUSE --json`: what the clause cites, both sides as worded on the day."""
        found = self.lg.cites(law, clause, as_of=day_of(as_of))
        payload = {"law_id": found.law.law_id, "law_title": found.law.title, "path": found.path,
                   "clause": clause_label(found.path), "as_of": found.as_of.isoformat(),
                   "links": self._links(found.to_json()["links"], found.as_of, detail)}
        arguments = {"law": law, "clause": clause, "as_of": as_of, "detail": detail}
        return shapes.ClauseLinks.model_validate(self._page("cites", arguments, payload, ("links",), cursor))

    def cited_by(self, law: Law,
                 clause: Annotated[str | None, Field(description="条項（例: 第七百九条, 709条, a710/p1）。省略すると"
                                                     "法令全体を引用したもの（条項を挙げず、法令番号などで法令そのもの"
                                                     "を引用した条文・判例・文献）を返す。")] = None,
                 as_of: Annotated[str | None, Field(description=f"基準日（{DATE_FORMS}）。条文の引用元はこの日の"
                                                    "文言で（省略時は今日）、判例・文献はこの日の文言を引用するものに"
                                                    "限る（省略時はどの版でも）。")] = None,
                 kind: Annotated[str, Field(description="判例・文献の種類: document（すべて）, precedent, book, "
                                            "guideline, other。",
                                            json_schema_extra={"enum": ["document", *DOCUMENT_KINDS]})] = "document",
                 detail: DetailArg = "brief", cursor: Cursor = None,
                 ) -> shapes.CitedBy:
        """`lexgraph law cited-by LAW CLAUSE` (clauses) and `--kind document` (precedents and literature), in one;
        each precedent once, however many of its chunks cite the clause (``detail: "full"``: with each
        citation). Without `clause`, what cites the law as a whole (`law cited-by LAW`): the path is empty and the
        clause 「法令全体」; a document's citation then names no wording, so `as_of` limits only the clauses."""
        if kind != "document" and kind not in DOCUMENT_KINDS:
            raise InputError(f"kind is document or one of {', '.join(DOCUMENT_KINDS)}, not {kind!r}")
        day = day_of(as_of)
        found = self.lg.cited_by(law, clause, as_of=day)
        kinds = DOCUMENT_KINDS if kind == "document" else (kind,)
        documents = self.lg.documents_citing(law, clause, as_of=day, kinds=kinds)
        payload = {"law_id": found.law.law_id, "law_title": found.law.title, "path": found.path,
                   "clause": clause_label(found.path) if found.path else WHOLE_LAW, "as_of": found.as_of.isoformat(),
                   "clauses": self._links(found.to_json()["links"], found.as_of, detail),
                   "documents": citing_judgments([d.to_json() for d in documents], detail)}
        arguments = {"law": law, "clause": clause, "as_of": as_of, "kind": kind, "detail": detail}
        return shapes.CitedBy.model_validate(self._page("cited_by", arguments, payload, ("clauses", "documents"),
                                                        cursor))

    def _links(self, links: list[dict[str, Any]], day: date, detail: str) -> list[dict[str, Any]]:
        out = []
        revisions: dict[str, str | None] = {}  # per law: most links of a clause point into one or two laws
        for link in links:
            if link["law_id"] not in revisions:
                revisions[link["law_id"]] = self._revision_on(link["law_id"], day)
            revision = revisions[link["law_id"]]
            uri = clause_uri(link["law_id"], link["path"], revision) if revision else None
            entry = {**link, "uri": uri, "clause": clause_label(link["path"]),
                     "near_clause": clause_label(link["near_path"]) if link.get("near_path") else None}
            out.append(entry if detail == "full" else _only(entry, BRIEF_LINK))
        return out

    def _revision_on(self, law_id: str, day: date) -> str | None:
        """The stored revision of a law in force on `day`, for a link's URI (None when no stored version covers
        it)."""
        chosen = None
        for v in self.lg.versions(law_id):
            if v.enforced_from is not None and v.enforced_from <= day:
                chosen = v.revision_id
        return chosen

    def precedent(self, case: Annotated[str, Field(description="判例: 事件番号（令和3年(オ)第293号）、裁判所 ID"
                                                   "（91244）、事件名（原状回復等請求事件）、通称（三菱樹脂事件）。")],
                  detail: DetailArg = "brief", cursor: Cursor = None) -> shapes.Precedent:
        """`lexgraph precedent show CASE --json` (``detail: "full"``); concise: its header and what it cites and
        who cites it, without the texts."""
        payload = self.lg.precedent(case).to_json()
        if detail == "brief":
            for name in ("holdings", "summary"):
                if payload.get(name):
                    payload[name] = snippet(payload[name], 120)
            payload.pop("source", None)
        lists = ("cites_clauses", "cites_precedents", "cited_by")
        return shapes.Precedent.model_validate(
            self._page("precedent", {"case": case, "detail": detail}, payload, lists, cursor))

    # search and answers ----------------------------------------------------------------------------------------

    def search(
        self,
        question: Annotated[str, Field(description=f"質問（日本語、{MAX_QUESTION_CHARS:,}字まで）。")],
        mode: Annotated[str, Field(description=f"検索方式（既定は {SearchOptions.mode}）。",
                                   json_schema_extra={"enum": list(SearchOptions.modes())})] = SearchOptions.mode,
        laws: Laws = None,
        as_of: Annotated[str | None, Field(description=f"この日に施行中の文言だけを探す（{DATE_FORMS}）。省略時は"
                                                       "すべての版。")] = None,
        kind: Annotated[str | None, Field(description="provision（条文）または chunk（判例・文献の断片）。"
                                                      "省略時は両方。",
                                          json_schema_extra={"enum": list(UNIT_KINDS)})] = None,
        k: Annotated[int, Field(description="返す条文・断片の数（それぞれ）。", ge=1, le=50)] = 5,
        evidence: Annotated[bool, Field(description="引用グラフが選ぶ根拠（evidence）も返す。")] = False,
        detail: DetailArg = "brief", cursor: Cursor = None,
    ) -> shapes.SearchResult:
        """`lexgraph search QUESTION --json`: the k hits with their captions and a line of each (``detail:
        "full"``: every field and the whole text), the evidence only when asked."""
        if kind is not None and kind not in UNIT_KINDS:
            raise InputError(f"kind must be one of {', '.join(UNIT_KINDS)}, not {kind!r}")
        if mode not in SearchOptions.modes():
            raise InputError(f"mode must be one of {', '.join(SearchOptions.modes())}, not {mode!r}")
        day = day_of(as_of)
        options = SearchOptions(mode=mode, k=k)
        payload = self.lg.search(question, as_of=day, laws=laws or (),
                                 kind=kind, options=options).to_json()  # type: ignore[arg-type]
        if not evidence:
            payload.pop("evidence", None)
        if detail == "brief":
            for name, keys in (("clauses", BRIEF_HIT), ("chunks", BRIEF_HIT), ("evidence", BRIEF_EVIDENCE)):
                if name in payload:
                    payload[name] = [_only({**hit, "snippet": snippet(hit.get("text"), 60),
                                            "cited_by": len(hit.get("cited_by") or []) or None}, keys)
                                     for hit in payload[name]]
            if not payload.get("hypothetical_answers"):
                payload.pop("hypothetical_answers", None)
        lists = ("clauses", "chunks", *(("evidence",) if evidence else ()), "unverified", "dropped")
        arguments = {"question": question, "mode": mode, "laws": laws, "as_of": as_of, "kind": kind, "k": k,
                     "evidence": evidence, "detail": detail}
        return shapes.SearchResult.model_validate(self._page("search", arguments, payload, lists, cursor))

    def ask(self, question: Annotated[str, Field(description=f"法律の質問（日本語、{MAX_QUESTION_CHARS:,}字まで）。")],
            as_of: AsOf = None,
            laws: Laws = None, detail: DetailArg = "brief", cursor: Cursor = None) -> shapes.AnswerOut:
        """`lexgraph ask QUESTION --json`, recording nothing in the store: the model configured in the environment
        (LEXGRAPH_LLM_MODEL, OPENAI_BASE_URL) answers, or the answer is extractive and labelled so. The turn goes
        to LEXGRAPH_TURN_LOG when it is set, and nowhere otherwise (never into the store's folder). Concise: the
        answer and its references without their texts (each sentence quotes what it relies on)."""
        log = Path(os.environ["LEXGRAPH_TURN_LOG"]) if os.environ.get("LEXGRAPH_TURN_LOG") else Path(os.devnull)
        answer = self.lg.ask(question, options=AskOptions(), as_of=day_of(as_of), laws=laws or (), log=log)
        payload = answer.to_json()
        if detail == "brief":
            payload = {key: payload.get(key) for key in ("question", "label", "extractive", "model", "as_of",
                                                         "conclusion", "confidence", "sentences", "caveats",
                                                         "references")}
            payload["references"] = [_only(r, BRIEF_REFERENCE) for r in payload["references"] or []]
        arguments = {"question": question, "as_of": as_of, "laws": laws, "detail": detail}
        return shapes.AnswerOut.model_validate(
            self._page("ask", arguments, payload, ("sentences", "caveats", "references"), cursor))

    # the store -------------------------------------------------------------------------------------------------

    def laws(self, cursor: Cursor = None) -> shapes.StoredLaws:
        """The stored laws, each with its resource URI."""
        payload = {"laws": [{"law_id": i.law_id, "title": i.title, "law_num": i.law_num, "uri": law_uri(i.law_id)}
                            for i in self.lg.laws()]}
        return shapes.StoredLaws.model_validate(self._page("laws", {}, payload, ("laws",), cursor))

    def cypher(self, query: Annotated[str | None, Field(description="読み取り専用の Cypher 文（1 文）。"
                                                                    "書き込みは拒否される。")] = None,
               params: Annotated[dict[str, Any] | None, Field(description="クエリのパラメータ（$name で参照）。")]
               = None,
               schema: Annotated[bool, Field(description="クエリの代わりに、このストアのラベル・関係・プロパティ"
                                                         "（型・意味・例）と方言の違いを返す。")] = False,
               cursor: Cursor = None) -> shapes.QueryRows:
        """`lexgraph query CYPHER --json`: one read-only statement; a write is refused (QueryRefused).
        ``schema: true``: `lexgraph query --schema --json`, the labels, types and properties to write it with."""
        if schema:
            if query:
                raise InputError("give a query, or schema: true for the store's schema, not both")
            reference = self.lg.schema().to_json()
            entries = [*reference["labels"], *reference["relationships"]]  # a property a row: pages stay small
            payload = {"backend": reference["backend"], "notes": reference["notes"],
                       "labels": [{k: v for k, v in e.items() if k != "properties"} for e in entries],
                       "properties": [{"of": e["name"], **p} for e in entries for p in e["properties"]]}
            return shapes.QueryRows.model_validate(
                self._page("cypher", {"schema": True}, payload, ("labels", "properties"), cursor))
        if not query:
            raise InputError("query is required (one read-only Cypher statement), or schema: true for the store's "
                             "labels, relationship types and properties")
        rows = self.lg.query(query, params or {}, limit=MAX_ROWS + 1)  # one more says it was cut
        plain = json.loads(json.dumps(rows[:MAX_ROWS], ensure_ascii=False, default=str))
        payload = {"rows": plain, "truncated": len(rows) > MAX_ROWS}
        return shapes.QueryRows.model_validate(
            self._page("cypher", {"query": query, "params": params}, payload, ("rows",), cursor))

    def stats(self) -> shapes.StoreStats:
        """`lexgraph stats --json`: node counts per label, relationship counts per type."""
        return shapes.StoreStats.model_validate(self.lg.stats().to_json())


def citing_judgments(citations: list[dict[str, Any]], detail: str) -> list[dict[str, Any]]:
    """The documents citing a clause, each once, in the order they first cite it: how many times it cites the
    clause, with which words, which wordings (``detail: "full"``: each citation as `documents_citing` gives it)."""
    grouped: dict[str, dict[str, Any]] = {}
    for c in citations:
        entry = grouped.get(c["uid"])
        if entry is None:
            entry = grouped[c["uid"]] = {key: c.get(key) for key in ("kind", "uid", "name", "court", "date")}
            entry.update(citations=0, surfaces=[], revision_ids=[])
            if detail == "full":
                entry["each"] = []
        entry["citations"] += 1
        if c.get("surface") and c["surface"] not in entry["surfaces"]:
            entry["surfaces"].append(c["surface"])
        if c.get("revision_id") and c["revision_id"] not in entry["revision_ids"]:
            entry["revision_ids"].append(c["revision_id"])
        if detail == "full":
            entry["each"].append(c)
    for entry in grouped.values():
        if not entry["revision_ids"]:
            entry["revision_ids"] = None
    return list(grouped.values())
