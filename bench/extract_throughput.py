"""Throughput and accuracy of lexgraph's rule extractor against jlawcite's `extract_all`, on the same judgments.

Why: lexgraph's extractor is held to be both faster and more accurate than jlawcite (the other rule-based
Japanese citation extractor on PyPI), and that the rule extractor read at least 2 MB/s of UTF-8 text on one core.
This script measures both claims in one process, so the ratios are meaningful on a noisy machine.

    .venv/bin/pip install jlawcite          # for the comparison only; not a lexgraph dependency
    .venv/bin/python bench/extract_throughput.py [--limit N] [--json] [--gold PATH] [--corpus DIR]

What is measured:

* throughput: wall time (time.perf_counter) of one pass over every judgment of ``--corpus`` (default
  ../shared/data/precedents/supreme_court, 742 Supreme Court judgments), for lexgraph with ``precedents=False``
  (statutes only, like for like with jlawcite, which finds no court decisions), lexgraph with ``precedents=True``
  and jlawcite's ``extract_all``; also lexgraph's scanner alone (`find_statutes`, no resolution, like
  ``extract_all``), to show where the time goes. Each is loaded and warmed up first (the load time of the first
  call, which reads lexgraph's law catalogue, is reported apart), then run ``--rounds`` times (2), interleaved;
  the best pass is reported. MB/s counts UTF-8 bytes (1 MB = 10^6 bytes). Single process, one thread, nothing
  global is changed.
* accuracy: span / overlap / target P, R and F1 on the development gold (tests/data/citations/dev_gold.jsonl,
  sentences of the same judgments) with `lexgraph.eval.citations.evaluate`. jlawcite's references are mapped to
  cite entries by `jlawcite_predictor` below, using only jlawcite's own data and rules; it has no precedent
  extraction, so its precedent F1 is 0 and the statute-only F1 is the like-for-like figure.
* peak RSS (ru_maxrss) after the texts are read, after lexgraph's first round and after jlawcite's first round.

Both extractors are given the judgments as read. lexgraph is told that the citing court is the Supreme Court
(``--citing-court``), which is what 当裁判所 means in these texts.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import resource
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "data" / "precedents" / "supreme_court"
DEFAULT_GOLD = ROOT / "tests" / "data" / "citations" / "dev_gold.jsonl"
SUPREME_COURT = "最高裁判所"
TARGET_MB_PER_S = 2.0
WARM_UP_FILES = 3
ROUNDS = 2
SCAN_ONLY = "lexgraph find_statutes"
MAX_ERRORS_SHOWN = 5

Count = Callable[[str], int]  # one text in, the number of citations found out
Predict = Callable[[str], list[dict[str, Any]]]

# jlawcite tokens that name a law but no clause (同法 alone, 本法, 新法 …) and the 各号 modifier: not citations of
# a clause, so not scored (the gold has none of them).
_LAW_LEVEL_TOKENS = frozenset(
    {"同法", "同令", "同規則", "同条例", "新法", "旧法", "新令", "旧令", "新規則", "旧規則"}
    | {"本法", "本令", "本規則", "各号"}
)


# ----------------------------------------------------------------------------------------------- corpus


@dataclass(frozen=True)
class Corpus:
    names: tuple[str, ...]
    texts: tuple[str, ...]
    chars: int
    utf8_bytes: int


def read_corpus(directory: Path, limit: int | None) -> Corpus:
    paths = sorted(directory.glob("*.txt"))[:limit]
    texts = tuple(p.read_text(encoding="utf-8") for p in paths)
    return Corpus(
        names=tuple(p.name for p in paths),
        texts=texts,
        chars=sum(len(t) for t in texts),
        utf8_bytes=sum(len(t.encode("utf-8")) for t in texts),
    )


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ----------------------------------------------------------------------------------------------- extractors


@dataclass
class Extractor:
    """One thing to time: a counting function over whole texts and, for the gold, a sentence predictor."""

    name: str
    count: Count
    predict: Predict
    load_s: float
    passes: list[float] = field(default_factory=list)
    citations: int = 0
    errors: list[str] = field(default_factory=list)


def load_lexgraph(citing_court: str | None, precedents: bool) -> Extractor:
    """lexgraph's `extract`; the load time covers the import and the first call (the bundled catalogue)."""
    start = time.perf_counter()
    from lexgraph.citations import CitationContext, extract

    context = CitationContext(citing_court=citing_court)
    extract("民法７０９条", context, precedents=precedents)
    load_s = time.perf_counter() - start

    def count(text: str) -> int:
        return len(extract(text, context, precedents=precedents))

    def predict(sentence: str) -> list[dict[str, Any]]:
        return [c.to_json() for c in extract(sentence, context, precedents=precedents)]

    name = "lexgraph" if precedents else "lexgraph (statutes only)"
    return Extractor(name, count, predict, load_s)


