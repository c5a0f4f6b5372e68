"""Japanese text as BM25 terms: SudachiPy (SudachiDict-core) normalised forms, without particles and punctuation.

Both search backends index the same pre-tokenised ``tokens`` string (tantivy and Neo4j split it on whitespace),
so this module alone decides what a term is, for clauses, judgments and queries alike.

Choices:

- **Split mode B** (middle units). Mode C keeps long compounds whole (損害賠償, 株式会社), which then never match the
  same words written apart (損害を賠償する) or a query for one part; mode A splits below the word (裁判|所, 小|法廷).
  B gives 損害 / 賠償 / 請求権, 裁判所, 小法廷: the units a lawyer searches for.
- **Normalised forms** (``normalized_form()``): 支払え → 支払う, ＡＢＣ → abc, ２７ → 27, 七百九 → 709. Terms are
  lower-cased.
- **Dropped**: particles (助詞), auxiliaries (助動詞), punctuation and symbols (補助記号), whitespace (空白), and the
  ordinal prefix 第, which carries no meaning once the number is a term of its own.
- **Clause numbers are read before Sudachi sees them.** The dictionary has words such as 十七条 (the constitution of
  604), so 第二十七条 alone would tokenise as 2 / 十七条: 277 of the article numbers 1..1200 are split wrongly that
  way. A number written before 条, 項, 号 (or after 第, before 編章節款目) is rewritten in ASCII digits with
  :func:`lexgraph.numerals.kanji_to_int`, and so is a branch number (条の二). So 第二十七条, 二十七条, 27条 and ２７条
  all give ``["27", "条"]``, and 第七百九条の二第一項 gives ``["709", "条", "2", "1", "項"]``.
- **Long text** is cut at sentence ends into pieces under Sudachi's input limit (49,149 bytes).

One :class:`JapaneseTokenizer` serves the process (:func:`get_tokenizer`): the dictionary is loaded once, lazily, and
each thread gets its own Sudachi tokenizer over it, since a Sudachi tokenizer keeps state between calls.
:data:`TOKENIZER_VERSION` names the rules above: an index built with another version must be rebuilt.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator
from typing import Any

from lexgraph.errors import ToolMissing
from lexgraph.numerals import NUMERAL_CHARS, kanji_to_int

#: Changes whenever the terms produced for some text change; stored with an index to tell when it is stale.
TOKENIZER_VERSION = "sudachi-core-B/1"

#: Sudachi refuses longer inputs ("Input is too long, it can't be more than 49149 bytes").
SUDACHI_MAX_BYTES = 49_149
# Pieces are cut a little below the limit.
_PIECE_BYTES = 48_000

_DROP_POS = frozenset({"助詞", "助動詞", "補助記号", "空白"})
_FIELDS = {"pos", "normalized_form"}

_N = f"[{NUMERAL_CHARS}]+"
# A number that is a clause number: before 条 (not 条件, 条約, 条例, 条理, 条文), 項 or 号, or after 第 and before
# a part of the hierarchy. The look-behinds keep the whole run of digits (and words like 同一条件) together.
_CLAUSE_NUMBER = re.compile(
    rf"(?<![{NUMERAL_CHARS}同統唯単均])({_N})(?=条(?![件約例理文])|[項号])"
    rf"|(?<=第)({_N})(?=[編章節款目])"
)
# A branch number: 第三条の二, 第七条の二の三. Only before what can follow a clause reference, so that
# 前条の一部 keeps its 一部.
_BRANCH = re.compile(
    rf"(?<=[条項号\d]の)({_N})"
    r"(?=$|[第の、，,。．.）)」\s条項号中本各前後にをはがでとも]|及び|並びに|若しくは|又は|から|まで|ただし)"
)
_SENTENCE_END = re.compile(r"(?<=[。！？!?\n])")


def normalize_numerals(text: str) -> str:
    """`text` with clause numbers in ASCII digits: 第二十七条 → 第27条, 七〇九条 → 709条, 第三条の二 → 第3条の2."""
    text = _CLAUSE_NUMBER.sub(_ascii, text)
    # Twice, so that 条の二の三 converts both: the second look-behind sees the digit the first wrote.
    return _BRANCH.sub(_ascii, _BRANCH.sub(_ascii, text))


def _ascii(match: re.Match[str]) -> str:
    run = match.group(0)
    value = kanji_to_int(run)
    return run if value is None else str(value)


def split_for_sudachi(text: str, max_bytes: int = _PIECE_BYTES) -> Iterator[str]:
    """`text` in pieces of at most `max_bytes` UTF-8 bytes, cut after sentence ends where possible."""
    if len(text) * 4 <= max_bytes or len(text.encode("utf-8")) <= max_bytes:
        yield text
        return
    piece: list[str] = []
    size = 0
    for sentence in _SENTENCE_END.split(text):
        n = len(sentence.encode("utf-8"))
        if size + n > max_bytes and piece:
            yield "".join(piece)
            piece, size = [], 0
        if n > max_bytes:  # one sentence longer than the limit: cut it anywhere
            yield from _hard_split(sentence, max_bytes)
            continue
        piece.append(sentence)
        size += n
    if piece:
        yield "".join(piece)


def _hard_split(text: str, max_bytes: int) -> Iterator[str]:
    start = 0
    size = 0
    for i, ch in enumerate(text):
        n = len(ch.encode("utf-8"))
        if size + n > max_bytes:
            yield text[start:i]
            start, size = i, 0
        size += n
    if start < len(text):
        yield text[start:]


class JapaneseTokenizer:
    """BM25 terms of Japanese text. Build one with :func:`get_tokenizer`; it is safe to share between threads."""

    version = TOKENIZER_VERSION

    def __init__(self) -> None:
        try:
            import sudachipy

            self._dictionary = sudachipy.Dictionary(dict="core")
        except ImportError as err:  # sudachipy itself, or its dictionary package sudachidict_core
            raise ToolMissing(
                f"search and index need SudachiPy and its core dictionary ({err}): pip install sudachipy "
                f"sudachidict-core (lexgraph depends on both: reinstall it with `pip install lexgraph`)"
            ) from None
        self._sudachipy = sudachipy
        self._drop_pos_ids = frozenset(self._pos_ids(_DROP_POS))
        self._local = threading.local()

    def _pos_ids(self, first_levels: frozenset[str]) -> Iterator[int]:
        pos_id = 0
        while (pos := self._dictionary.pos_of(pos_id)) is not None:
            if pos[0] in first_levels:
                yield pos_id
            pos_id += 1

    def _sudachi(self) -> tuple[Any, Any]:
        local = self._local
        tokenizer = getattr(local, "tokenizer", None)
        if tokenizer is None:
            tokenizer = self._dictionary.create(mode=self._sudachipy.SplitMode.B, fields=_FIELDS)
            local.tokenizer = tokenizer
            local.out = tokenizer.tokenize("")  # reused between calls: no allocation per text
        return tokenizer, local.out

    def tokenize(self, text: str) -> list[str]:
        """The terms of `text`, in order, duplicates kept (BM25 counts them)."""
        if not text:
            return []
        tokenizer, out = self._sudachi()
        drop = self._drop_pos_ids
        terms: list[str] = []
        for piece in split_for_sudachi(normalize_numerals(text)):
            for m in tokenizer.tokenize(piece, out=out):
                if m.part_of_speech_id() in drop:
                    continue
                term = m.normalized_form()
                if term == "第" or not term or term.isspace():
                    continue
                term = term.lower()
                if " " in term or "\t" in term or "\u3000" in term:  # the index splits on whitespace
                    terms.extend(t for t in term.split() if t)
                else:
                    terms.append(term)
        return terms

    def token_string(self, text: str) -> str:
        """The terms of `text` joined by single spaces: the ``tokens`` property both backends index."""
        return " ".join(self.tokenize(text))


_instance: JapaneseTokenizer | None = None
_instance_lock = threading.Lock()


def get_tokenizer() -> JapaneseTokenizer:
    """The process's tokenizer, created on first use (loading the dictionary takes a fraction of a second)."""
    global _instance
    if _instance is None:
        with _instance_lock:
            if _instance is None:
                _instance = JapaneseTokenizer()
    return _instance


def tokenize(text: str) -> list[str]:
    """BM25 terms of `text` with the process's tokenizer: ``tokenize("第二十七条") == ["27", "条"]``."""
    return get_tokenizer().tokenize(text)


def token_string(text: str) -> str:
    """:func:`tokenize` joined by spaces, for a whitespace-analysed full-text field."""
    return get_tokenizer().token_string(text)


@functools.lru_cache(maxsize=64)
def question_terms(question: str) -> tuple[str, ...]:
    """`tokenize` of a question, remembered for the last few questions: one search tokenises its question for
    BM25, for the law-level evidence and for the learned fusion's features (about 0.4 ms each on two cores).
    The terms depend on the text and the tokenizer alone, never on a store, so they cannot go stale."""
    return tuple(tokenize(question))
