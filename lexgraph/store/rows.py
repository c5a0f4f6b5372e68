"""The columns of every named query (``lexgraph/cypher``), declared once, so that a caller reads a row's fields by
attribute and mypy checks each name.

A named query is run through `GraphStore.rows` / `Transaction.rows` with its `Query` constant here
(``store.rows(LAW_BY_ID, law_id=...)``), which returns its row type: one ``NamedTuple`` per shape of RETURN,
shared by the queries that return the same columns in the same order. Its fields are the RETURN's aliases in the
RETURN's order; tests/test_store_rows.py runs every query on both backends and checks that the engine's columns
are exactly these. A ``NamedTuple`` is built from the engine's dict in one call and read by a C-level field
getter, so a typed row costs about what the dict did; ``_asdict()`` gives the dict back where a row travels on as
one (a JSON payload). Values are ``Any``: a column's type is the store's (dates as `datetime.date`, lists as
lists), and several columns are null on one row and set on the next.

Queries that only write (`WRITES`) return no rows and are run with ``query``. The user's own Cypher (`lexgraph
query`) is not a named query: its rows stay plain dicts.
"""

from __future__ import annotations

from typing import Any, Generic, NamedTuple, TypeVar

R = TypeVar("R", bound=tuple[Any, ...], covariant=True)


class Query(Generic[R]):
    """A named query and the type of its rows (covariant: a query of `LawByIdRow` is one of a union holding it)."""

    __slots__ = ("name", "row")

    def __init__(self, name: str, row: type[R]) -> None:
        self.name = name
        self.row = row

    def __repr__(self) -> str:
        return f"Query({self.name!r}, {self.row.__name__})"

    def typed(self, rows: list[dict[str, Any]]) -> list[R]:
        """The engine's dicts for this query as its row type: the one conversion every `rows` method makes."""
        make = self.row
        return [make(**row) for row in rows]


class ChunksCitationsRow(NamedTuple):
    """chunks_citations."""

    chunk: Any
    target: Any
    label: Any
    law_id: Any
    path: Any

class ClauseWordingsAllRow(NamedTuple):
    """clause_wordings_all."""

    uid: Any
    path: Any
    valid_from: Any
    valid_until: Any

class ClauseWordingsOnRow(NamedTuple):
    """clause_wordings_on."""

    uid: Any
    path: Any

class DoctorDisputedVersionsRow(NamedTuple):
    """doctor_disputed_versions."""

    law_id: Any
    revision_id: Any
    gap: Any

class DoctorEmptyVersionsRow(NamedTuple):
    """doctor_empty_versions."""

    revision_id: Any

class DoctorLargestVersionRow(NamedTuple):
    """doctor_largest_version."""

    revision_id: Any
    clauses: Any

class DoctorOldParserRow(NamedTuple):
    """doctor_old_parser."""

    law_id: Any
    revision_id: Any
    source: Any

class UidRow(NamedTuple):
    """doctor_orphan_chunks, doctor_orphan_provisions, owner_chunks."""

    uid: Any

class DoctorOverlappingVersionsRow(NamedTuple):
    """doctor_overlapping_versions."""

    first: Any
    second: Any

class DoctorStubCountRow(NamedTuple):
    """doctor_stub_count."""

    stubs: Any

class EvidenceItemsRow(NamedTuple):
    """evidence_items."""

    label: Any
    uid: Any
    law_title: Any
    law_id: Any
    path: Any
    caption: Any
    text: Any
    valid_from: Any
    valid_until: Any
    court: Any
    date: Any
    case_number: Any
    case_name: Any
    summary: Any
    stub: Any

class ArticleLinkRow(NamedTuple):
    """graph_article_cited_by, graph_article_cites."""

    near_path: Any
    near_from: Any
    near_until: Any
    law_id: Any
    path: Any
    valid_from: Any
    valid_until: Any

class GraphArticleCitedByDocumentsRow(NamedTuple):
    """graph_article_cited_by_documents."""

    label: Any
    uid: Any
    date: Any
    rel: Any
    path: Any
    count: Any

