"""How many sentences each citation-attachment method attaches citations to, on the bundled sample.

    .venv/bin/python bench/citalaw_eligibility.py --store DIR [--json]

DIR is a store of the bundled sample, indexed (tests/helpers.build_search_store builds one: 民法 2020 & 2023,
借地借家法, the four judgments). Two sets of real sentences, no model:

* ``lawqa``: lawqa_jp's sample questions (tests/data/lawqa/dev_sample.json, 10 questions): each question's 問題文, its
  instruction (指示) and its four choices, one sentence each, read as the sentences of an answer that restates
  them (the text a model's answer repeats); the references are what `lexgraph ask` would give the model for the
  question (the sample store's search, default limits).
* ``judgments``: every sentence (split at 。) of the four bundled judgments (lexgraph/data/sample/precedents): how
  many of a legal text's sentences the criteria call legal (eligibility only; nothing to attach).

Methods: ``regex`` is the eligibility lexgraph used before CitaLaw's criteria (one kanji of 法|条|項|号|権|…,
kept here only for the comparison) with CitaLaw's attachment; ``ginza`` is CitaLaw's criteria on GiNZA's
parse (terminology pool and legal entities, `lexgraph.answer.eligibility`) with CitaLaw's attachment;
``lexgraph`` is `lexgraph ask`'s default attachment (every uncited sentence may get the most similar law,
by token cosine; no eligibility test).
Printed: sentences, eligible, and sentences given at least one citation, per method and set.
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from lexgraph import LexGraph
from lexgraph.answer.attach import attach_citations, attach_published
from lexgraph.answer.eligibility import eligible
from lexgraph.answer.model import AnswerSentence
from lexgraph.answer.references import build_references
from lexgraph.index.embed import get_embedder

ROOT = Path(__file__).resolve().parents[1]
LAWQA = ROOT / "tests" / "data" / "lawqa" / "dev_sample.json"
JUDGMENTS = ROOT / "lexgraph" / "data" / "sample" / "precedents"
#: The eligibility of lexgraph before CitaLaw's criteria: one kanji of this class anywhere in the sentence.
OLD_RULE = re.compile(r"法|条|項|号|権|義務|責任|契約|請求|規定|裁判|判決|判例|要件|効力|違反|許可|届出|罰")


def regex_eligible(texts: list[str]) -> list[bool]:
    return [bool(OLD_RULE.search(t)) for t in texts]


def lawqa_answers() -> list[tuple[str, list[str]]]:
    samples = json.loads(LAWQA.read_text(encoding="utf-8"))["samples"]
    out = []
    for s in samples:
        lines = [s["問題文"], s["指示"], *[line for line in s["選択肢"].splitlines() if line.strip()]]
        out.append((s["問題文"], [line.strip() for line in lines if line.strip()]))
    return out


def judgment_sentences() -> list[str]:
    sentences = []
    for path in sorted(JUDGMENTS.glob("*.txt")):
        text = re.sub(r"\s+", "", path.read_text(encoding="utf-8"))
        sentences += [s + "。" for s in text.split("。") if s]
    return sentences


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    embed = get_embedder().embed_passages
    counts: dict[str, dict[str, int]] = {m: {"sentences": 0, "eligible": 0, "attached": 0}
                                         for m in ("regex", "ginza", "lexgraph")}
    with LexGraph.open(args.store, read_only=True) as lg:
        for question, lines in lawqa_answers():
            references = build_references(lg.store, lg.search(question))
            sentences = [AnswerSentence(line, ()) for line in lines]
            for method, rule in (("regex", regex_eligible), ("ginza", eligible)):
                flags = rule(lines)
                got = attach_published(sentences, references, embed, needs_basis=rule)
                counts[method]["sentences"] += len(lines)
                counts[method]["eligible"] += sum(flags)
                counts[method]["attached"] += sum(1 for s in got if s.attached)
            got = attach_citations(sentences, references)
            counts["lexgraph"]["sentences"] += len(lines)
            counts["lexgraph"]["eligible"] += len(lines)  # no test: every uncited sentence may take one
            counts["lexgraph"]["attached"] += sum(1 for s in got if s.attached)
    texts = judgment_sentences()
    judgments = {"sentences": len(texts), "regex": sum(regex_eligible(texts)), "ginza": sum(eligible(texts))}
    report: dict[str, Any] = {"lawqa_sample": counts, "judgments": judgments}
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=1))
        return 0
    print("lawqa_jp sample (10 questions; question, instruction and choices as answer sentences):")
    for method, c in counts.items():
        print(f"  {method:9s} sentences {c['sentences']:3d}  eligible {c['eligible']:3d}  "
              f"given a citation {c['attached']:3d}")
    print(f"bundled judgments: {judgments['sentences']} sentences, eligible by regex {judgments['regex']}, "
          f"by GiNZA criteria {judgments['ginza']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
