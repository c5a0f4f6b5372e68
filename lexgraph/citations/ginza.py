"""The GiNZA extractor: the rule extractor, with the sentence's dependency parse deciding where the rules guess.

The rules find every mention and resolve it as a reader would, but two of their decisions are guesses from the
order of words:

* **Which law a bare article, or 同法, belongs to.** The rules take the law named last. In 「改正前地方税法は，本件
  条例が施行された平成１３年８月当時の…標準税率について，…旨を定めていた（７２条の２２第１項３号）」 the article
  is of the subject of the predicate that governs it, not of the law named on the way in a modifier (「本件条例が施
  行された…当時」, 「X法に基づく…」, 「X法の定める…」). Here the parse decides: going up from the reference, the
  nearest dependent marked は / が (「…は」, 「…には」) that is, or is 「…の規定」 of, a law named earlier in the
  same sentence (for 同法, only the nearest subject: 「社債は，会社法の規定により…（同法２条２３号）」 is about 社債,
  so 同法 stays 会社法); when every law named between it and the reference reaches the reference's clause only
  through a noun modifier (an ``nmod`` / ``acl`` edge), the reference belongs to the subject's law. The resolver
  then keeps the rules' law when the article does not exist in the subject's law (asked of a store's revisions,
  when there is one) and, for 同法, when the subject is not an Act (「生活保護法施行規則１９条は，同法６２条３項…」:
  同法 is still 生活保護法).
* **Whether 前項 / 前条 / 次条 in a judgment is a statute's or the judgment's own.** The rules read it from the
  clause citation the sentence is about when one is followed by は / が / において (「同条２項は，前項の政令にお
  いては…旨規定し」), else take it for the judgment's own section (「前項で述べたとおり」). Here the parse
  decides: the nearest dependent above the reference that is a clause citation (not itself relative) is the
  clause it is read from; when there is none but a subject (``nsubj`` marked は / が) that is not a clause
  citation (「原判決は」), the reference is the judgment's own; when the parse shows neither, the rules' reading
  stands. A reference inside a quotation 「…」 opened right after a clause citation is a quote of that clause
  (「同条二項においては、「前項の目的を達するため…」」); the rules' reading of it is kept.

Everything else is the rules' (`lexgraph.citations.extract`): the same mentions, the same resolver, the same
`Citation` values. Only sentences holding such a reference are parsed, so the cost grows with the number of
bare articles and relative references, not with the text. The model is ``ja_ginza`` (loaded once per process,
on first use; never a download). SudachiPy, its tokenizer, refuses a text over 49,149 bytes: a sentence is at most
`_MAX_SENTENCE_CHARS` characters around the reference, far below that.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

from lexgraph.citations import CitationContext, precedent_citations
from lexgraph.citations.lawnames import LawNames
from lexgraph.citations.model import Citation, Mention, StatuteMention
from lexgraph.citations.resolve import resolve
from lexgraph.citations.statutes import find_statutes

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Token

MODEL = "ja_ginza"
SUDACHI_MAX_BYTES = 49_149  # SudachiPy's limit on one input, in UTF-8 bytes
_MAX_SENTENCE_CHARS = 600  # on each side of the reference: a sentence longer than this is cut (3 bytes a char)
_SUBJECT_MARKERS = frozenset({"は", "が"})
_MODIFIER_DEPS = frozenset({"nmod", "acl"})
_RELATIVE = frozenset({"previous", "next", "all_previous"})


@lru_cache(maxsize=1)
def load_ginza() -> Language:
    """The ``ja_ginza`` pipeline, loaded once. Raises OSError (the model is not installed) or ImportError."""
    import spacy

    return spacy.load(MODEL)


@dataclass(frozen=True)
class ParsedSentence:
    """A sentence of the text with its whitespace taken out (judgments break lines anywhere, and the parser would
    read a break as a word), parsed; `kept[i]` is the offset in the text of the parse's character `i`."""

    start: int
    end: int
    kept: tuple[int, ...]
    doc: Doc

    def token_at(self, start: int, end: int) -> Token | None:
        """The head token of the text's span `start`…`end` (None when the span is outside the sentence)."""
        first, last = bisect_left(self.kept, start), bisect_left(self.kept, end)
        if first >= last:
            return None
        span = self.doc.char_span(first, last, alignment_mode="expand")
        return None if span is None else span.root

    def offset_of(self, token: Token) -> int:
        """The text offset of `token`'s first character."""
        return self.kept[token.idx]