class ClauseTextRow(NamedTuple):
    """graph_articles_of_law, index_law_provisions."""

    uid: Any
    law_id: Any
    path: Any
    kind: Any
    title: Any
    caption: Any
    text: Any
    valid_from: Any
    valid_until: Any

class CitedClauseCountRow(NamedTuple):
    """graph_document_cites, graph_precedent_cites."""

    rel: Any
    law_id: Any
    path: Any
    count: Any

class CitedPrecedentCountRow(NamedTuple):
    """graph_document_cites_precedents, graph_precedent_cites_precedents."""

    uid: Any
    date: Any
    count: Any

class GraphDocumentsRow(NamedTuple):
    """graph_documents."""

    uid: Any
    kind: Any
    title: Any
    date: Any
    source: Any

class GraphPrecedentCitedByRow(NamedTuple):
    """graph_precedent_cited_by."""

    label: Any
    uid: Any
    date: Any
    count: Any

class GraphPrecedentsRow(NamedTuple):
    """graph_precedents."""

    uid: Any
    court: Any
    date: Any
    decision_type: Any
    case_number: Any
    case_name: Any
    reporter: Any
    stub: Any

class GraphProvisionRow(NamedTuple):
    """graph_provision."""

    uid: Any
    law_id: Any
    path: Any
    kind: Any

class IndexChunkLawsRow(NamedTuple):
    """index_chunk_laws."""

    uid: Any
    law_id: Any

class IndexChunkStateRow(NamedTuple):
    """index_chunk_state."""

    owner_uid: Any
    owner_hash: Any

class ChunkUnitRow(NamedTuple):
    """index_document_chunks, index_precedent_chunks."""

    uid: Any
    text: Any
    section: Any
    seq: Any
    owner_uid: Any
    owner_kind: Any
    owner_title: Any
    day: Any
    owner_hash: Any

class IndexLawStateRow(NamedTuple):
    """index_law_state."""

    law_id: Any
    title: Any
    revision_id: Any
    content_hash: Any
    known_until: Any

class KnowledgeClausesRow(NamedTuple):
    """knowledge_clauses."""

    knowledge: Any
    basis: Any
    law_id: Any
    path: Any
    uid: Any

class KnowledgeEntriesRow(NamedTuple):
    """knowledge_entries."""

    uid: Any
    schema_version: Any
    title: Any
    contract_types: Any
    problem_pattern: Any
    risk: Any
    recommended_clause: Any
    note: Any
    legal_basis: Any
    created_at: Any
    contract_type: Any
    issue: Any
    recommendation: Any

class LawByIdRow(NamedTuple):
    """law_by_id."""

    law_id: Any
    title: Any
    law_num: Any
    law_type: Any
    aliases: Any
    kana: Any
    promulgated: Any
    enact_statement: Any
    synced_on: Any
    repealed_on: Any

class LawCitesOutRow(NamedTuple):
    """law_cites_laws_out, law_cites_out."""

    from_uid: Any
    to_uid: Any

class LawCitesSpansRow(NamedTuple):
    """law_cites_spans."""

    from_uid: Any
    char_start: Any
    char_end: Any
    to_law: Any
    to_path: Any

class LawsCitesSpansRow(NamedTuple):
    """laws_cites_spans."""

    law_id: Any
    from_uid: Any
    char_start: Any
    char_end: Any
    to_law: Any
    to_path: Any

class LawsCitingSentencesRow(NamedTuple):
    """laws_citing_sentences."""

    law_id: Any
    uid: Any
    kind: Any
    sentences: Any

class LawHasPartRow(NamedTuple):
    """law_has_part."""

    parent: Any
    child: Any

class LawNextLinksRow(NamedTuple):
    """law_next_links."""

    earlier: Any
    later: Any

class LawProvisionSentencesRow(NamedTuple):
    """law_provision_sentences."""

    uid: Any
    kind: Any
    sentences: Any

class ClauseSpanRow(NamedTuple):
    """law_provision_spans, provision_spans_of_path."""

    uid: Any
    path: Any
    kind: Any
    seq: Any
    valid_from: Any
    valid_until: Any
    heading: Any

