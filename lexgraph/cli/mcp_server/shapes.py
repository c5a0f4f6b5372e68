"""What the MCP tools return: pydantic models, from which the SDK writes each tool's output JSON schema.

The fields an assistant decides by are typed here; the rest of the client's JSON (`to_json` of the library's
values) passes through as extra fields (``extra="allow"``), so that a field the library adds later reaches the
assistant without a change here and the schema never lies about what is there. A result is concise unless
``detail: "full"`` was asked (`tools`), and long lists come in pages (`pages`): so every field that a concise
result or a page may leave out is optional, and a field with no value is left out rather than sent as null.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ClauseStatus = Literal["in_force", "last_known", "unknown", "not_in_force"]
Detail = Literal["brief", "full"]


class Open(BaseModel):
    """A model that keeps the fields it does not name (the library's JSON may carry more)."""

    model_config = ConfigDict(extra="allow")


class Page(Open):
    """A result whose lists may come in pages."""

    total: dict[str, int] | None = Field(None, description="How many items each list holds in all pages.")
    next_cursor: str | None = Field(None, description="Present when a list continues: call the tool again with "
                                                      "the same arguments and cursor set to this.")


class ClauseAsOf(Open):
    """A clause on a day: its wording and where it comes from, or why the store cannot give one."""

    status: ClauseStatus = Field(description=(
        "in_force: the wording in force that day. last_known: the newest stored wording, but the store knows it "
        "in force only up to known_up_to, not on the day asked. unknown: the store cannot know the wording that "
        "day (amendments it does not hold). not_in_force: the clause was not in force then."))
    message: str | None = Field(None, description="Why the status is not in_force: the message `lexgraph law show` "
                                                  "prints for it.")
    law_id: str
    law_title: str
    clause: str = Field(description="The clause as a lawyer writes it (第四条, 第七百十条第一項).")
    path: str | None = Field(None, description="lexgraph's clause path (a4, a710/p1).")
    as_of: str = Field(description="The day asked (YYYY-MM-DD).")
    revision_id: str | None = Field(None, description="The stored revision the wording is read from.")
    uri: str | None = Field(None, description="The resource URI of this wording (law, clause path, revision).")
    caption: str | None = None
    text: str | None = Field(None, description="The clause's text, when there is a wording to give.")
    valid_from: str | None = Field(None, description="First day of this wording.")
    valid_until: str | None = Field(None, description="Day the next wording starts (null: open-ended).")
    known_up_to: str | None = Field(None, description="For open-ended wording: the last day the store knows it "
                                                      "in force (never 'today').")
    period: str | None = Field(None, description="The period as `lexgraph law show` prints it.")


class LawVersion(Open):
    revision_id: str
    period: str
    enforced_from: str | None = None
    enforced_until: str | None = Field(None, description="The next stored version's start; absent for the newest.")
    known_up_to: str | None = Field(None, description="For the newest version: how far the store knows it in "
                                                      "force.")
    known_until: str | None = Field(None, description="Set when amendments the store does not hold fall after this "
                                                      "version: changed clauses are unknown from this day.")


class LawVersions(Page):
    law_id: str
    title: str
    law_num: str | None = None
    versions: list[LawVersion]


class StoredLaw(BaseModel):
    law_id: str
    title: str
    law_num: str | None = None
    uri: str


class StoredLaws(Page):
    laws: list[StoredLaw]


class ClauseChange(Open):
    path: str
    clause: str
    status: Literal["added", "changed", "removed"]
    before: str | None = Field(None, description="The wording before (detail: full).")
    after: str | None = Field(None, description="The wording after (detail: full).")


class LawDiff(Page):
    law_id: str
    law_title: str
    from_revision: str
    to_revision: str
    added: int
    changed: int
    removed: int
    changes: list[ClauseChange]


class Citation(Open):
    start: int
    end: int
    surface: str
    kind: str = Field(description="statute or precedent.")
    status: str = Field(description="resolved, or why not (the reason field says more).")
    law_title: str | None = None
    law_id: str | None = None
    revision_id: str | None = Field(None, description="The revision in force on the citation day; absent when the "
                                                      "law is not stored.")
    uri: str | None = Field(None, description="The cited clause's resource URI, when it resolved to a stored "
                                              "revision.")


class Citations(Page):
    as_of: str = Field(description="The day the statutes were read as of.")
    as_of_source: str = Field(description="given, the date in the text, or today.")
    citations: list[Citation]


class ClauseLink(Open):
    surface: str = Field(description="The citing words.")
    law_id: str
    law_title: str
    path: str
    clause: str = Field(description="The clause at the far end, as a lawyer writes it.")
    near_path: str | None = Field(None, description="The clause (or the clause inside it) on this side of the link.")
    text: str | None = Field(None, description="The far end's wording that day (detail: full).")
    uri: str | None = None


class CitingJudgment(Open):
    """One precedent (or book, guideline) citing the clause, once however many of its chunks cite it."""

    kind: str
    uid: str
    name: str | None = None
    court: str | None = None
    date: str | None = None
    citations: int = Field(description="How many times its text cites the clause.")
    surfaces: list[str] = Field(description="The citing words, each once.")
    revision_ids: list[str] | None = Field(None, description="The wordings it cites; absent when none is stored.")


class ClauseLinks(Page):
    law_id: str
    law_title: str
    path: str
    clause: str
    as_of: str = Field(description="The day both sides of each link were read as of.")
    links: list[ClauseLink]


class CitedBy(Page):
    law_id: str
    law_title: str
    path: str
    clause: str
    as_of: str = Field(description="The day the citing clauses were read as of.")
    clauses: list[ClauseLink] = Field(description="Clauses of laws citing this clause (as of as_of).")
    documents: list[CitingJudgment] = Field(description="Precedents, books and guidelines citing it, each once "
                                                        "(any wording unless as_of was given).")


class Precedent(Page):
    uid: str
    chunks: int
    cites_clauses: list[dict[str, Any]]
    cites_precedents: list[dict[str, Any]]
    cited_by: list[dict[str, Any]]


class SearchHit(Open):
    title: str
    score: float
    snippet: str | None = Field(None, description="The first line of the text (detail: brief).")
    text: str | None = Field(None, description="The whole text (detail: full).")


class SearchResult(Page):
    question: str
    mode: str
    clauses: list[SearchHit]
    chunks: list[SearchHit]
    evidence: list[SearchHit] | None = Field(None, description="Evidence the citation graph selects (evidence: "
                                                               "true).")
    unembedded: Literal["suppl"] | None = Field(
        None, description="suppl: the dense list holds the main text only, since this index gives 附則 clauses no "
                          "vectors (search them with mode bm25 or hybrid); absent when the list can hold every clause.")


class AnswerOut(Page):
    question: str
    label: str = Field(description="What kind of answer this is: a model's, or extractive (no model configured).")
    extractive: bool
    model: str | None = None
    as_of: str


class QueryRows(Page):
    rows: list[dict[str, Any]] | None = Field(None, description="The rows of the query.")
    truncated: bool | None = Field(None, description="True when more rows matched than the tool reads (200).")
    backend: str | None = Field(None, description="schema: true: the store's backend (embedded or neo4j); its "
                                                  "Cypher dialect is told in notes.")
    labels: list[dict[str, Any]] | None = Field(None, description="schema: true: each label and relationship type "
                                                                  "(kind, meaning, a relationship's ends).")
    properties: list[dict[str, Any]] | None = Field(None, description="schema: true: each property: of (its label or "
                                                                      "type), name, type, meaning, example.")


class StoreStats(BaseModel):
    nodes: dict[str, int]
    relationships: dict[str, int]
