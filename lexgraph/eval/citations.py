"""Precision, recall and F1 of a citation extractor against a gold JSONL file.

The gold file has one line per sentence::

    {"doc": "…", "sentence_start": 0, "sentence_end": 0, "sentence": "…", "citations": [<cite entries>]}

with offsets relative to the sentence. The extractor under test is any function from a sentence to
cite entries (the dicts of ``lexgraph cite --json``), so that lexgraph's extractor and another library can
be scored alike.

Three levels are scored, for statute and precedent citations separately and together:

* ``span``: the span is exactly right (same kind, same start and end);
* ``overlap``: the spans share at least one character, so that two extractors that disagree only on where a
  citation starts (「同法３条」 or 「３条」, with or without 「（…改正前のもの）」) are not punished for it;
* ``target``: the spans overlap *and* the citation points at the same thing: for a statute the same law
  (law_id when both sides give one, else the title), article, paragraph and item; for a precedent the same
  court, date and decision type.

Matching is one-to-one inside a sentence: each gold citation is matched at most once, greedily in gold order,
preferring the prediction that overlaps it most. Counts are summed over sentences (micro average).

Judgments resolve 同法 / 同条 / a label defined earlier (「以下「法」という」) from what came before in the same
judgment, and the golds are annotated that way. `evaluate_in_documents` therefore replays each judgment: the
extractor reads the whole judgment file (the gold line's `doc` in a corpus directory) once, as ``lexgraph cite``
does, and only the citations that start inside a gold sentence are scored, with offsets made relative to it. A
judgment whose file is missing or whose text no longer holds the gold sentence at its offsets is read sentence by
sentence instead, and `Replay.fallback` names it, so that a report can say which figures lack context.
"""

from __future__ import annotations

import json
import os
import unicodedata
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lexgraph.citations.extractors import DEFAULT_EXTRACTOR, extractor_named
from lexgraph.errors import InputError, Unavailable

Entry = Mapping[str, Any]
Predict = Callable[[str], list[dict[str, Any]]]
PredictLine = Callable[[Entry], list[dict[str, Any]]]

# Where the Supreme Court judgments the golds are taken from live in a checkout next to ../shared.
DEFAULT_JUDGMENTS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "precedents" / "supreme_court"
JUDGMENTS_ENV = "LEXGRAPH_JUDGMENTS"  # another folder of those judgments (a worktree elsewhere, a CI cache)
KINDS = ("statute", "precedent")
_STATUTE_TARGET = ("article", "paragraph", "item")
LEVELS = ("span", "overlap", "target")


@dataclass(frozen=True)
class PRF:
    """True positives, false positives and false negatives, with the ratios they give.

    An empty denominator gives 0.0, except that nothing predicted and nothing expected is a perfect 1.0: a
    sentence set without precedents should not make a precedent finder look broken.
    """

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        if self.tp + self.fp == 0:
            return 1.0 if self.fn == 0 else 0.0
        return self.tp / (self.tp + self.fp)

    @property
    def recall(self) -> float:
        if self.tp + self.fn == 0:
            return 1.0 if self.fp == 0 else 0.0
        return self.tp / (self.tp + self.fn)

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 0.0 if p + r == 0 else 2 * p * r / (p + r)

    def __add__(self, other: PRF) -> PRF:
        return PRF(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    def to_json(self) -> dict[str, Any]:
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }


@dataclass(frozen=True)
class LevelScores:
    """The three levels for one kind of citation (or for both together)."""

    span: PRF = PRF()
    overlap: PRF = PRF()
    target: PRF = PRF()

    def __add__(self, other: LevelScores) -> LevelScores:
        return LevelScores(self.span + other.span, self.overlap + other.overlap, self.target + other.target)

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name).to_json() for name in LEVELS}


@dataclass(frozen=True)
class Miss:
    """One target-level error, so that a report can say what was missed or invented, and where."""

    doc: str
    sentence_start: int
    kind: str
    side: str  # "missed": a gold citation no prediction matched; "spurious": a prediction no gold matched
    surface: str
    citation: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {
            "doc": self.doc,
            "sentence_start": self.sentence_start,
            "kind": self.kind,
            "side": self.side,
            "surface": self.surface,
            "citation": self.citation,
        }


