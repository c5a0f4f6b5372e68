"""Cite every clause of a seeded sample of the 2020 e-Gov archive as the linker reads it, or compare two such runs.

    python scripts/archive_citations.py cite --archive-dir DIR --laws 600 --out run.jsonl [--seed 3131]
    python scripts/archive_citations.py compare before.jsonl after.jsonl

Why: a resolver change is judged on the statutes it will link, not only on the golds. `cite` reads each clause of
each sampled law in order, the state carried from clause to clause as `lexgraph.ingest.crossrefs` carries it, and
writes one JSON line per citation (law id, clause, start, end, surface, kind, cited law id, path, path_to, status,
division, division_to, appendix). Run it with the code before (``PYTHONPATH=`` another checkout) and after, then
`compare` counts the statute citations that changed by class (附則 or not, status before → after, same law or not)
and the citations of the other kinds, for the changed ones to be judged.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexgraph.citations import CitationContext, extract_with_state  # noqa: E402
from lexgraph.ingest.corpus import CITING_KINDS, clause_text  # noqa: E402
from lexgraph.statutes.catalog import Catalog  # noqa: E402
from lexgraph.statutes.egov import parse_law_xml  # noqa: E402


def cite(archive: Path, laws: int, seed: int, out: Path) -> None:
    files = sorted(archive.rglob("*.xml"))
    random.Random(seed).shuffle(files)
    catalog = Catalog.bundled()
    with out.open("w", encoding="utf-8") as sink:
        for path in files[:laws]:
            law = parse_law_xml(path.read_bytes(), str(path))
            entry = catalog.by_law_num(law.meta.law_num)
            if entry is None:
                continue
            context = CitationContext(catalog=catalog, current_law_id=entry.law_id)
            state = context.state
            for provision in law.provisions:
                if provision.kind not in CITING_KINDS:
                    continue
                text = clause_text((s.role, s.text) for s in provision.sentences)
                found, state = extract_with_state(text, replace(context, current_path=provision.path, state=state),
                                                  precedents=False)
                state = replace(state, last_clause=None)
                for c in found:
                    row = [entry.law_id, provision.path, c.start, c.end, c.surface, c.kind, c.law_id, c.path,
                           c.path_to, c.status, getattr(c, "division", None), getattr(c, "division_to", None),
                           getattr(c, "appendix", None)]
                    sink.write(json.dumps(row, ensure_ascii=False) + "\n")


def compare(before: Path, after: Path) -> None:
    def rows(path: Path) -> list[tuple[object, ...]]:
        return [tuple(json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines()]

    old = Counter(r for r in rows(before) if r[5] == "statute")
    new_rows = rows(after)
    new = Counter(r for r in new_rows if r[5] == "statute")
    changed: dict[tuple[object, ...], list[tuple[object, ...] | None]] = {}
    for row in old - new:
        changed.setdefault(row[:3], [None, None])[0] = row
    for row in new - old:
        changed.setdefault(row[:3], [None, None])[1] = row
    classes: Counter[tuple[object, ...]] = Counter()
    for was, now in changed.values():
        either = was or now
        assert either is not None
        classes[("附則" in str(either[4]), was[9] if was else None, now[9] if now else None,
                 "same law" if was and now and was[6] == now[6] else "law changed")] += 1
    print(f"statute citations: {sum(old.values())} before, {sum(new.values())} after, {len(changed)} changed")
    for key, count in classes.most_common():
        print(f"  {count:5d}  附則={key[0]!s:5} {key[1]} → {key[2]}, {key[3]}")
    print("other kinds:", dict(Counter((r[5], r[9]) for r in new_rows if r[5] != "statute")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("cite")
    run.add_argument("--archive-dir", type=Path, required=True)
    run.add_argument("--laws", type=int, default=600)
    run.add_argument("--seed", type=int, default=3131)
    run.add_argument("--out", type=Path, required=True)
    both = commands.add_parser("compare")
    both.add_argument("before", type=Path)
    both.add_argument("after", type=Path)
    args = parser.parse_args(argv)
    if args.command == "cite":
        cite(args.archive_dir, args.laws, args.seed, args.out)
    else:
        compare(args.before, args.after)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
