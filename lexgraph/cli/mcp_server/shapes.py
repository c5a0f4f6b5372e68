"""What the MCP tools return: pydantic models, from which the SDK writes each tool's output JSON schema.

The fields an assistant decides by are typed here; the rest of the client's JSON (`to_json` of the library's
values) passes through as extra fields (``extra="allow"``), so that a field the library adds later reaches the
assistant without a change here and the schema never lies about what is there.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

ClauseStatus = Literal["in_force", "last_known", "unknown", "not_in_force"]


class Open(BaseModel):
    """A model that keeps the fields it does not name (the library's JSON may carry more)."""

    model_config = ConfigDict(extra="allow")


class ClauseAsOf(BaseModel):
    """A clause on a day: its wording and where it comes from, or why the store cannot give one."""

    status: ClauseStatus = Field(description=(
        "in_force: the wording in force that day. last_known: the newest stored wording, but the store knows it "
        "in force only up to known_up_to, not on the day asked. unknown: the store cannot know the wording that "
        "day (amendments it does not hold). not_in_force: the clause did not exist or was not in force then."))
    message: str | None = Field(None, description="Why the status is not in_force: the message `lexgraph law show` "
                                                  "prints for it.")
    law_id: str
    law_title: str
    clause: str = Field(description="The clause as a lawyer writes it (第四条, 第七百十条第一項).")
    path: str = Field(description="lexgraph's clause path (a4, a710/p1).")
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
    enforced_from: str | None
    enforced_until: str | None = Field(description="The next stored version's start; null for the newest.")
    known_up_to: str | None = Field(description="For the newest version: how far the store knows it in force.")
    known_until: str | None = Field(description="Set when amendments the store does not hold fall after this "
                                                "version: changed clauses are unknown from this day.")
    period: str


class LawVersions(Open):
    law_id: str
    title: str
    law_num: str | None = None
    versions: list[LawVersion]


class StoredLaw(BaseModel):
    law_id: str
    title: str
    law_num: str | None = None
    uri: str


class StoredLaws(BaseModel):
    laws: list[StoredLaw]


class ClauseChange(Open):
    path: str
    clause: str
    status: Literal["added", "changed", "removed"]
    before: str | None
    after: str | None


class LawDiff(Open):
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
    revision_id: str | None = Field(None, description="The revision in force on the citation day; empty when the "
                                                      "law is not stored.")
    uri: str | None = Field(None, description="The cited clause's resource URI, when it resolved to a stored "
                                              "revision.")


class Citations(BaseModel):
    as_of: str = Field(description="The day the statutes were read as of.")
    as_of_source: str = Field(description="given, the date in the text, or today.")
    citations: list[Citation]


class ClauseLink(Open):
    near_path: str = Field(description="The clause (or the clause inside it) on this side of the link.")
    surface: str = Field(description="The citing words.")
    law_id: str
    law_title: str
    path: str
    text: str
    uri: str | None = None


class CitingDocument(Open):
    kind: str
    uid: str
    name: str | None = None
    court: str | None = None
    date: str | None = None
    surface: str
    path: str | None = None
    revision_id: str | None = Field(None, description="The wording the document cites; null when not stored.")


class ClauseLinks(BaseModel):
    law_id: str
    law_title: str
    path: str
    clause: str
    as_of: str = Field(description="The day both sides of each link were read as of.")
    links: list[ClauseLink]


class CitedBy(BaseModel):
    law_id: str
    law_title: str
    path: str
    clause: str
    as_of: str = Field(description="The day the citing clauses were read as of.")
    clauses: list[ClauseLink] = Field(description="Clauses of laws citing this clause (as of as_of).")
    documents: list[CitingDocument] = Field(description="Precedents, books and guidelines citing it (any wording "
                                                        "unless as_of was given).")


class Precedent(Open):
    uid: str
    chunks: int
    cites_clauses: list[dict[str, Any]]
    cites_precedents: list[dict[str, Any]]
    cited_by: list[dict[str, Any]]


class SearchHit(Open):
    uid: str
    title: str
    text: str
    score: float


class SearchResult(Open):
    question: str
    mode: str
    clauses: list[dict[str, Any]]
    chunks: list[dict[str, Any]]
    evidence: list[SearchHit]


class AnswerOut(Open):
    question: str
    label: str = Field(description="What kind of answer this is: a model's, or extractive (no model configured).")
    extractive: bool
    model: str | None
    as_of: str


class QueryRows(BaseModel):
    rows: list[dict[str, Any]]
    truncated: bool = Field(description="True when more rows matched than were returned.")


class StoreStats(BaseModel):
    nodes: dict[str, int]
    relationships: dict[str, int]