def load_lexgraph_scanner() -> Extractor:
    """lexgraph's first stage alone, `find_statutes` (mentions, no resolution), which is what jlawcite's
    `extract_all` does; timed only, to show where lexgraph's time goes."""
    start = time.perf_counter()
    from lexgraph.citations import CitationContext, LawNames, find_statutes

    names = LawNames.for_catalog(CitationContext().catalog)
    find_statutes("民法７０９条", names)
    load_s = time.perf_counter() - start

    def count(text: str) -> int:
        return len(find_statutes(text, names))

    return Extractor(SCAN_ONLY, count, lambda sentence: [], load_s)


def load_jlawcite() -> Extractor | None:
    """jlawcite's `extract_all`, or None when it is not installed. The alias table (used only to score) is not
    counted in the load time."""
    start = time.perf_counter()
    try:
        from jlawcite.citation import extract_all
    except ImportError:
        return None
    extract_all("民法第七百九条")
    load_s = time.perf_counter() - start

    def count(text: str) -> int:
        return sum(len(refs) for refs in extract_all(text).values())

    return Extractor("jlawcite", count, jlawcite_predictor(), load_s)


def jlawcite_predictor() -> Predict:
    """jlawcite's references in a sentence as cite entries, read with jlawcite's own rules and data:

    * an external reference (民法第七百九条) names its law; the name goes through jlawcite's bundled alias table
      (民訴法 → 民事訴訟法), as its `LawNameIndex` does;
    * 同法第N条 takes the last law cited before it, by `jlawcite.resolver.resolve_referential`;
    * a bare 第N条 continuing an enumeration (「会社法第八百三十三条第二項、第八百三十四条」) takes the law of the
      citation it continues, by jlawcite's `ENUM_GAP_PAT`, as its ingest pipeline does; otherwise it has no law;
    * 前条 / 同項 … are kept with no law or article (jlawcite resolves them only inside a statute it has parsed),
      so they count at span level only; law-level tokens (同法 alone, 本法) and 各号 are dropped.

    Articles and items become e-Gov Nums ("182-5" → "182_5"); numbers become strings.
    """
    import jlawcite.resolver as resolver
    from jlawcite.citation import ENUM_GAP_PAT, ExtRef, IntRef, RefRef, extract_all

    aliases = resolver.load_aliases(Path(resolver.__file__).parent / "jp_law_aliases.json")

    def law_of(ref: ExtRef, last: str | None) -> str | None:
        if not ref.naked:
            return aliases.get(ref.law_name_raw, ref.law_name_raw)
        edge = resolver.resolve_referential(ref.law_name_raw, "", "main", "", None, {}, last_external_law_id=last)
        return (edge.target_id or None) if edge else None

    def predict(sentence: str) -> list[dict[str, Any]]:
        found = extract_all(sentence)
        refs = sorted((*found["external"], *found["internal"], *found["referential"]), key=lambda r: r.span)
        out: list[dict[str, Any]] = []
        last_law: str | None = None  # the law of the last external reference, for 同法
        anchor: tuple[int, str | None] | None = None  # (end, law) of the last statute reference, for enumerations
        for ref in refs:
            start, end = ref.span
            if isinstance(ref, ExtRef):
                law = law_of(ref, last_law)
                last_law = law if law is not None else last_law
                entry = _jlawcite_entry(ref, law, ref.article_path, ref.paragraph, ref.item_path)
            elif isinstance(ref, IntRef):
                carried = anchor is not None and ENUM_GAP_PAT.match(sentence[anchor[0] : start]) is not None
                law = anchor[1] if carried and anchor is not None else None
                article = None if ref.suppl and ref.article_num == 0 else ref.article_path
                entry = _jlawcite_entry(ref, law, article, ref.paragraph, ref.item_path)
            elif isinstance(ref, RefRef) and ref.kind not in _LAW_LEVEL_TOKENS:
                entry = _jlawcite_entry(ref, None, None, ref.paragraph, ref.item_path)
            else:
                continue
            out.append(entry)
            anchor = (end, entry["law_title"])
        return out

    return predict


