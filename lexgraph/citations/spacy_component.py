"""The spaCy component ``lexgraph_citations``: lexgraph's citation extractor inside a spaCy / GiNZA pipeline.

    nlp = spacy.load("ja_ginza")
    nlp.add_pipe("lexgraph_citations")
    doc = nlp("…刑訴法４０５条の上告理由に当たらない。")
    [(s.text, s.label_, s._.citation.article) for s in doc.spans["lexgraph_citations"]]
    # [('刑訴法４０５条', 'STATUTE', '405')]

Each doc gets ``doc._.citations`` (the `Citation` list of `lexgraph.citations.extract` on ``doc.text``, same
offsets, same order), ``doc.spans[spans_key]`` with one span per citation, labelled ``STATUTE`` or ``PRECEDENT``
(``span.kb_id_`` is the law id of a resolved statute), ``span._.citation`` (that span's `Citation`, with the exact
character offsets: the span itself is widened to token boundaries) and ``doc._.citations_as_of`` (the ISO date
the statutes were resolved as of, or None). The factory is found through the ``spacy_factories`` entry point, so
``add_pipe`` works without importing lexgraph first; this module is then imported by every spaCy pipeline built
in the environment, which is why it only defines things and registers the extensions when a component is made.

Config: ``precedents`` (also find court decisions), ``as_of`` (ISO date the revisions in force are taken on),
``date_from_text`` (without ``as_of``, use the judgment's own date, see below), ``citing_court`` (what
「当裁判所」 means) and ``spans_key``. The store's revisions cannot go into a config: set them on the component,
``nlp.get_pipe("lexgraph_citations").revisions = lookup`` (a `RevisionLookup`); without one, the date changes
nothing, as for `extract`.

What GiNZA is used for, and why so little. Measured with ja_ginza 5.3.0 on the 742 Supreme Court judgments of
shared/data/precedents/supreme_court:

* The judgment's date. 638 judgments start with a header (case number, date, bench) before 主文. A regex for
  the first full era date before the 主文 line reads the date in all 638 (`document_date`, used below, in 636);
  GiNZA's first ``Date`` entity of the header that is a full date, in 405: it tags the case number's year
  「平成２５年（行ツ）」 as the first Date, splits 「平成２８年１２月」「１日」 and swallows 「令和元年６月３日」 into
  an Ordinal_Number. Where both read one they agree. On the judgments of landmarks.csv that have a header: 12/12
  against 10/12. So the date comes from the rules, `lexgraph.citations.document.document_date` (the one
  ``lexgraph cite`` uses, so that both read a judgment as of the same day), and GiNZA's dates are not used.
  Judgments without a header carry no date of their own; any date in their text is some other date, so none is
  taken.
* The citing court. GiNZA tags courts as ``Public_Institution`` (「最高裁判所第三小法廷」, 「東京高等裁判所」) and the
  bench of a header (「第二小法廷判決」) as ``Ordinal_Number``; Supreme Court headers name no court, and in the 742
  headers GiNZA found no court at all. Only 2 of the 1,344 precedent citations in these judgments change with
  the citing court (both in a judgment without a header), and neither GiNZA nor the header could tell it. So
  the citing court is a config value (``citing_court="最高裁判所"``), not guessed from entities.

The component thus reads no annotation of GiNZA's and works in any Japanese pipeline (``spacy.blank("ja")``
too); GiNZA brings the tokens the spans are aligned to. Note that SudachiPy, GiNZA's tokenizer, refuses a text
over 49,149 bytes (36 of the 742 judgments): split such a judgment, or call `extract` on it directly.
"""

from collections.abc import Iterable, Iterator
from datetime import date
from typing import Any, cast

from spacy.language import Language
from spacy.tokens import Doc, Span

from lexgraph.citations import Citation, CitationContext, RevisionLookup, extract
from lexgraph.citations.document import document_date
from lexgraph.errors import ConfigurationError
from lexgraph.statutes.catalog import Catalog

FACTORY = "lexgraph_citations"
LABELS = {"statute": "STATUTE", "precedent": "PRECEDENT", "law": "LAW", "division": "DIVISION", "appendix": "APPENDIX"}
# Where doc._.citations is kept: as plain dicts, so that Doc.to_bytes, DocBin and nlp.pipe(n_process=…) can
# serialise it (msgpack knows no dataclasses) and a process that never imported lexgraph can still read it.
_USER_DATA_KEY = ("lexgraph", "citations")
_SPAN_ID_PREFIX = "lexgraph_citation:"