class LawVersionRow(NamedTuple):
    """law_version_on, law_versions."""

    revision_id: Any
    law_id: Any
    enforced_from: Any
    enforced_until: Any
    amended_by: Any
    source: Any
    dated_by: Any
    known_in_force_on: Any
    known_until: Any
    gap: Any
    amendments: Any
    parser: Any
    scheduled: Any

class LawVersionProvisionsRow(NamedTuple):
    """law_version_provisions."""

    revision_id: Any
    uid: Any
    path: Any
    kind: Any
    num: Any
    title: Any
    caption: Any
    heading: Any
    text: Any
    sentences: Any
    seq: Any
    valid_from: Any
    valid_until: Any
    content_hash: Any

class LawVersionTitlesRow(NamedTuple):
    """law_version_titles."""

    law_id: Any
    law_title: Any
    title: Any
    enforced_from: Any

class LawVersionsForLawsRow(NamedTuple):
    """law_versions_for_laws."""

    law_id: Any
    revision_id: Any
    enforced_from: Any
    enforced_until: Any
    amended_by: Any
    source: Any
    dated_by: Any
    known_in_force_on: Any
    known_until: Any
    gap: Any
    amendments: Any
    parser: Any
    scheduled: Any
    content_hash: Any
    xml_format: Any
    title: Any

class LawsAllRow(NamedTuple):
    """laws_all."""

    law_id: Any
    title: Any
    law_num: Any
    law_type: Any
    aliases: Any
    kana: Any
    promulgated: Any
    enact_statement: Any
    repealed_on: Any

class LawsByNameRow(NamedTuple):
    """laws_by_name."""

    law_id: Any
    title: Any
    law_num: Any
    law_type: Any
    aliases: Any
    kana: Any
    promulgated: Any
    repealed_on: Any

class LawCitingCountRow(NamedTuple):
    """laws_citing_counts."""

    law_id: Any
    citing: Any

class LawIdRow(NamedTuple):
    """laws_citing, laws_unlinked."""

    law_id: Any

class LawsSyncedRow(NamedTuple):
    """laws_synced."""

    law_id: Any
    synced_on: Any

class OwnerRollupsRow(NamedTuple):
    """owner_rollups."""

    owner_label: Any
    rel_type: Any
    to_uid: Any

class OwnerStateRow(NamedTuple):
    """owner_state."""

    precedent_hash: Any
    stub: Any
    document_hash: Any

class PrecedentRow(NamedTuple):
    """precedent_by_uid, precedents_by_case_name, precedents_by_case_number."""

    uid: Any
    court: Any
    date: Any
    decision_type: Any
    case_number: Any
    case_name: Any
    reporter: Any
    holdings: Any
    summary: Any
    referenced: Any
    source: Any
    stub: Any
    problems: Any

class PrecedentCitedByRow(NamedTuple):
    """precedent_cited_by."""

    uid: Any
    chunks: Any
    surface: Any

class PrecedentCitedByChunksRow(NamedTuple):
    """precedent_cited_by_chunks."""

    from_uid: Any
    surface: Any
    char_start: Any
    char_end: Any
    part: Any
    status: Any
    extractor: Any
    mentions: Any

class PrecedentCitesClausesRow(NamedTuple):
    """precedent_cites_clauses."""

    law_title: Any
    law_id: Any
    path: Any
    clause_uid: Any
    chunks: Any
    surface: Any

class PrecedentCitesPrecedentsRow(NamedTuple):
    """precedent_cites_precedents."""

    uid: Any
    court: Any
    date: Any
    decision_type: Any
    case_number: Any
    stub: Any
    chunks: Any
    surface: Any

class PrecedentsOnRow(NamedTuple):
    """precedents_on."""

    uid: Any
    court: Any
    decision_type: Any
    case_number: Any
    stub: Any

class ProvisionRow(NamedTuple):
    """provision_as_of, provision_by_uid."""

    uid: Any
    path: Any
    kind: Any
    num: Any
    title: Any
    caption: Any
    heading: Any
    text: Any
    sentences: Any
    seq: Any
    valid_from: Any
    valid_until: Any
    content_hash: Any

class ProvisionChildrenRow(NamedTuple):
    """provision_children."""

    uid: Any
    path: Any
    kind: Any
    title: Any
    text: Any
    seq: Any

