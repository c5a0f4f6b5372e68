"""The one reader of text bytes: judgments, literature and `cite` input alike.

Japanese legal text still arrives in four encodings: UTF-8, UTF-8 with a byte-order mark, Shift_JIS (read as
CP932, its Windows superset with the NEC and IBM extensions) and EUC-JP. The bytes alone decide, by two tests:

1. **Does it decode?** Strictly, with no byte replaced.
2. **Is the result Japanese text?** The share of its non-ASCII characters that real documents use (kana, kanji,
   full-width punctuation and forms, the usual symbols). A wrong decoding of Japanese bytes yields half-width
   katakana, private-use characters, controls or Latin-1 letters instead.

An encoding is taken only when it is **certain**: its text is plausible and no other encoding yields a different
plausible text. A file that is not UTF-8 is converted with a note saying from what; a file no encoding explains,
or that two explain differently, is refused with its name and the ``iconv`` command that converts it. Text is
never returned with a U+FFFD replacement character, so nothing damaged can be stored as if it were the document:
a file already holding one (damaged before lexgraph read it) is refused too, at its line and column.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from lexgraph.errors import EncodingError

#: Candidates besides UTF-8, with the name `iconv -f` knows them by and the name a user reads.
_LEGACY = (("cp932", "SHIFT_JIS", "Shift_JIS (CP932)"), ("euc_jp", "EUC-JP", "EUC-JP"))
PLAUSIBLE = 0.97  # share of plausible non-ASCII characters for a decoding to count as Japanese text
_RIVAL = 0.85  # another decoding this plausible, with a different text, makes the choice uncertain
REPLACEMENT = "\ufffd"

#: Code point ranges that Japanese documents use: weight 1. Half-width katakana, still found in old files, weigh
#: half; everything else (controls, private use, Latin-1 letters, other scripts, CJK compatibility) nothing.
_PLAUSIBLE_RANGES = (
    (0x00A7, 0x00A7), (0x00B0, 0x00B1), (0x00B4, 0x00B4), (0x00B6, 0x00B6), (0x00D7, 0x00D7), (0x00F7, 0x00F7),
    (0x0391, 0x03C9), (0x0401, 0x0451),  # Greek and Cyrillic of JIS X 0208 (α, β in formulas)
    (0x2010, 0x203B),  # dashes, quotes, ‥ … ※
    (0x2103, 0x2122), (0x2160, 0x217F),  # ℃ № ™, Roman numerals
    (0x2190, 0x22FF), (0x2460, 0x24FF), (0x2500, 0x257F), (0x25A0, 0x26FF),  # arrows, maths, ①, boxes, ○△
    (0x3000, 0x30FF),  # CJK punctuation, hiragana, katakana
    (0x3220, 0x33FF),  # ㈱ ㍻ ㎡ and other enclosed and squared forms of CP932
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xF929, 0xF929), (0xF9DC, 0xF9DC), (0xFA0E, 0xFA2D),  # the compatibility ideographs of the IBM extensions
    (0xFF01, 0xFF60), (0xFFE0, 0xFFE5),  # full-width forms
)
_HALF_WIDTH_KANA = (0xFF61, 0xFF9F)


@dataclass(frozen=True)
class DecodedText:
    """A file's text, the encoding it was read from (``utf-8``, ``utf-8-sig``, ``cp932``, ``euc_jp``) and, when it
    was converted, the note that says so (for the ingest summary)."""

    text: str
    encoding: str
    note: str | None = None


def _char_class(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(f"{chr(low)}-{chr(high)}" if low != high else chr(low) for low, high in ranges)


# Counted by what is rare in Japanese text (implausible and half-width characters, two-byte UTF-8), with `findall`
# running in C: the scoring costs a fraction of reading the text.
_IMPLAUSIBLE_CHAR = re.compile(f"[^\\x00-\\x7f{_char_class((*_PLAUSIBLE_RANGES, _HALF_WIDTH_KANA))}]")
_HALF_WIDTH_CHAR = re.compile(f"[{_char_class((_HALF_WIDTH_KANA,))}]")
_NARROW_CHAR = re.compile("[\\u0080-\\u07ff]")  # what UTF-8 writes in two bytes
# Every character any of the counts of `Utf8Tally` concerns (implausible, half-width, two-byte, control): the
# complement of printable ASCII and of the plausible ranges UTF-8 writes in three or four bytes. One scan picks them
# out, and the counts are taken on those few: four scans of every block were a twentieth of `lexgraph cite`.
_SUSPECT_CHAR = re.compile(
    "[^\\t\\n\\x0c\\r\\x20-\\x7e"
    f"{_char_class(tuple((max(low, 0x800), high) for low, high in _PLAUSIBLE_RANGES if high >= 0x800))}]")
_SURROGATE = re.compile("[\ud800-\udfff]")  # half of a UTF-16 pair alone: valid in a Python str, in no encoding
_CONTROL_CHAR = re.compile("[\\x00-\\x08\\x0b\\x0e-\\x1f\\x7f]")  # tab, line feed, form feed and return are text


def _non_ascii(text: str) -> int:
    return len(text) - len(text.encode("ascii", "ignore"))


def plausibility(text: str) -> float:
    """The share of `text`'s non-ASCII characters that Japanese documents use (1.0 when it has none)."""
    total = _non_ascii(text)
    if not total:
        return 1.0
    implausible = len(_IMPLAUSIBLE_CHAR.findall(text)) + 0.5 * len(_HALF_WIDTH_CHAR.findall(text))
    return (total - implausible) / total