def _jlawcite_entry(
    ref: Any, law: str | None, article: str | None, paragraph: int | None, item: str | None
) -> dict[str, Any]:
    start, end = ref.span
    return {
        "start": start, "end": end, "surface": ref.raw, "kind": "statute", "law_title": law, "law_id": None,
        "article": _num(article), "article_to": None, "paragraph": _num(paragraph), "item": _num(item),
    }


def _num(value: str | int | None) -> str | None:
    return None if value is None else str(value).replace("-", "_")


# ----------------------------------------------------------------------------------------------- timing


def warm_up(extractor: Extractor, texts: Iterable[str]) -> None:
    for text in texts:
        with contextlib.suppress(Exception):  # a failure is reported by the timed pass
            extractor.count(text)


def timed_pass(extractor: Extractor, corpus: Corpus) -> None:
    """One pass over every text; a text the extractor fails on is recorded and counts no citations."""
    count, found, errors = extractor.count, 0, []
    start = time.perf_counter()
    for name, text in zip(corpus.names, corpus.texts, strict=True):
        try:
            found += count(text)
        except Exception as err:
            errors.append(f"{name}: {type(err).__name__}: {err}")
    extractor.passes.append(time.perf_counter() - start)
    extractor.citations, extractor.errors = found, errors


def throughput(extractor: Extractor, corpus: Corpus) -> dict[str, Any]:
    best = min(extractor.passes)
    return {
        "load_s": round(extractor.load_s, 3),
        "passes_s": [round(p, 3) for p in extractor.passes],
        "best_s": round(best, 3),
        "chars_per_s": round(corpus.chars / best),
        "mb_per_s": round(corpus.utf8_bytes / 1e6 / best, 3),
        "citations": extractor.citations,
        "failed_texts": len(extractor.errors),
        "errors": extractor.errors[:MAX_ERRORS_SHOWN],
    }


# ----------------------------------------------------------------------------------------------- accuracy


def accuracy(gold_path: Path, extractors: list[Extractor]) -> dict[str, Any]:
    from lexgraph.eval.citations import evaluate, load_gold

    gold = load_gold(gold_path)
    return {x.name: evaluate(gold, x.predict).to_json() for x in extractors}


def f1(scores: dict[str, Any], kind: str, level: str = "target") -> float:
    return float(scores[kind][level]["f1"])


# ----------------------------------------------------------------------------------------------- report


def verdict(results: dict[str, Any]) -> dict[str, Any]:
    """The issue's three claims, as far as this run can tell."""
    speed = results["throughput"]
    lex = speed["lexgraph (statutes only)"]
    out: dict[str, Any] = {"target_mb_per_s": TARGET_MB_PER_S, "target_met": lex["mb_per_s"] >= TARGET_MB_PER_S}
    jl = speed.get("jlawcite")
    if jl:
        out["speed_ratio_statutes_only"] = round(lex["mb_per_s"] / jl["mb_per_s"], 3)
        out["speed_ratio_with_precedents"] = round(speed["lexgraph"]["mb_per_s"] / jl["mb_per_s"], 3)
        out["faster"] = out["speed_ratio_statutes_only"] > 1
    scores = results.get("accuracy")
    if scores and "jlawcite" in scores:
        out["more_accurate_statutes"] = f1(scores["lexgraph"], "statute") > f1(scores["jlawcite"], "statute")
        out["more_accurate_overall"] = f1(scores["lexgraph"], "overall") > f1(scores["jlawcite"], "overall")
    return out