class GraphLawCitedByRow(NamedTuple):
    """graph_law_cited_by."""

    law_id: Any
    path: Any
    valid_from: Any
    valid_until: Any

class GraphArticleCitesLawsRow(NamedTuple):
    """graph_article_cites_laws."""

    near_path: Any
    near_from: Any
    near_until: Any
    law_id: Any

class LawCountRow(NamedTuple):
    """graph_document_cites_laws, graph_precedent_cites_laws."""

    law_id: Any
    count: Any

class LawCitedByClausesRow(NamedTuple):
    """law_cited_by_clauses."""

    surface: Any
    part: Any
    mentions: Any
    uid: Any
    law_id: Any
    law_title: Any
    path: Any
    kind: Any
    text: Any
    valid_from: Any
    valid_until: Any

class LawCitedByDocumentsRow(NamedTuple):
    """law_cited_by_documents."""

    label: Any
    uid: Any
    kind: Any
    title: Any
    case_name: Any
    case_number: Any
    court: Any
    decision_type: Any
    date: Any
    chunk_uid: Any
    surface: Any

class ProvisionCitedByRow(NamedTuple):
    """provision_cited_by."""

    to_path: Any
    surface: Any
    part: Any
    mentions: Any
    uid: Any
    law_id: Any
    law_title: Any
    path: Any
    kind: Any
    text: Any
    valid_from: Any
    valid_until: Any

class ProvisionCitedByDocumentsRow(NamedTuple):
    """provision_cited_by_documents."""

    label: Any
    uid: Any
    kind: Any
    title: Any
    case_name: Any
    case_number: Any
    court: Any
    decision_type: Any
    date: Any
    chunk_uid: Any
    surface: Any
    clause_uid: Any
    path: Any
    valid_from: Any
    valid_until: Any

class ProvisionCitesRow(NamedTuple):
    """provision_cites."""

    from_path: Any
    surface: Any
    part: Any
    mentions: Any
    char_start: Any
    uid: Any
    law_id: Any
    law_title: Any
    path: Any
    kind: Any
    text: Any
    valid_from: Any
    valid_until: Any

class ProvisionHistoryRow(NamedTuple):
    """provision_history."""

    uid: Any
    path: Any
    kind: Any
    num: Any
    title: Any
    caption: Any
    heading: Any
    text: Any
    sentences: Any
    seq: Any
    valid_from: Any
    valid_until: Any
    content_hash: Any
    revision_ids: Any

class ProvisionPeriodsRow(NamedTuple):
    """provision_periods."""

    uid: Any
    valid_from: Any
    valid_until: Any

class ProvisionSpansOfPathsRow(NamedTuple):
    """provision_spans_of_paths."""

    law_id: Any
    uid: Any
    path: Any
    kind: Any
    seq: Any
    valid_from: Any
    valid_until: Any
    heading: Any

class ProvisionsInVersionRow(NamedTuple):
    """provisions_in_version."""

    uid: Any
    path: Any
    kind: Any
    num: Any
    title: Any
    caption: Any
    heading: Any
    text: Any
    seq: Any
    valid_from: Any
    valid_until: Any
    content_hash: Any

class RdfLawCitationsRow(NamedTuple):
    """rdf_law_citations."""

    path: Any
    valid_from: Any
    to_law_id: Any
    to_path: Any
    to_valid_from: Any

class RdfLawWordingsRow(NamedTuple):
    """rdf_law_wordings."""

    uid: Any
    path: Any
    kind: Any
    valid_from: Any
    valid_until: Any
    revision_id: Any
    law_title: Any

class IndexCollectionTermsRow(NamedTuple):
    """index_collection_terms."""

    token_count: Any
    terms: Any
    term_counts: Any

class SearchHitRow(NamedTuple):
    """index_exact_chunks, index_exact_provisions, index_vector_search."""

    uid: Any
    score: Any
    label: Any
    part: Any
    law_id: Any
    laws: Any
    path: Any
    title: Any
    text: Any
    owner_uid: Any
    owner_kind: Any
    valid_from: Any
    valid_until: Any