class GinzaExtractor:
    """`extract` with GiNZA's parse deciding the two weak decisions of the rules (see the module's docstring)."""

    name = "ginza"

    def __init__(self, nlp: Language | None = None) -> None:
        self._nlp = nlp
        self.parsed = 0  # sentences parsed so far, for benchmarks

    @property
    def nlp(self) -> Language:
        if self._nlp is None:
            self._nlp = load_ginza()
        return self._nlp

    def extract(self, text: str, context: CitationContext | None = None, *, precedents: bool = True
                ) -> list[Citation]:
        """Every statute and precedent citation in `text`, as `lexgraph.citations.extract` gives them, with the
        parse's decisions applied."""
        context = context if context is not None else CitationContext()
        mentions = self.refine(text, find_statutes(text, LawNames.for_catalog(context.catalog)))
        citations = resolve(mentions, context)
        if precedents:
            citations.extend(precedent_citations(text, context.citing_court))
        citations.sort(key=lambda c: (c.start, c.end))
        return citations

    def extract_pieces(self, blocks: Iterable[str], context: CitationContext | None = None, *,
                       precedents: bool = True) -> Iterator[Citation]:
        """Not streamed: the blocks are joined and read whole (the parse is per sentence, the rules' state is not
        carried across pieces here)."""
        return iter(self.extract("".join(blocks), context, precedents=precedents))

    def refine(self, text: str, mentions: Sequence[Mention]) -> list[Mention]:
        """`mentions` with `law_from` / `quoted_in` set where the parse decides otherwise than the rules."""
        out = list(mentions)
        laws = [m for m in out if isinstance(m, StatuteMention) and m.law is not None]
        law_starts = [m.start for m in laws]
        # The clause citations a relative reference may be read from: not themselves relative (前２項の…前２項).
        cited = [m for m in out if isinstance(m, StatuteMention) and m.provision is not None and not m.bare
                 and m.provision.steps[0].relation not in _RELATIVE]
        cited_starts = [m.start for m in cited]
        sentences: dict[tuple[int, int], ParsedSentence] = {}
        for index, mention in enumerate(out):
            if not isinstance(mention, StatuteMention) or not _weak(mention):
                continue
            bounds = sentence_bounds(text, mention.start, mention.end)
            before = laws[bisect_left(law_starts, bounds[0]):bisect_left(law_starts, mention.start)]
            clauses = cited[bisect_left(cited_starts, bounds[0]):bisect_left(cited_starts, mention.start)]
            relative = mention.provision is not None and mention.provision.steps[0].relation in _RELATIVE
            # Parse only where the parse can change something: a law to choose other than the one named last; a
            # clause to read 前項 from, or the rules' reading of it to undo (not a quote of the clause).
            if relative:
                if mention.quoted_in is None and not clauses:
                    continue  # no clause to read it from, and the rules already read it as the text's own
                if mention.quoted_in is not None and _inside_quote_after(text, mention.quoted_in, clauses,
                                                                         mention.start):
                    continue  # a quote of the clause's words: the rules read it from that clause
            elif len(before) < 2:
                continue  # no law to choose but the one named last
            sentence = sentences.get(bounds)
            if sentence is None:
                sentence = sentences[bounds] = self.parse(text, *bounds)
            if relative:
                out[index] = _statute_or_own(sentence, mention, clauses)
            else:
                out[index] = _law_of_clause(sentence, mention, before)
        return out

    def parse(self, text: str, start: int, end: int) -> ParsedSentence:
        """`text[start:end]` parsed, whitespace taken out."""
        kept = tuple(i for i in range(start, end) if not text[i].isspace())
        compact = "".join(text[i] for i in kept)
        while len(compact.encode("utf-8")) > SUDACHI_MAX_BYTES:  # cannot happen with the caps above; kept safe
            kept = kept[: len(kept) // 2]
            compact = compact[: len(kept)]
        self.parsed += 1
        return ParsedSentence(start, end, kept, self.nlp(compact))


def sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence around `start`…`end`: from after the 。 before it to the 。 after it (included), at most
    `_MAX_SENTENCE_CHARS` on each side."""
    floor = max(0, start - _MAX_SENTENCE_CHARS)
    first = text.rfind("。", floor, start)
    first = floor if first < 0 else first + 1
    ceiling = min(len(text), end + _MAX_SENTENCE_CHARS)
    last = text.find("。", end, ceiling)
    last = ceiling if last < 0 else last + 1
    return first, last


def _weak(mention: StatuteMention) -> bool:
    """A reference whose law, or whose being a citation at all, the rules guess: a bare article (「（３条）」,
    「附則２条１項」), 同法, or 前項 / 前条 / 次条 with no law."""
    if mention.provision is None or mention.bare or mention.parallel or mention.inherited:
        return False
    first = mention.provision.steps[0]
    if mention.law is None:
        if first.relation in _RELATIVE:
            return True
        return first.relation is None and first.level == "article" and not mention.qualifies_previous
    return mention.law.kind == "same" and mention.law.name == "同法"


def _dependents_above(reference: Token, lo: int, hi: int, subjects_only: bool) -> Iterator[Token]:
    """The dependents of `reference` and of each of its ancestors, nearest predicate first, that come before the
    reference and outside its own span `lo`…`hi` (parse offsets): with `subjects_only`, those marked は or が."""
    node = reference
    for _ in range(64):  # a parse is a tree; the bound only guards against a malformed one
        for child in reversed(list(node.children)):  # the nearest first: coordinated clauses share a head
            if lo <= child.idx < hi or child.i >= reference.i:
                continue
            if not subjects_only or _marked_subject(child):
                yield child
        if node.head.i == node.i:
            return
        node = node.head


def _marked_subject(token: Token) -> bool:
    """Whether `token` is marked as a subject or topic: は or が among its case markers (「…には」 too)."""
    return any(c.dep_ == "case" and c.text in _SUBJECT_MARKERS for c in token.children)


def _mention_of(sentence: ParsedSentence, token: Token, candidates: Iterable[StatuteMention]) -> StatuteMention | None:
    """The mention that `token` is, or that it is 「…の規定」 of (a noun modifier or compound part of `token`)."""
    heads = [token, *(c for c in token.children if c.dep_ in ("nmod", "compound"))]
    offsets = [sentence.offset_of(t) for t in heads]
    found = None
    for mention in candidates:
        if any(mention.start <= o < mention.end for o in offsets):
            found = mention
    return found


def _in_modifier(token: Token, clause_head: Token) -> bool:
    """Whether `token` reaches the reference's clause only through a noun modifier (「X法の定める手続」,
    「X法における取扱い」): a ``nmod`` / ``acl`` edge on its path up to a node that is an ancestor of, or is,
    `clause_head`."""
    above = {clause_head.i, *(a.i for a in clause_head.ancestors)}
    node = token
    crossed = False
    for _ in range(64):
        if node.i in above:
            return crossed
        crossed = crossed or node.dep_ in _MODIFIER_DEPS
        if node.head.i == node.i:
            return crossed
        node = node.head
    return crossed


def _law_of_clause(sentence: ParsedSentence, mention: StatuteMention, before: list[StatuteMention]) -> StatuteMention:
    """A bare article or 同法 given the law of its clause's subject, where the parse shows one (see the module)."""
    if not before:
        return mention
    lo, hi = bisect_left(sentence.kept, mention.start), bisect_left(sentence.kept, mention.end)
    reference = sentence.token_at(mention.start, mention.end)
    if reference is None:
        return mention
    subjects = _dependents_above(reference, lo, hi, subjects_only=True)
    if mention.law is not None:  # 同法: only the subject of its own clause (「社債は，会社法の…（同法２条）」)
        subject = next(subjects, None)
        owner = _mention_of(sentence, subject, before) if subject is not None else None
    else:  # an article in brackets: the subject of the statement it documents, however deep (「戸籍法は，…意思表示は，
        # …しなければならず（１０４条１項）」)
        owner = next((found for subject in subjects
                      if (found := _mention_of(sentence, subject, before)) is not None), None)
    if owner is None or owner is before[-1]:
        return mention  # no law is a subject above it, or it is the law named last: the rules already agree
    between = [m for m in before if m.start > owner.start]
    if not between:
        return mention
    for law in between:
        token = sentence.token_at(law.start, law.end)
        if token is None or not _in_modifier(token, reference):
            return mention  # a law named as an argument of the clause itself: no reason to skip it
    return replace(mention, law_from=owner.start)


