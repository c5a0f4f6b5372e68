"""Two runs of `lexgraph eval retrieval --report DIR` compared question by question: did a change move anything
more than chance would?

    python bench/compare_reports.py BEFORE AFTER [--modes hybrid,dense]

For each mode both reports hold, and each level, AFTER minus BEFORE on every metric: the difference, its 95%
bootstrap interval and the paired randomization test's p (`lexgraph.eval.significance`; a judgment's queries are
resampled together, as the reports record). Both runs must have scored the same questions, except at a level
that scores only the questions the store can answer ("article (reachable)"): two stores holding different
versions reach different questions, so such a row compares the questions both reach and says how many it left out.

Why: a change that is not meant to move quality (another engine for the same model, a faster search) still moves
a 25-question benchmark by a question or two; this says whether such a move is more than noise.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from lexgraph.eval.metrics import RetrievalReport
from lexgraph.eval.significance import compare_reports


def read_runs(folder: Path) -> dict[str, dict[str, Any]]:
    runs = json.loads((folder / "metrics.json").read_text(encoding="utf-8"))
    return {run["mode"]: run for run in runs}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--modes", help="comma-separated; default: every mode both reports hold")
    args = parser.parse_args()
    try:
        before, after = read_runs(args.before), read_runs(args.after)
    except (OSError, ValueError, KeyError) as error:
        print(f"cannot read a report's metrics.json: {error}", file=sys.stderr)
        return 1
    modes = args.modes.split(",") if args.modes else [m for m in after if m in before]
    print(f"{args.after} minus {args.before}: difference [95% interval] p, per metric")
    for mode in modes:
        if mode not in before or mode not in after:
            print(f"{mode}: not in both reports", file=sys.stderr)
            return 1
        clusters = {**before[mode].get("clusters", {}), **after[mode].get("clusters", {})}
        for level, data in after[mode]["levels"].items():
            if level not in before[mode]["levels"] or not data["questions"]:
                continue
            a_report = RetrievalReport.from_json(data)
            b_report = RetrievalReport.from_json(before[mode]["levels"][level])
            both = {q.qid for q in a_report.questions} & {q.qid for q in b_report.questions}
            left_out = len(a_report.questions) + len(b_report.questions) - 2 * len(both)
            if left_out and "reachable" in level:
                a_report = replace(a_report, questions=tuple(q for q in a_report.questions if q.qid in both))
                b_report = replace(b_report, questions=tuple(q for q in b_report.questions if q.qid in both))
                level = f"{level} ({len(both)} both reach)"
            try:
                rows = compare_reports(a_report, b_report, clusters)
            except ValueError as error:
                print(f"{mode} {level}: {error}", file=sys.stderr)
                return 1
            cells = "  ".join(f"{d.metric} {d.mean_b:.3f}→{d.mean_a:.3f} ({d.difference:+.3f} [{d.low:+.3f}, "
                              f"{d.high:+.3f}] p {d.p_value:.2f})" for d in rows)
            moved = ", ".join(d.metric for d in rows if d.verdict != "no difference")
            print(f"{mode:7} {level:22} {cells}  {'changed: ' + moved if moved else 'no change beyond chance'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
