"""What the honesty checks of `ask` and `search` cost: each statute a generated statement names resolved as `cite`
resolves it (`answer.answerer.check_mentions`), and the stale-index check a search handle reads once.

    python bench/answer_checks.py --store DIR [--rounds 20] [--json]

The store must hold laws and a search index (tests build one from the sample: `lexgraph ingest statutes
lexgraph/data/sample`, `lexgraph index`). Printed: the median time of `check_mentions` on a statement naming two
clauses (one of them absent), over `--rounds` runs after one warm-up (the first builds the store's catalogue, also
timed), with the citation context read for the statement alone and shared by an answer's five statements (as
`LexGraph.ask` does); and the median of `stale_parts` (it reads every law's versions and every chunk owner's
hash: the cost grows with the store, which is why `LexGraph` reads it once per handle).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lexgraph.citations.model import Citation

STATEMENT = "民法第九千条及び借地借家法第三条により、借地権の存続期間は三十年である。"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    from lexgraph import LexGraph
    from lexgraph.answer.answerer import check_mentions
    from lexgraph.answer.model import AnswerSentence
    from lexgraph.retrieve.search import stale_parts

    day = date(2021, 1, 1)
    statement = [AnswerSentence(STATEMENT, ("LAW 1",))]
    with LexGraph.open(args.store, read_only=True) as lg:
        def cite(text: str, on: date):  # type: ignore[no-untyped-def]  # the context read for each text
            return lg.cite(text, as_of=on, precedents=False)

        started = time.perf_counter()
        checked = check_mentions(statement, cite, day)
        first = time.perf_counter() - started
        mentions, shared, stale = [], [], []
        for _ in range(args.rounds):
            started = time.perf_counter()
            check_mentions(statement, cite, day)
            mentions.append(time.perf_counter() - started)
            started = time.perf_counter()
            citer = lg._citer(day, precedents=False)  # as `LexGraph.ask` does: the context once per answer

            def once(text: str, on: date, read: Callable[[str], list[Citation]] = citer) -> list[Citation]:
                return read(text)

            for _ in range(5):  # an answer of five statements
                check_mentions(statement, once, day)
            shared.append((time.perf_counter() - started) / 5)
            started = time.perf_counter()
            stale_parts(lg.store)
            stale.append(time.perf_counter() - started)
    figures = {"check_mentions_first_ms": round(first * 1000, 1),
               "check_mentions_median_ms": round(statistics.median(mentions) * 1000, 1),
               "check_mentions_in_an_answer_of_5_median_ms": round(statistics.median(shared) * 1000, 1),
               "stale_parts_median_ms": round(statistics.median(stale) * 1000, 1),
               "flags": list(checked[0].flags), "rounds": args.rounds}
    if args.json:
        print(json.dumps(figures, ensure_ascii=False, indent=2))
        return
    print(f"check_mentions: first {figures['check_mentions_first_ms']} ms, then median "
          f"{figures['check_mentions_median_ms']} ms per statement ({len(checked[0].mentions)} mentions, "
          f"{len(checked[0].flags)} flagged); in an answer of five statements sharing the context, "
          f"{figures['check_mentions_in_an_answer_of_5_median_ms']} ms each")
    print(f"stale_parts: median {figures['stale_parts_median_ms']} ms (read once per LexGraph handle)")


if __name__ == "__main__":
    main()