def _wide_share(text: str) -> float:
    """The share of non-ASCII characters that UTF-8 writes in three or four bytes (kana, kanji, CJK punctuation)."""
    total = _non_ascii(text)
    return (total - len(_NARROW_CHAR.findall(text))) / total if total else 1.0


@dataclass
class Utf8Tally:
    """What `decode_text` needs to know of a UTF-8 text, added up block by block, so that a long input streamed in
    blocks (`lexgraph cite`) is judged by the same rule without being held whole: `certain` is decode_text's
    first rule (plausible, mostly three-byte characters, nothing damaged); anything else is decided by
    `decode_text` on the whole input."""

    non_ascii: int = 0
    implausible: float = 0.0
    narrow: int = 0
    damaged: bool = False

    def add(self, text: str) -> None:
        suspects = "".join(_SUSPECT_CHAR.findall(text))  # the same counts as on `text`, taken on far fewer
        self.non_ascii += _non_ascii(text)
        self.implausible += len(_IMPLAUSIBLE_CHAR.findall(suspects)) + 0.5 * len(_HALF_WIDTH_CHAR.findall(suspects))
        self.narrow += len(_NARROW_CHAR.findall(suspects))
        self.damaged = self.damaged or REPLACEMENT in text or _CONTROL_CHAR.search(suspects) is not None

    @property
    def certain(self) -> bool:
        if self.damaged:
            return False
        if not self.non_ascii:
            return True
        return ((self.non_ascii - self.implausible) / self.non_ascii >= PLAUSIBLE
                and (self.non_ascii - self.narrow) / self.non_ascii >= 0.5)


def _where(text: str, index: int) -> str:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"line {line}, column {column}"


def check_clean(text: str, name: str) -> None:
    """Refuse text holding a replacement character, a lone surrogate or a control character (a binary file, text
    damaged before lexgraph read it, a broken JSON escape): storing it would store the damage as the document, or
    fail inside the store's driver."""
    broken = text.find(REPLACEMENT)
    if broken >= 0:
        raise EncodingError(
            f"{name}: holds the replacement character U+FFFD at {_where(text, broken)}: the text was damaged before "
            "lexgraph read it (an earlier conversion replaced bytes it could not read); convert the original file "
            "again, e.g. iconv -f SHIFT_JIS -t UTF-8 ORIGINAL > FILE")
    lone = _SURROGATE.search(text)
    if lone is not None:
        raise EncodingError(
            f"{name}: holds a lone surrogate U+{ord(lone[0]):04X} at {_where(text, lone.start())}: it is not Unicode "
            "text (a JSON escape such as \\ud800 without its pair, or bytes decoded wrongly), and no store can hold "
            "it; correct the value")
    found = _CONTROL_CHAR.search(text)
    if found is not None:
        control = found.start()
        raise EncodingError(
            f"{name}: holds the control character U+{ord(text[control]):04X} at {_where(text, control)}: it is not "
            "a text file (give the text, e.g. pdftotext for a PDF) or it was damaged; remove the character")


