"""The rule extractor and the GiNZA extractor side by side: speed on the same judgments in the same run, and F1
on the golds.

    .venv/bin/python bench/ginza_vs_rules.py [--kb 200] [--rounds 2] [--golds] [--json]

Speed: the first judgments of ../shared/data/precedents/supreme_court (name order) up to `--kb` KB of UTF-8, read
as ``lexgraph cite`` reads them; each extractor is loaded and warmed up first (the GiNZA model load is reported
apart), then both run over every text, alternating, `--rounds` times; CPU time (``time.process_time``) of the
best round, chars/s, and the ratio ginza/rules. Also how many sentences GiNZA parsed and how many citations
differ. With `--golds`: statute and precedent target F1 of both on the dev and held-out golds, replayed in their
judgments as ``lexgraph eval citations`` does, and the lawqa_jp bracketed references (a few minutes: GiNZA
parses every sentence of those judgments that holds a bare article or a 前項).
With `--diff`: every citation of the whole corpus (742 judgments, about ten minutes) whose law, article,
paragraph or item the two extractors read differently, as JSON lines with the sentence, to be judged by hand
(docs/citations.md gives the verdicts).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "data" / "precedents" / "supreme_court"
GOLDS = ROOT / "tests" / "data" / "citations"


def read_texts(kb: int) -> list[str]:
    from lexgraph.documents.encoding import decode_text

    texts: list[str] = []
    size = 0
    for path in sorted(CORPUS.glob("*.txt")):
        text = decode_text(path.read_bytes(), str(path)).text
        texts.append(text)
        size += len(text.encode("utf-8"))
        if size >= kb * 1000:
            break
    return texts


def speed(texts: list[str], rounds: int) -> dict[str, Any]:
    from lexgraph.citations import CitationContext
    from lexgraph.citations.extractors import extractor_named
    from lexgraph.citations.ginza import GinzaExtractor

    context = CitationContext(citing_court="最高裁判所")
    start = time.perf_counter()
    rules = extractor_named("rules")
    rules.extract("民法７０９条", context)
    rules_load = time.perf_counter() - start
    start = time.perf_counter()
    ginza = extractor_named("ginza")
    ginza.extract("同法は，前項の規定により（３条）。", context)
    ginza_load = time.perf_counter() - start
    assert isinstance(ginza, GinzaExtractor)
    best = {"rules": float("inf"), "ginza": float("inf")}
    found: dict[str, list[list[tuple[Any, ...]]]] = {}
    for _ in range(rounds):
        for name, extractor in (("rules", rules), ("ginza", ginza)):
            ginza.parsed = 0
            began = time.process_time()
            out = [extractor.extract(text, context) for text in texts]
            best[name] = min(best[name], time.process_time() - began)
            found[name] = [[(c.start, c.end, c.law_title, c.article, c.paragraph, c.item) for c in cs] for cs in out]
    chars = sum(map(len, texts))
    differ = sum(len({c[:2] for c in set(a) ^ set(b)}) for a, b in zip(found["rules"], found["ginza"], strict=True))
    return {
        "texts": len(texts), "chars": chars, "utf8_bytes": sum(len(t.encode("utf-8")) for t in texts),
        "load_s": {"rules": round(rules_load, 2), "ginza": round(ginza_load, 2)},
        "cpu_s": {k: round(v, 3) for k, v in best.items()},
        "chars_per_s": {k: round(chars / v) for k, v in best.items()},
        "ratio_ginza_to_rules": round(best["rules"] / best["ginza"], 4),
        "citations": {k: sum(map(len, v)) for k, v in found.items()},
        "citations_differing": differ,
        "sentences_parsed": ginza.parsed,
    }


def corpus_diff() -> None:
    """Print, as JSON lines, each citation of the corpus the two extractors read differently."""
    from lexgraph.citations import CitationContext
    from lexgraph.citations.extractors import extractor_named
    from lexgraph.documents.encoding import decode_text

    context = CitationContext(citing_court="最高裁判所")
    rules, ginza = extractor_named("rules"), extractor_named("ginza")
    for path in sorted(CORPUS.glob("*.txt")):
        text = decode_text(path.read_bytes(), str(path)).text
        by_rules = {(c.start, c.end): c for c in rules.extract(text, context, precedents=False)}
        by_parse = {(c.start, c.end): c for c in ginza.extract(text, context, precedents=False)}
        for span in sorted(by_rules.keys() | by_parse.keys()):
            read = [None if c is None else (c.law_title, c.article, c.paragraph, c.item)
                    for c in (by_rules.get(span), by_parse.get(span))]
            if read[0] != read[1]:
                first = text.rfind("。", 0, span[0]) + 1
                print(json.dumps({"doc": path.name, "start": span[0], "surface": text[span[0]:span[1]],
                                  "rules": read[0], "ginza": read[1],
                                  "sentence": text[first:text.find("。", span[1]) + 1]}, ensure_ascii=False),
                      flush=True)


def golds() -> dict[str, Any]:
    from lexgraph.eval import citations, lawqa_gold

    out: dict[str, Any] = {}
    for name in ("dev_gold", "heldout_gold"):
        lines = citations.load_gold(GOLDS / f"{name}.jsonl")
        for extractor in ("rules", "ginza"):
            scores = citations.score_extractor(lines, extractor)
            out[f"{name} {extractor}"] = {
                "statute_target_f1": round(scores.statute.target.f1, 4),
                "statute_span_f1": round(scores.statute.span.f1, 4),
                "precedent_target_f1": round(scores.precedent.target.f1, 4),
            }
    lawqa = citations.load_gold(GOLDS / "lawqa_relative_gold.jsonl")
    for extractor in ("rules", "ginza"):
        result = lawqa_gold.score_extractor(lawqa, extractor)
        out[f"lawqa_relative_gold {extractor}"] = {"accuracy": round(result.accuracy, 4),
                                                    "correct": result.correct, "brackets": result.total}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kb", type=int, default=200, help="KB of judgments to time on (default 200)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--golds", action="store_true", help="also score both extractors on the golds")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--diff", action="store_true", help="list the corpus's citations read differently")
    args = parser.parse_args()
    if args.diff:
        corpus_diff()
        return
    report: dict[str, Any] = {"speed": speed(read_texts(args.kb), args.rounds)}
    if args.golds:
        report["golds"] = golds()
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
        return
    s = report["speed"]
    print(f"{s['texts']} judgments, {s['chars']:,} chars ({s['utf8_bytes'] / 1000:.0f} KB), best of {args.rounds}, "
          f"CPU time; load rules {s['load_s']['rules']} s, ginza {s['load_s']['ginza']} s (not counted)")
    for name in ("rules", "ginza"):
        print(f"  {name:6} {s['cpu_s'][name]:8.3f} s  {s['chars_per_s'][name]:>12,} chars/s  "
              f"{s['citations'][name]} citations")
    print(f"  speed ratio ginza/rules: {s['ratio_ginza_to_rules']:.4f}  ({s['sentences_parsed']} sentences parsed, "
          f"{s['citations_differing']} citations differ)")
    for name, row in report.get("golds", {}).items():
        print(f"  {name:28} " + "  ".join(f"{k} {v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