class IndexLawTermsRow(NamedTuple):
    """index_law_terms."""

    name: Any
    token_count: Any
    terms: Any
    term_counts: Any

class IndexFilesRow(NamedTuple):
    """index_files."""

    name: Any
    sha256: Any
    size: Any
    chunks: Any
    format: Any
    tokenizer: Any
    graph: Any

class IndexFileChunksRow(NamedTuple):
    """index_file_chunks."""

    seq: Any
    data: Any

class DatabaseIdentityRow(NamedTuple):
    """database_identity."""

    id: Any
    name: Any

class IndexFileChunkSizesRow(NamedTuple):
    """index_file_chunk_sizes."""

    seq: Any
    size: Any

class IndexPartsRow(NamedTuple):
    """index_parts."""

    name: Any
    fingerprint: Any
    rows: Any
    built_at: Any
    embedder: Any
    tokenizer: Any
    dim: Any
    suppl_vectors: Any

class IndexSearchRow(NamedTuple):
    """index_search."""

    kind: Any
    text: Any
    nearest: Any
    details: Any

class IndexUnitsByUidRow(NamedTuple):
    """index_units_by_uid."""

    uid: Any
    label: Any
    part: Any
    law_id: Any
    laws: Any
    path: Any
    title: Any
    text: Any
    owner_uid: Any
    owner_kind: Any
    valid_from: Any
    valid_until: Any
    cites: Any

class IndexUnitsUnderRow(NamedTuple):
    """index_units_under."""

    uid: Any
    label: Any
    part: Any
    law_id: Any
    laws: Any
    path: Any
    title: Any
    text: Any
    owner_uid: Any
    owner_kind: Any
    valid_from: Any
    valid_until: Any

class IndexVectorIndexesRow(NamedTuple):
    """index_vector_indexes."""

    name: Any
    labels: Any
    properties: Any
    dimensions: Any
    state: Any
    quantized: Any

class IndexVectorsByUidRow(NamedTuple):
    """index_vectors_by_uid."""

    uid: Any
    embedding: Any