def print_report(results: dict[str, Any]) -> None:
    corpus = results["corpus"]
    print(f"{corpus['texts']} judgments, {corpus['chars']:,} characters, {corpus['utf8_bytes'] / 1e6:.2f} MB UTF-8")
    if corpus["limit"] is None and corpus["texts"] != 742:
        print(f"  note: the issue speaks of 742 judgments; {corpus['dir']} gives {corpus['texts']}")
    print(f"peak RSS: {results['peak_rss_mb']}")
    print()
    print(f"{'extractor':<26} {'load s':>7} {'best s':>7} {'chars/s':>11} {'MB/s':>7} {'citations':>9}  passes s")
    for name, row in results["throughput"].items():
        passes = " ".join(f"{p:.2f}" for p in row["passes_s"])
        print(f"{name:<26} {row['load_s']:>7.2f} {row['best_s']:>7.2f} {row['chars_per_s']:>11,} "
              f"{row['mb_per_s']:>7.2f} {row['citations']:>9,}  {passes}")
        for error in row["errors"]:
            print(f"    failed on {error}")
        if row["failed_texts"] > len(row["errors"]):
            print(f"    … {row['failed_texts'] - len(row['errors'])} more failed texts")
    if results.get("jlawcite_missing"):
        print(f"\njlawcite: {results['jlawcite_missing']}")
    if "accuracy" in results:
        print(f"\nF1 on {results['gold']} (P / R / F1)")
        print(f"{'extractor':<26} {'kind':<10} {'span':>20} {'overlap':>20} {'target':>20}")
        for name, scores in results["accuracy"].items():
            for kind in ("statute", "precedent", "overall"):
                cells = " ".join(_prf(scores[kind][level]) for level in ("span", "overlap", "target"))
                print(f"{name:<26} {kind:<10} {cells}")
        if "jlawcite" in results["accuracy"]:
            print("  (jlawcite finds no precedents: its precedent F1 is 0; compare the statute rows like for like)")
    print()
    for key, value in results["verdict"].items():
        print(f"{key}: {value}")


def _prf(row: dict[str, Any]) -> str:
    return f"{row['precision']:.3f}/{row['recall']:.3f}/{row['f1']:.3f}".rjust(20)


# ----------------------------------------------------------------------------------------------- main


def run(args: argparse.Namespace) -> dict[str, Any]:
    corpus = read_corpus(args.corpus, args.limit)
    if not corpus.texts:
        raise SystemExit(f"no *.txt files in {args.corpus}")
    rss: dict[str, float] = {"texts_read": round(peak_rss_mb())}
    citing_court = args.citing_court or None
    warm = corpus.texts[:WARM_UP_FILES]

    extractors = [
        load_lexgraph(citing_court, precedents=False),
        load_lexgraph(citing_court, precedents=True),
        load_lexgraph_scanner(),
    ]
    for x in extractors:
        warm_up(x, warm)
        timed_pass(x, corpus)
    rss["after_lexgraph"] = round(peak_rss_mb())

    notes: dict[str, Any] = {}
    jlawcite = load_jlawcite()
    if jlawcite is None:
        notes["jlawcite_missing"] = "not installed; pip install jlawcite to compare"
        print("jlawcite is not installed: pip install jlawcite to compare (running lexgraph only)", file=sys.stderr)
    else:
        warm_up(jlawcite, warm)
        timed_pass(jlawcite, corpus)
        rss["after_jlawcite"] = round(peak_rss_mb())
        extractors.append(jlawcite)

    for _ in range(args.rounds - 1):  # later rounds in reverse order, so that neither side always goes first
        for x in reversed(extractors):
            timed_pass(x, corpus)

    results: dict[str, Any] = {
        "corpus": {"dir": str(args.corpus), "limit": args.limit, "texts": len(corpus.texts), "chars": corpus.chars,
                   "utf8_bytes": corpus.utf8_bytes},
        "citing_court": citing_court,
        "throughput": {x.name: throughput(x, corpus) for x in extractors},
        **notes,
    }
    if args.gold.exists():
        results["gold"] = str(args.gold)
        scored = [x for x in extractors if x.name in ("lexgraph", "jlawcite")]
        results["accuracy"] = accuracy(args.gold, scored)
    else:
        print(f"no gold file at {args.gold}: accuracy not measured", file=sys.stderr)
    rss["end"] = round(peak_rss_mb())
    results["peak_rss_mb"] = rss
    results["verdict"] = verdict(results)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="directory of judgment *.txt files")
    parser.add_argument("--limit", type=int, default=None, help="read only the first N files (by name)")
    parser.add_argument("--gold", type=Path, default=DEFAULT_GOLD, help="gold JSONL for P/R/F1")
    parser.add_argument("--citing-court", default=SUPREME_COURT, help="court that wrote the texts ('' for none)")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="timed passes per extractor; the best counts")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    results = run(args)
    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=2))
    else:
        print_report(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