@dataclass(frozen=True)
class CitationScores:
    """Scores for statutes, precedents and both over `sentences` sentences, and the target-level misses."""

    statute: LevelScores
    precedent: LevelScores
    sentences: int
    misses: tuple[Miss, ...] = field(default=(), repr=False)

    @property
    def overall(self) -> LevelScores:
        return self.statute + self.precedent

    def to_json(self, *, with_misses: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "sentences": self.sentences,
            "statute": self.statute.to_json(),
            "precedent": self.precedent.to_json(),
            "overall": self.overall.to_json(),
        }
        if with_misses:
            out["misses"] = [m.to_json() for m in self.misses]
        return out


def load_gold(path: str | Path) -> list[dict[str, Any]]:
    """The gold lines of a JSONL file; blank lines are skipped, and a bad line names its number."""
    lines: list[dict[str, Any]] = []
    with open(path, encoding="utf-8") as fh:
        for number, raw in enumerate(fh, start=1):
            if not raw.strip():
                continue
            try:
                line = json.loads(raw)
            except json.JSONDecodeError as err:
                raise InputError(f"{path}:{number}: not a JSON object: {err}") from err
            if not isinstance(line, dict) or "sentence" not in line:
                raise InputError(f"{path}:{number}: a gold line needs a 'sentence' and 'citations'")
            lines.append(line)
    return lines


def evaluate(gold_lines: Iterable[Entry | str], predict: Predict) -> CitationScores:
    """Score `predict` on every gold sentence, each read alone. Lines may be parsed dicts or raw JSON strings."""
    return evaluate_lines(gold_lines, lambda line: predict(line["sentence"]))


@dataclass(frozen=True)
class Replay:
    """The predictions for each gold sentence, keyed by (doc, sentence_start), made by reading whole judgments.
    `replayed` are the judgments read whole; `fallback` those read sentence by sentence (file missing, or its
    text differs from the gold at the gold's offsets)."""

    predictions: Mapping[tuple[str, int], list[dict[str, Any]]]
    replayed: tuple[str, ...]
    fallback: tuple[str, ...]


def replay_judgments(gold_lines: Iterable[Entry], corpus: Path | None, extract_text: Predict) -> Replay:
    """Run `extract_text` over each judgment of the gold once, in full, and give each gold sentence the citations
    that start inside it (offsets relative to the sentence). A citation that runs past the sentence's end keeps
    its end: the overlap levels still see it."""
    by_doc: dict[str, list[Entry]] = {}
    for line in gold_lines:
        by_doc.setdefault(str(line.get("doc", "")), []).append(line)
    predictions: dict[tuple[str, int], list[dict[str, Any]]] = {}
    replayed: list[str] = []
    fallback: list[str] = []
    for doc, lines in by_doc.items():
        text = _judgment_text(corpus, doc, lines)
        if text is None:
            fallback.append(doc)
            for line in lines:
                predictions[(doc, int(line.get("sentence_start", 0)))] = list(extract_text(line["sentence"]))
            continue
        replayed.append(doc)
        found = sorted(extract_text(text), key=lambda c: (int(c["start"]), int(c["end"])))
        starts = [int(c["start"]) for c in found]
        for line in lines:
            first, last = int(line["sentence_start"]), int(line["sentence_end"])
            inside = found[bisect_left(starts, first):bisect_left(starts, last)]
            predictions[(doc, first)] = [
                {**c, "start": int(c["start"]) - first, "end": int(c["end"]) - first} for c in inside]
    return Replay(predictions, tuple(replayed), tuple(fallback))


