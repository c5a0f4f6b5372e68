"""Precision, recall and F1 of a citation extractor against a gold JSONL file (issue 3).

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
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Entry = Mapping[str, Any]
Predict = Callable[[str], list[dict[str, Any]]]

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
                raise ValueError(f"{path}:{number}: not a JSON object: {err}") from err
            if not isinstance(line, dict) or "sentence" not in line:
                raise ValueError(f"{path}:{number}: a gold line needs a 'sentence' and 'citations'")
            lines.append(line)
    return lines


def evaluate(gold_lines: Iterable[Entry | str], predict: Predict) -> CitationScores:
    """Score `predict` on every gold sentence. Lines may be parsed dicts or raw JSON strings."""
    totals = {kind: LevelScores() for kind in KINDS}
    misses: list[Miss] = []
    sentences = 0
    for raw in gold_lines:
        line = json.loads(raw) if isinstance(raw, str) else raw
        sentences += 1
        gold = list(line.get("citations") or [])
        predicted = list(predict(line["sentence"]))
        for kind in KINDS:
            g = [c for c in gold if c.get("kind") == kind]
            p = [c for c in predicted if c.get("kind") == kind]
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