def decode_text(data: bytes, name: str) -> DecodedText:
    """`data` as text, from UTF-8 (with or without BOM), Shift_JIS/CP932 or EUC-JP when the bytes make one of them
    certain (see the module docstring). Raises `EncodingError` naming `name` and the ``iconv`` fix otherwise."""
    if data.startswith(codecs.BOM_UTF8):
        try:
            text = data[len(codecs.BOM_UTF8):].decode("utf-8")
        except UnicodeDecodeError as error:
            raise EncodingError(
                f"{name}: starts with a UTF-8 byte-order mark but byte {error.start + 3} is not UTF-8; the file "
                "mixes encodings: convert its original with iconv -f SHIFT_JIS -t UTF-8 (or -f EUC-JP)") from None
        check_clean(text, name)
        return DecodedText(text, "utf-8-sig")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise EncodingError(f"{name}: is UTF-16; convert it to UTF-8: iconv -f UTF-16 -t UTF-8 {name} > "
                            f"{name}.utf8.txt")
    candidates: dict[str, str] = {}
    first_bad: dict[str, int] = {}

    def read_as(codec: str) -> None:
        try:
            candidates[codec] = data.decode(codec)
        except UnicodeDecodeError as error:
            first_bad[codec] = error.start

    read_as("utf-8")
    utf8 = candidates.get("utf-8")
    if utf8 is not None and REPLACEMENT in utf8:
        check_clean(utf8, name)  # UTF-8 that an earlier conversion damaged: say so, and where
    scores = {"utf-8": plausibility(utf8)} if utf8 is not None else {}
    if utf8 is not None and scores["utf-8"] >= PLAUSIBLE and _wide_share(utf8) >= 0.5:
        # Valid UTF-8 whose characters are mostly three-byte ones (kana, kanji): legacy bytes are valid UTF-8 of
        # that kind only by a coincidence of short runs, while a CP932 reading of UTF-8 kana and kanji is often
        # plausible, so UTF-8 is not weighed against it (nor are the other encodings even tried). Two-byte UTF-8
        # (Ω, °) is what EUC-JP kanji can look like (立 is CE A9, Ω in UTF-8): that is weighed like any reading.
        check_clean(utf8, name)
        return DecodedText(utf8, "utf-8")
    for codec, _, _ in _LEGACY:
        read_as(codec)
        if codec in candidates:
            scores[codec] = plausibility(candidates[codec])
    legacy_rival = any(scores.get(codec, 0.0) >= _RIVAL for codec, _, _ in _LEGACY)
    if utf8 is not None and scores["utf-8"] >= PLAUSIBLE and not legacy_rival:
        check_clean(utf8, name)
        return DecodedText(utf8, "utf-8")
    plausible = {codec for codec, score in scores.items() if score >= PLAUSIBLE}
    texts = {candidates[codec] for codec in plausible}
    rivals = {candidates[codec] for codec, score in scores.items() if score >= _RIVAL}
    if len(texts) == 1 and len(rivals) == 1:
        codec = next(c for c in ("cp932", "euc_jp") if c in plausible)
        text = candidates[codec]
        check_clean(text, name)
        label = next(label for c, _, label in _LEGACY if c == codec)
        return DecodedText(text, codec, f"{name} is {label}, not UTF-8: converted to UTF-8")
    if len(rivals) > 1:
        readings = [(iconv, label) for codec, iconv, label in (("utf-8", "UTF-8", "UTF-8"), *_LEGACY)
                    if scores.get(codec, 0.0) >= _RIVAL]
        names = " or ".join(label for _, label in readings)
        first, *others = [iconv for iconv, _ in readings if iconv != "UTF-8"] or ["SHIFT_JIS"]
        alternatives = "".join(f" (or -f {iconv})" for iconv in others)
        raise EncodingError(f"{name}: its encoding is uncertain: it reads as {names}, giving different text; "
                            f"check which is right and convert it to UTF-8: iconv -f {first} -t UTF-8 {name} > "
                            f"{name}.utf8.txt{alternatives}")
    bad = first_bad.get("utf-8", 0)
    raise EncodingError(f"{name}: is not text in UTF-8, Shift_JIS or EUC-JP (byte {bad} is not UTF-8, and no "
                        "other encoding gives Japanese text); if it is text, convert it to UTF-8 with iconv -f "
                        f"ENCODING -t UTF-8 {name} > {name}.utf8.txt (nkf --guess tells ENCODING)")