CHUNKS_CITATIONS = Query("chunks_citations", ChunksCitationsRow)
CLAUSE_WORDINGS_ALL = Query("clause_wordings_all", ClauseWordingsAllRow)
CLAUSE_WORDINGS_ON = Query("clause_wordings_on", ClauseWordingsOnRow)
DOCTOR_DISPUTED_VERSIONS = Query("doctor_disputed_versions", DoctorDisputedVersionsRow)
DOCTOR_EMPTY_VERSIONS = Query("doctor_empty_versions", DoctorEmptyVersionsRow)
DOCTOR_LARGEST_VERSION = Query("doctor_largest_version", DoctorLargestVersionRow)
DOCTOR_OLD_PARSER = Query("doctor_old_parser", DoctorOldParserRow)
DOCTOR_ORPHAN_CHUNKS = Query("doctor_orphan_chunks", UidRow)
DOCTOR_ORPHAN_PROVISIONS = Query("doctor_orphan_provisions", UidRow)
DOCTOR_OVERLAPPING_VERSIONS = Query("doctor_overlapping_versions", DoctorOverlappingVersionsRow)
DOCTOR_STUB_COUNT = Query("doctor_stub_count", DoctorStubCountRow)
EVIDENCE_ITEMS = Query("evidence_items", EvidenceItemsRow)
GRAPH_ARTICLE_CITED_BY = Query("graph_article_cited_by", ArticleLinkRow)
GRAPH_ARTICLE_CITED_BY_DOCUMENTS = Query("graph_article_cited_by_documents", GraphArticleCitedByDocumentsRow)
GRAPH_ARTICLE_CITES = Query("graph_article_cites", ArticleLinkRow)
GRAPH_ARTICLES_OF_LAW = Query("graph_articles_of_law", ClauseTextRow)
GRAPH_ARTICLE_CITES_LAWS = Query("graph_article_cites_laws", GraphArticleCitesLawsRow)
GRAPH_DOCUMENT_CITES = Query("graph_document_cites", CitedClauseCountRow)
GRAPH_DOCUMENT_CITES_LAWS = Query("graph_document_cites_laws", LawCountRow)
GRAPH_DOCUMENT_CITES_PRECEDENTS = Query("graph_document_cites_precedents", CitedPrecedentCountRow)
GRAPH_DOCUMENTS = Query("graph_documents", GraphDocumentsRow)
GRAPH_LAW_CITED_BY = Query("graph_law_cited_by", GraphLawCitedByRow)
GRAPH_PRECEDENT_CITED_BY = Query("graph_precedent_cited_by", GraphPrecedentCitedByRow)
GRAPH_PRECEDENT_CITES = Query("graph_precedent_cites", CitedClauseCountRow)
GRAPH_PRECEDENT_CITES_LAWS = Query("graph_precedent_cites_laws", LawCountRow)
GRAPH_PRECEDENT_CITES_PRECEDENTS = Query("graph_precedent_cites_precedents", CitedPrecedentCountRow)
GRAPH_PRECEDENTS = Query("graph_precedents", GraphPrecedentsRow)
GRAPH_PROVISION = Query("graph_provision", GraphProvisionRow)
INDEX_CHUNK_LAWS = Query("index_chunk_laws", IndexChunkLawsRow)
INDEX_CHUNK_STATE = Query("index_chunk_state", IndexChunkStateRow)
INDEX_DOCUMENT_CHUNKS = Query("index_document_chunks", ChunkUnitRow)
INDEX_LAW_PROVISIONS = Query("index_law_provisions", ClauseTextRow)
INDEX_LAW_STATE = Query("index_law_state", IndexLawStateRow)
INDEX_PRECEDENT_CHUNKS = Query("index_precedent_chunks", ChunkUnitRow)
KNOWLEDGE_CLAUSES = Query("knowledge_clauses", KnowledgeClausesRow)
KNOWLEDGE_ENTRIES = Query("knowledge_entries", KnowledgeEntriesRow)
LAW_BY_ID = Query("law_by_id", LawByIdRow)
LAW_CITED_BY_CLAUSES = Query("law_cited_by_clauses", LawCitedByClausesRow)
LAW_CITED_BY_DOCUMENTS = Query("law_cited_by_documents", LawCitedByDocumentsRow)
LAW_CITES_LAWS_OUT = Query("law_cites_laws_out", LawCitesOutRow)
LAW_CITES_OUT = Query("law_cites_out", LawCitesOutRow)
LAW_CITES_SPANS = Query("law_cites_spans", LawCitesSpansRow)
LAW_HAS_PART = Query("law_has_part", LawHasPartRow)
LAW_NEXT_LINKS = Query("law_next_links", LawNextLinksRow)
LAW_PROVISION_SENTENCES = Query("law_provision_sentences", LawProvisionSentencesRow)
LAW_PROVISION_SPANS = Query("law_provision_spans", ClauseSpanRow)
LAW_VERSION_ON = Query("law_version_on", LawVersionRow)
LAW_VERSION_PROVISIONS = Query("law_version_provisions", LawVersionProvisionsRow)
LAW_VERSION_TITLES = Query("law_version_titles", LawVersionTitlesRow)
LAW_VERSIONS = Query("law_versions", LawVersionRow)
LAW_VERSIONS_FOR_LAWS = Query("law_versions_for_laws", LawVersionsForLawsRow)
LAWS_ALL = Query("laws_all", LawsAllRow)
LAWS_BY_NAME = Query("laws_by_name", LawsByNameRow)
LAWS_CITES_SPANS = Query("laws_cites_spans", LawsCitesSpansRow)
LAWS_CITING = Query("laws_citing", LawIdRow)
LAWS_CITING_SENTENCES = Query("laws_citing_sentences", LawsCitingSentencesRow)
LAWS_CITING_COUNTS = Query("laws_citing_counts", LawCitingCountRow)
LAWS_SYNCED = Query("laws_synced", LawsSyncedRow)
LAWS_UNLINKED = Query("laws_unlinked", LawIdRow)
OWNER_CHUNKS = Query("owner_chunks", UidRow)
OWNER_ROLLUPS = Query("owner_rollups", OwnerRollupsRow)
OWNER_STATE = Query("owner_state", OwnerStateRow)
PRECEDENT_BY_UID = Query("precedent_by_uid", PrecedentRow)
PRECEDENT_CITED_BY = Query("precedent_cited_by", PrecedentCitedByRow)
PRECEDENT_CITED_BY_CHUNKS = Query("precedent_cited_by_chunks", PrecedentCitedByChunksRow)
PRECEDENT_CITES_CLAUSES = Query("precedent_cites_clauses", PrecedentCitesClausesRow)
PRECEDENT_CITES_PRECEDENTS = Query("precedent_cites_precedents", PrecedentCitesPrecedentsRow)
PRECEDENTS_BY_CASE_NAME = Query("precedents_by_case_name", PrecedentRow)
PRECEDENTS_BY_CASE_NUMBER = Query("precedents_by_case_number", PrecedentRow)
PRECEDENTS_ON = Query("precedents_on", PrecedentsOnRow)
PROVISION_AS_OF = Query("provision_as_of", ProvisionRow)
PROVISION_BY_UID = Query("provision_by_uid", ProvisionRow)
PROVISION_CHILDREN = Query("provision_children", ProvisionChildrenRow)
PROVISION_CITED_BY = Query("provision_cited_by", ProvisionCitedByRow)
PROVISION_CITED_BY_DOCUMENTS = Query("provision_cited_by_documents", ProvisionCitedByDocumentsRow)
PROVISION_CITES = Query("provision_cites", ProvisionCitesRow)
PROVISION_HISTORY = Query("provision_history", ProvisionHistoryRow)
PROVISION_PERIODS = Query("provision_periods", ProvisionPeriodsRow)
PROVISION_SPANS_OF_PATH = Query("provision_spans_of_path", ClauseSpanRow)
PROVISION_SPANS_OF_PATHS = Query("provision_spans_of_paths", ProvisionSpansOfPathsRow)
PROVISIONS_IN_VERSION = Query("provisions_in_version", ProvisionsInVersionRow)
RDF_LAW_CITATIONS = Query("rdf_law_citations", RdfLawCitationsRow)
RDF_LAW_WORDINGS = Query("rdf_law_wordings", RdfLawWordingsRow)
INDEX_COLLECTION_TERMS = Query("index_collection_terms", IndexCollectionTermsRow)
INDEX_EXACT_CHUNKS = Query("index_exact_chunks", SearchHitRow)
INDEX_EXACT_PROVISIONS = Query("index_exact_provisions", SearchHitRow)
INDEX_LAW_TERMS = Query("index_law_terms", IndexLawTermsRow)
INDEX_FILES = Query("index_files", IndexFilesRow)
INDEX_FILE_CHUNKS = Query("index_file_chunks", IndexFileChunksRow)
INDEX_FILE_CHUNK_SIZES = Query("index_file_chunk_sizes", IndexFileChunkSizesRow)
DATABASE_IDENTITY = Query("database_identity", DatabaseIdentityRow)
INDEX_LAW_PATHS = Query("index_law_paths", ClauseWordingsAllRow)
INDEX_PARTS = Query("index_parts", IndexPartsRow)
INDEX_SEARCH = Query("index_search", IndexSearchRow)
INDEX_UNITS_BY_UID = Query("index_units_by_uid", IndexUnitsByUidRow)
INDEX_UNITS_UNDER = Query("index_units_under", IndexUnitsUnderRow)
INDEX_VECTOR_INDEXES = Query("index_vector_indexes", IndexVectorIndexesRow)
INDEX_VECTOR_SEARCH = Query("index_vector_search", SearchHitRow)
INDEX_VECTORS_BY_UID = Query("index_vectors_by_uid", IndexVectorsByUidRow)
WRITES: tuple[str, ...] = (
    "index_clear_chunks", "index_clear_provisions", "index_collection_terms_record", "index_part_delete",
    "index_part_record", "index_write_chunks", "index_write_provisions", "index_file_chunk_write",
    "index_file_record", "index_file_prune",
)
"""The named queries that only write (Neo4j's search index): no RETURN, no row type."""

QUERIES: tuple[Query[Any], ...] = tuple(value for value in list(globals().values()) if isinstance(value, Query))
"""Every named query that returns rows, for the test that checks their columns on both backends."""
