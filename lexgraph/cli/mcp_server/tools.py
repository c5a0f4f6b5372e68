"""The MCP tools: each a thin face over one `LexGraph` method, as a CLI command is, returning a typed shape.

Every tool reads; none writes. The store is opened read-only (`LexGraph.open(..., read_only=True)`), `ask` records
no turn in the graph, and `cypher` runs through `LexGraph.query`, which refuses a statement that writes. A tool
that fails raises the library's error; the server turns it into an error result with the CLI's message
(`failures`). The one exception is a clause that is not in force or whose wording the store cannot know: that is
an answer, not a failure, and `clause_as_of` returns it with its status and the CLI's message.
"""

from __future__ import annotations

import json
import os
from datetime import date
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

from lexgraph import AskOptions, InputError, LexGraph, NotFound, NotInForce, SearchOptions, WordingUnknown
from lexgraph.cli.law import _version_json as version_json
from lexgraph.cli.law import beyond_knowledge_note
from lexgraph.cli.mcp_server import shapes
from lexgraph.cli.mcp_server.uris import clause_uri, law_uri
from lexgraph.cli.output import iso
from lexgraph.dates import DATE_FORMS, DateFormatError, parse_day
from lexgraph.index.units import UNIT_KINDS
from lexgraph.model import as_of_day
from lexgraph.numerals import clause_label
from lexgraph.read.citing import citation_day
from lexgraph.read.documents import DOCUMENT_KINDS
from lexgraph.read.laws import clause_path
from lexgraph.retrieve.modes import DEFAULT_MODE as DEFAULT_SEARCH_MODE
from lexgraph.retrieve.options import MODES as SEARCH_MODES

#: At most this many rows come back from `cypher`: an assistant's context is not a place for a whole table.
MAX_ROWS = 200

Law = Annotated[str, Field(description="法令名・略称・法令番号・法令ID のいずれか（例: 民法, 129AC0000000089）。")]
Clause = Annotated[str, Field(description="条項（例: 第七百九条, 709条, 第七百十条第一項, a710/p1）。")]
AsOf = Annotated[str | None, Field(description=f"基準日（{DATE_FORMS}）。省略時は今日。")]
Laws = Annotated[list[str] | None, Field(description="この法令に限る（法令名・略称・法令ID、複数可）。")]


def day_of(text: str | None, field: str = "as_of") -> date | None:
    """A date argument: None when not given; a `DateFormatError` naming the argument when it cannot be read."""
    if text is None or not text.strip():
        return None
    try:
        return parse_day(text)
    except DateFormatError as error:
        raise DateFormatError(f"{field}: {error}") from error


