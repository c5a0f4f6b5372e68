"""Build the judgment-citation retrieval benchmark (bench/data/judgment_retrieval.json) from the judgments at hand.

    python scripts/build_judgment_retrieval.py [--judgments DIR] [--archive TAR] [--budget 5000] [--seed 17]

Every rule is in lexgraph/eval/judgment_bench.py: qualifying sentences of every judgment (query: the sentence
without its citations; gold: the cited articles and paragraphs), the laws kept (most cited first, within a budget
of clauses to embed; the laws that bench/retrieval_lawqa.py --prepare stores anyway cost nothing), at most two
sentences per judgment, a seeded split by judgment. Run it again with the same inputs: the same file comes out.

Sources: Supreme Court judgments from 裁判所ウェブサイト (https://www.courts.go.jp/), text extracted from the
published PDFs (../shared/data/precedents/supreme_court, file name = the site's lawsuit id); judgments are not
subject to copyright (著作権法第13条). Law sizes from e-Gov 法令データ (出典：e-Gov法令検索), the 2020-11-18
lawhub archive.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from lexgraph.eval.judgment_bench import (
    DEV_SHARE,
    MAX_GOLD,
    PER_JUDGMENT,
    choose_laws,
    citing_sentences,
    law_frequencies,
    select_queries,
)
from lexgraph.statutes.catalog import Catalog
from lexgraph.statutes.sources import XmlDocument, iter_documents, select_laws

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
FORMAT = "lexgraph-retrieval-benchmark/1"


def clause_counts(archive: Path, law_ids: list[str], catalog: Catalog) -> dict[str, int]:
    """Paragraph elements per law in the archive: what the index embeds for it (one unit per paragraph)."""
    entries = [e for e in (catalog.by_id(i) for i in law_ids) if e is not None]
    by_num = {e.law_num: e.law_id for e in entries}
    counts: dict[str, int] = {}
    for doc in iter_documents([archive], only=select_laws([e.law_id for e in entries], list(by_num))):
        if isinstance(doc, XmlDocument):
            stem = doc.name.rsplit("/", 1)[-1].removesuffix(".xml")
            law_id = by_num.get(stem) or next((i for i in law_ids if stem.startswith(i)), None)
            if law_id:
                counts[law_id] = max(counts.get(law_id, 0), doc.data.count(b"<Paragraph "))
    return counts


def stored_anyway(law_list: Path) -> set[str]:
    """The laws bench/retrieval_lawqa.py --prepare stores for lawqa_jp, and 民法 (its distractor)."""
    entries = json.loads(law_list.read_text(encoding="utf-8"))
    return {e["url"].rsplit("/", 1)[-1] for e in entries if "laws.e-gov.go.jp/law/" in e["url"]} | {"129AC0000000089"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--judgments", type=Path, default=SHARED / "precedents" / "supreme_court")
    parser.add_argument("--archive", type=Path, default=SHARED / "egov" / "lawhub-xml_2020-11-18_all.tar.xz")
    parser.add_argument("--law-list", type=Path, default=SHARED / "lawqa_jp" / "law_list.json")
    parser.add_argument("--budget", type=int, default=3000, help="clauses of new laws the store may embed")
    parser.add_argument("--candidates", type=int, default=40, help="most-cited laws whose size is measured")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "data" / "judgment_retrieval.json")
    args = parser.parse_args()
    catalog = Catalog.bundled()
    started = time.perf_counter()
    files = sorted(args.judgments.glob("*.txt"))
    sentences = [s for f in files for s in citing_sentences(f.stem, f.read_text(encoding="utf-8"), catalog)]
    print(f"{len(sentences)} qualifying sentences in {len(files)} judgments ({time.perf_counter() - started:.0f} s)",
          file=sys.stderr)
    frequencies = law_frequencies(sentences)
    free = stored_anyway(args.law_list)
    top = [law for law, _ in sorted(frequencies.items(), key=lambda i: (-i[1], i[0]))[:args.candidates]]
    sizes = clause_counts(args.archive, top, catalog)  # a law the archive lacks (金融商品取引法) gets no size
    sizes |= {law: 0 for law in sizes if law in free}
    print("clauses per law: " + ", ".join(f"{getattr(catalog.by_id(law), 'title', law)} {sizes.get(law, '-')}"
                                          for law in top), file=sys.stderr)
    laws = choose_laws(frequencies, sizes, args.budget)
    picked = select_queries(sentences, laws, seed=args.seed)
    used = sorted({law for s, _ in picked for law in s.laws})
    payload = {
        "format": FORMAT,
        "name": "supreme-court-citing-sentences",
        "description": "Query: a sentence of a Supreme Court judgment with its statute citations removed; gold: the "
                       "articles (and paragraphs, where cited) it cited. Built by scripts/build_judgment_retrieval.py "
                       "with the rules of lexgraph/eval/judgment_bench.py.",
        "source": "Supreme Court judgments, 裁判所ウェブサイト (https://www.courts.go.jp/), text extracted from the "
                  "PDFs; not subject to copyright (著作権法第13条). Clause paths: e-Gov 法令データ "
                  "(出典：e-Gov法令検索).",
        "rules": {"seed": args.seed, "budget": args.budget, "per_judgment": PER_JUDGMENT, "max_gold": MAX_GOLD,
                  "dev_share": round(DEV_SHARE, 4), "judgments": len(files), "qualifying_sentences": len(sentences)},
        "laws": [{"law_id": law, "title": getattr(catalog.by_id(law), "title", law), "clauses": sizes.get(law),
                  "sentences": frequencies[law]} for law in used],
        "queries": [
            {"qid": s.qid, "split": split, "doc": s.doc, "query": s.query,
             "articles": [{"law_id": law, "path": path} for law, path in s.articles],
             "paragraphs": [{"law_id": law, "path": path} for law, path in s.paragraphs]}
            for s, split in picked
        ],
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    splits = {name: sum(1 for _, split in picked if split == name) for name in ("dev", "test")}
    titles = ", ".join(entry["title"] for entry in payload["laws"])
    print(f"wrote {args.out}: {len(picked)} queries ({splits}) over {len(used)} laws "
          f"({sum(sizes.get(law, 0) for law in used)} new clauses): {titles}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