def _judgment_text(corpus: Path | None, doc: str, lines: list[Entry]) -> str | None:
    """The judgment file's text when it holds every gold sentence of `doc` at its offsets, else None."""
    if corpus is None or not doc:
        return None
    from lexgraph.documents.encoding import decode_text
    from lexgraph.errors import EncodingError

    path = corpus / doc
    try:
        text = decode_text(path.read_bytes(), str(path)).text  # read as `lexgraph cite` reads it
    except (OSError, EncodingError):
        return None
    for line in lines:
        if "sentence_end" not in line:
            return None
        if text[int(line["sentence_start"]):int(line["sentence_end"])] != line["sentence"]:
            return None
    return text


def judgments_folder(given: Path | None = None) -> Path:
    """The folder of judgments the golds' sentences are read within: `given` (``--judgments``), else
    ``LEXGRAPH_JUDGMENTS``, else ../shared's Supreme Court corpus beside the checkout."""
    if given is not None:
        return given
    named = os.environ.get(JUDGMENTS_ENV)
    return Path(named) if named else DEFAULT_JUDGMENTS


def evaluate_in_documents(gold_lines: Iterable[Entry | str], extract_text: Predict,
                          corpus: Path | None) -> tuple[CitationScores, Replay]:
    """Score `extract_text` on every gold sentence as read within its whole judgment (see `replay_judgments`);
    `corpus` None reads every sentence alone, knowingly. Raises `Unavailable` when `corpus` is no folder: the
    golds' figures are measured with their judgments read whole, and reading sentences alone instead gave lower
    figures with no word of why (a checkout without ../shared beside it)."""
    if corpus is not None and not corpus.is_dir():
        raise Unavailable(
            f"judgments folder {corpus} not found: gold sentences are scored as read within their whole judgment "
            f"(../shared/data/precedents/supreme_court). Put the shared data beside the checkout "
            f"as ../shared, name the folder with --judgments DIR or {JUDGMENTS_ENV}, or pass "
            "--sentences-alone to score each sentence alone (lower figures, not those of docs/citations.md)")
    lines = [json.loads(raw) if isinstance(raw, str) else raw for raw in gold_lines]
    replay = replay_judgments(lines, corpus, extract_text)
    scores = evaluate_lines(
        lines, lambda line: replay.predictions[(str(line.get("doc", "")), int(line.get("sentence_start", 0)))])
    return scores, replay


def score_extractor(lines: Sequence[Entry], extractor: str = DEFAULT_EXTRACTOR, *, judgments: Path | None = None,
                    sentences_alone: bool = False,
                    cite: Callable[[str], Iterable[Any]] | None = None) -> CitationScores:
    """Precision, recall and F1 of the extractor named `extractor` (one of `EXTRACTORS`) on gold lines, on spans,
    overlaps and resolved targets (``lexgraph eval citations``). Each judgment the gold names is read whole from
    `judgments_folder(judgments)`, as ``lexgraph cite`` reads it, so that 同法 and labels defined earlier resolve;
    a judgment that folder lacks (a caption line of the literature gold) is read sentence by sentence
    (`replay_judgments`), and `sentences_alone` reads every one so. Raises `Unavailable` when the folder is
    missing, `ConfigurationError` for an unknown extractor, `ToolMissing` for one not installed. `cite` (a text →
    its citations) replaces the extractor read with the catalogue alone: a store's, so that laws only the store
    knows resolve as ``lexgraph cite --store`` resolves them."""
    chosen = extractor_named(extractor)
    found = cite if cite is not None else chosen.extract
    return evaluate_in_documents(lines, lambda text: [c.to_json() for c in found(text)],
                                 None if sentences_alone else judgments_folder(judgments))[0]