class Tools:
    """The tools over one open, read-only handle. Each method is a tool; its docstring is for Python readers, the
    Japanese description an assistant chooses by is given where it is registered (`server.TOOLS`)."""

    def __init__(self, lg: LexGraph) -> None:
        self.lg = lg

    def clause_as_of(self, law: Law, clause: Clause, as_of: AsOf = None) -> shapes.ClauseAsOf:
        """`lexgraph law show LAW CLAUSE --as-of DAY`, with "not in force" and "unknown" as statuses."""
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
        found = self.clause_as_of(law, clause, day.isoformat())
        if found.status == "not_in_force" or found.status == "unknown":
            raise NotInForce(found.message or f"{clause} is not in revision {revision_id}")
        if found.revision_id != revision_id:
            raise NotFound(f"{clause} on {day} reads from revision {found.revision_id}, not {revision_id}")
        return found

    def law_versions(self, law: Law) -> shapes.LawVersions:
        """`lexgraph law versions LAW --json`, each version as that command writes it."""
        info = self.lg.law(law)
        versions = [shapes.LawVersion.model_validate(version_json(v)) for v in self.lg.versions(law)]
        return shapes.LawVersions.model_validate({"law_id": info.law_id, "title": info.title, "law_num": info.law_num,
                                                  "versions": versions, "uri": law_uri(info.law_id)})

    def law_diff(
        self, law: Law,
        from_day: Annotated[str, Field(description=f"比較の始めの日（{DATE_FORMS}）。")],
        to_day: Annotated[str, Field(description=f"比較の終わりの日（{DATE_FORMS}）。")],
        level: Annotated[str, Field(description="article（条単位）または all（項・号まで）。",
                                    json_schema_extra={"enum": ["article", "all"]})] = "article",
    ) -> shapes.LawDiff:
        """`lexgraph law diff LAW --from D1 --to D2 --json`."""
        start, end = day_of(from_day, "from_day"), day_of(to_day, "to_day")
        if start is None or end is None:
            raise InputError("from_day and to_day are both needed (YYYY-MM-DD)")
        if level not in ("article", "all"):
            raise InputError("level is article or all")
        payload = self.lg.diff(law, start, end, level=level).to_json()
        payload["changes"] = [{**c, "clause": clause_label(c["path"])} for c in payload["changes"]]
        return shapes.LawDiff.model_validate(payload)

    def cite(
        self,
        text: Annotated[str, Field(description="引用を探す文章（判決文、契約書、条文など）。")],
        as_of: Annotated[str | None, Field(description=f"法令を読む基準日（{DATE_FORMS}）。省略時は文中の判決日、"
                                                       "なければ今日。")] = None,
        in_law: Annotated[str | None, Field(description="文章がこの法令の条文であるとき、その法令"
                                                        "（前条・同法の解決用）。")] = None,
        at: Annotated[str | None, Field(description="文章がその条文であるとき、その条（例: 第二十一条第二項）。")]
        = None,
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
            citations.append(entry)
        return shapes.Citations(as_of=day.isoformat(), as_of_source=why, citations=citations)  # type: ignore[arg-type]

    def cites(self, law: Law, clause: Clause, as_of: AsOf = None) -> shapes.ClauseLinks:
        """`lexgraph law cites LAW CLAUSE --json`: what the clause cites, both sides as worded on the day."""
        found = self.lg.cites(law, clause, as_of=day_of(as_of))
        return shapes.ClauseLinks(law_id=found.law.law_id, law_title=found.law.title, path=found.path,
                                  clause=clause_label(found.path), as_of=found.as_of.isoformat(),
                                  links=self._links(found.to_json()["links"], found.as_of))

    def cited_by(self, law: Law, clause: Clause,
                 as_of: Annotated[str | None, Field(description=f"基準日（{DATE_FORMS}）。条文の引用元はこの日の"
                                                    "文言で（省略時は今日）、判例・文献はこの日の文言を引用するものに"
                                                    "限る（省略時はどの版でも）。")] = None,
                 kind: Annotated[str, Field(description="判例・文献の種類: document（すべて）, precedent, book, "
                                            "guideline, other。",
                                            json_schema_extra={"enum": ["document", *DOCUMENT_KINDS]})] = "document",
                 ) -> shapes.CitedBy:
        """`lexgraph law cited-by LAW CLAUSE` (clauses) and `--kind document` (precedents and literature), in one."""
        if kind != "document" and kind not in DOCUMENT_KINDS:
            raise InputError(f"kind is document or one of {', '.join(DOCUMENT_KINDS)}, not {kind!r}")
        day = day_of(as_of)
        found = self.lg.cited_by(law, clause, as_of=day)
        kinds = DOCUMENT_KINDS if kind == "document" else (kind,)
        documents = self.lg.documents_citing(law, clause, as_of=day, kinds=kinds)
        return shapes.CitedBy(law_id=found.law.law_id, law_title=found.law.title, path=found.path,
                              clause=clause_label(found.path), as_of=found.as_of.isoformat(),
                              clauses=self._links(found.to_json()["links"], found.as_of),
                              documents=[shapes.CitingDocument.model_validate(d.to_json()) for d in documents])

    def _links(self, links: list[dict[str, Any]], day: date) -> list[shapes.ClauseLink]:
        out = []
        revisions: dict[str, str | None] = {}  # per law: most links of a clause point into one or two laws
        for link in links:
            if link["law_id"] not in revisions:
                revisions[link["law_id"]] = self._revision_on(link["law_id"], day)
            revision = revisions[link["law_id"]]
            uri = clause_uri(link["law_id"], link["path"], revision) if revision else None
            out.append(shapes.ClauseLink.model_validate({**link, "uri": uri}))
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
                                                   "（91244）、事件名（原状回復等請求事件）、通称（三菱樹脂事件）。")]
                  ) -> shapes.Precedent:
        """`lexgraph precedent show CASE --json`."""
        return shapes.Precedent.model_validate(self.lg.precedent(case).to_json())

    def search(
        self,
        question: Annotated[str, Field(description="質問（日本語）。")],
        mode: Annotated[str, Field(description=f"検索方式（既定は {DEFAULT_SEARCH_MODE}）。",
                                   json_schema_extra={"enum": list(SEARCH_MODES)})] = DEFAULT_SEARCH_MODE,
        laws: Laws = None,
        as_of: Annotated[str | None, Field(description=f"この日に施行中の文言だけを探す（{DATE_FORMS}）。省略時は"
                                                       "すべての版。")] = None,
        kind: Annotated[str | None, Field(description="provision（条文）または chunk（判例・文献の断片）。"
                                                      "省略時は両方。",
                                          json_schema_extra={"enum": list(UNIT_KINDS)})] = None,
        k: Annotated[int, Field(description="返す条文・断片の数。", ge=1, le=50)] = 10,
    ) -> shapes.SearchResult:
        """`lexgraph search QUESTION --json`."""
        if kind is not None and kind not in UNIT_KINDS:
            raise InputError(f"kind must be one of {', '.join(UNIT_KINDS)}, not {kind!r}")
        day = day_of(as_of)
        options = SearchOptions(mode=mode, k=k)
        result = self.lg.search(question, as_of=day, laws=laws or (),
                                kind=kind, options=options)  # type: ignore[arg-type]
        return shapes.SearchResult.model_validate(result.to_json())

    def ask(self, question: Annotated[str, Field(description="法律の質問（日本語）。")], as_of: AsOf = None,
            laws: Laws = None) -> shapes.AnswerOut:
        """`lexgraph ask QUESTION --json`, recording nothing in the store: the model configured in the environment
        (LEXGRAPH_LLM_MODEL, OPENAI_BASE_URL) answers, or the answer is extractive and labelled so. The turn goes
        to LEXGRAPH_TURN_LOG when it is set, and nowhere otherwise (never into the store's folder)."""
        log = Path(os.environ["LEXGRAPH_TURN_LOG"]) if os.environ.get("LEXGRAPH_TURN_LOG") else Path(os.devnull)
        answer = self.lg.ask(question, options=AskOptions(), as_of=day_of(as_of), laws=laws or (), log=log,
                             record=False)
        return shapes.AnswerOut.model_validate(answer.to_json())

    def laws(self) -> shapes.StoredLaws:
        """The stored laws, each with its resource URI."""
        return shapes.StoredLaws(laws=[shapes.StoredLaw(law_id=i.law_id, title=i.title, law_num=i.law_num,
                                                        uri=law_uri(i.law_id)) for i in self.lg.laws()])

    def cypher(self, query: Annotated[str, Field(description="読み取り専用の Cypher 文（1 文）。"
                                                             "書き込みは拒否される。")],
               params: Annotated[dict[str, Any] | None, Field(description="クエリのパラメータ（$name で参照）。")]
               = None) -> shapes.QueryRows:
        """`lexgraph query CYPHER --json`: one read-only statement; a write is refused (ReadOnlyViolation)."""
        rows = self.lg.query(query, params or {}, limit=MAX_ROWS + 1)  # one more says it was cut
        plain = json.loads(json.dumps(rows[:MAX_ROWS], ensure_ascii=False, default=str))
        return shapes.QueryRows(rows=plain, truncated=len(rows) > MAX_ROWS)

    def stats(self) -> shapes.StoreStats:
        """`lexgraph stats --json`: node counts per label, relationship counts per type."""
        return shapes.StoreStats.model_validate(self.lg.stats().to_json())