def _statute_or_own(sentence: ParsedSentence, mention: StatuteMention, clauses: list[StatuteMention]) -> StatuteMention:
    """前項 / 前条 / 次条 with no law read as the subject clause's (statute) or as the judgment's own text (a quote of
    a clause's words is left to the rules before this is called)."""
    lo, hi = bisect_left(sentence.kept, mention.start), bisect_left(sentence.kept, mention.end)
    reference = sentence.token_at(mention.start, mention.end)
    if reference is None:
        return mention
    owner = None
    other_subject = False  # a subject above it that is not a clause citation (「原判決は」, 「上告人が」)
    for dependent in _dependents_above(reference, lo, hi, subjects_only=False):
        owner = _mention_of(sentence, dependent, clauses)
        if owner is not None:
            break
        other_subject = other_subject or (dependent.dep_ == "nsubj" and _marked_subject(dependent))
    if owner is None and not other_subject:
        return mention  # the parse shows nothing the reference depends on: the rules' reading stands
    if (owner.start if owner is not None else None) == mention.quoted_in:
        return mention
    return replace(mention, quoted_in=owner.start if owner is not None else None)


def _inside_quote_after(text: str, quoted: int, clauses: list[StatuteMention], position: int) -> bool:
    """Whether `position` is inside a 「…」 opened after the clause citation starting at `quoted` ends."""
    cited = next((m for m in clauses if m.start == quoted), None)
    if cited is None:
        return False
    opening = text.rfind("「", cited.end, position)
    return opening >= 0 and "」" not in text[opening:position]