class CitationComponent:
    """Adds the citations of `lexgraph.citations.extract` to each doc (see the module's docstring)."""

    def __init__(self, nlp: Language, name: str = FACTORY, *, precedents: bool = True, as_of: str | None = None,
                 date_from_text: bool = True, citing_court: str | None = None,
                 spans_key: str = FACTORY) -> None:
        self.name = name
        self.precedents = precedents
        try:
            self.as_of = date.fromisoformat(as_of) if as_of else None
        except ValueError:
            raise ConfigurationError(f"{name}: as_of must be an ISO date such as 2021-04-01, not {as_of!r}") from None
        self.date_from_text = date_from_text
        self.citing_court = citing_court
        self.spans_key = spans_key
        self.revisions: RevisionLookup | None = None  # the store's revisions; not part of the config
        self.catalog: Catalog = Catalog.bundled()
        register_extensions()

    def context_for(self, text: str) -> CitationContext:
        """The context `text` is read in: the configured date, else the judgment's own date."""
        as_of = self.as_of
        if as_of is None and self.date_from_text:
            as_of = document_date(text)
        return CitationContext(catalog=self.catalog, as_of=as_of, revisions=self.revisions,
                               citing_court=self.citing_court)

    def __call__(self, doc: Doc) -> Doc:
        text = doc.text  # spaCy joins the tokens anew at each call: once is enough
        context = self.context_for(text)
        citations = extract(text, context, precedents=self.precedents)
        spans = []
        for i, citation in enumerate(citations):
            span = doc.char_span(citation.start, citation.end, label=LABELS[citation.kind],
                                 kb_id=citation.law_id or 0, alignment_mode="expand",
                                 span_id=f"{_SPAN_ID_PREFIX}{i}")
            if span is None:  # only a span of whitespace has no token; a citation starts and ends on a character
                raise ValueError(f"{self.name}: no tokens for citation {citation.surface!r} at {citation.start}")
            spans.append(span)
        doc._.citations = citations
        doc._.citations_as_of = context.as_of.isoformat() if context.as_of else None
        doc.spans[self.spans_key] = spans
        return doc

    def pipe(self, stream: Iterable[Doc], batch_size: int = 128) -> Iterator[Doc]:
        for doc in stream:
            yield self(doc)


@Language.factory(
    FACTORY,
    default_config={"precedents": True, "as_of": None, "date_from_text": True, "citing_court": None,
                    "spans_key": FACTORY},
    assigns=["doc._.citations", "doc._.citations_as_of", "doc.spans", "span._.citation"],
)
def make_citation_component(nlp: Language, name: str, precedents: bool, as_of: str | None, date_from_text: bool,
                            citing_court: str | None, spans_key: str) -> CitationComponent:
    """The ``lexgraph_citations`` factory (entry point ``spacy_factories``)."""
    return CitationComponent(nlp, name, precedents=precedents, as_of=as_of, date_from_text=date_from_text,
                             citing_court=citing_court, spans_key=spans_key)


def register_extensions() -> None:
    """``doc._.citations``, ``doc._.citations_as_of`` and ``span._.citation``; a second call changes nothing."""
    if not Doc.has_extension("citations"):
        Doc.set_extension("citations", getter=_get_citations, setter=_set_citations)
    if not Doc.has_extension("citations_as_of"):
        Doc.set_extension("citations_as_of", default=None)
    if not Span.has_extension("citation"):
        Span.set_extension("citation", getter=_span_citation)


def _user_data(doc: Doc) -> dict[Any, Any]:
    """The doc's user data, which spaCy keys by anything hashable (its stubs say str; the key here is a tuple)."""
    return cast(dict[Any, Any], doc.user_data)


def _get_citations(doc: Doc) -> list[Citation] | None:
    stored = _user_data(doc).get(_USER_DATA_KEY)
    return None if stored is None else [_citation(fields) for fields in stored]


def _set_citations(doc: Doc, citations: Iterable[Citation] | None) -> None:
    if citations is None:
        _user_data(doc).pop(_USER_DATA_KEY, None)
    else:
        _user_data(doc)[_USER_DATA_KEY] = [c.to_dict() for c in citations]


def _span_citation(span: Span) -> Citation | None:
    """The citation a span of the component stands for (spans made elsewhere have none). Looked up by the span's
    id, because spaCy keys span extensions by offsets alone and a range (第一項から第三項まで) gives several
    citations with the same offsets."""
    span_id: str = span.id_
    stored: list[dict[str, Any]] | None = _user_data(span.doc).get(_USER_DATA_KEY)
    if stored is None or not span_id.startswith(_SPAN_ID_PREFIX):
        return None
    index = int(span_id[len(_SPAN_ID_PREFIX):])
    return _citation(stored[index]) if index < len(stored) else None


def _citation(fields: dict[str, Any]) -> Citation:
    """A citation from its stored plain data: msgpack gives a range's members back as a list, kept as a tuple."""
    members = fields.get("members")
    return Citation(**{**fields, "members": tuple(members)}) if isinstance(members, list) else Citation(**fields)