def evaluate_lines(gold_lines: Iterable[Entry | str], predict_line: PredictLine) -> CitationScores:
    """Score `predict_line` (a gold line → its predicted cite entries, offsets relative to the sentence)."""
    totals = {kind: LevelScores() for kind in KINDS}
    misses: list[Miss] = []
    sentences = 0
    for raw in gold_lines:
        line = json.loads(raw) if isinstance(raw, str) else raw
        sentences += 1
        gold = list(line.get("citations") or [])
        predicted = list(predict_line(line))
        for kind in KINDS:
            g: list[Entry] = [c for c in gold if c.get("kind") == kind]
            p: list[Entry] = [c for c in predicted if c.get("kind") == kind]
            scores, unmatched_gold, unmatched_pred = _score_sentence(g, p)
            totals[kind] = totals[kind] + scores
            where = (str(line.get("doc", "")), int(line.get("sentence_start", 0)))
            for side, left in (("missed", unmatched_gold), ("spurious", unmatched_pred)):
                misses += [Miss(*where, kind, side, str(c.get("surface", "")), dict(c)) for c in left]
    return CitationScores(totals["statute"], totals["precedent"], sentences, tuple(misses))


def _score_sentence(gold: list[Entry], pred: list[Entry]) -> tuple[LevelScores, list[Entry], list[Entry]]:
    """The three levels for one kind in one sentence, and the citations left unmatched at target level."""
    span_tp = _match(gold, pred, lambda g, p: _span(g) == _span(p))
    overlap_tp = _match(gold, pred, lambda g, p: _overlap(g, p) > 0)
    target_pairs = _pairs(gold, pred, lambda g, p: _overlap(g, p) > 0 and same_target(g, p))
    target_tp = len(target_pairs)
    matched_g = {i for i, _ in target_pairs}
    matched_p = {j for _, j in target_pairs}
    n_g, n_p = len(gold), len(pred)
    scores = LevelScores(
        PRF(span_tp, n_p - span_tp, n_g - span_tp),
        PRF(overlap_tp, n_p - overlap_tp, n_g - overlap_tp),
        PRF(target_tp, n_p - target_tp, n_g - target_tp),
    )
    return (
        scores,
        [c for i, c in enumerate(gold) if i not in matched_g],
        [c for j, c in enumerate(pred) if j not in matched_p],
    )


def _match(gold: list[Entry], pred: list[Entry], ok: Callable[[Entry, Entry], bool]) -> int:
    return len(_pairs(gold, pred, ok))


def _pairs(gold: list[Entry], pred: list[Entry], ok: Callable[[Entry, Entry], bool]) -> list[tuple[int, int]]:
    """Greedy one-to-one matching in gold order, each gold taking the eligible prediction it overlaps most."""
    used: set[int] = set()
    pairs: list[tuple[int, int]] = []
    for i, g in enumerate(gold):
        best, best_overlap = None, -1
        for j, p in enumerate(pred):
            if j in used or not ok(g, p):
                continue
            overlap = _overlap(g, p)
            if overlap > best_overlap:
                best, best_overlap = j, overlap
        if best is not None:
            used.add(best)
            pairs.append((i, best))
    return pairs


def _span(c: Entry) -> tuple[int, int]:
    return int(c["start"]), int(c["end"])


def _overlap(a: Entry, b: Entry) -> int:
    (s1, e1), (s2, e2) = _span(a), _span(b)
    return max(0, min(e1, e2) - max(s1, s2))


def same_target(gold: Entry, pred: Entry) -> bool:
    """Do the two cite entries point at the same clause (statute) or decision (precedent)?"""
    if gold.get("kind") != pred.get("kind"):
        return False
    if gold.get("kind") == "precedent":
        return all(_norm(gold.get(k)) == _norm(pred.get(k)) for k in ("court", "date", "decision_type"))
    if gold.get("law_id") and pred.get("law_id"):
        same_law = gold["law_id"] == pred["law_id"]
    else:
        same_law = _title(gold.get("law_title")) is not None and _title(gold.get("law_title")) == _title(
            pred.get("law_title")
        )
    return same_law and all(_norm(gold.get(k)) == _norm(pred.get(k)) for k in _STATUTE_TARGET)


def _norm(value: Any) -> str | None:
    return None if value is None else str(value).strip()


def _title(value: Any) -> str | None:
    """A law title without width or comma differences: 「児童買春，児童ポルノ」 = 「児童買春、児童ポルノ」."""
    if value is None:
        return None
    text = unicodedata.normalize("NFKC", str(value))
    return "".join(text.split()).replace(",", "、")
