"""Write docs/schema.md, the property reference, from the live schema of stores built from the bundled sample.

    python scripts/build_schema_reference.py --embedded STORE [--neo4j bolt://127.0.0.1:7687]

STORE is an embedded store holding the sample (statutes, judgments, an index, an answer), e.g. one made by
``lexgraph ingest statutes lexgraph/data/sample``, ``lexgraph ingest precedents lexgraph/data/sample/precedents``,
``lexgraph index`` and ``lexgraph ask``; with --neo4j, the same store copied there (``lexgraph copy --to``, then
``lexgraph index --store bolt://…``) is read too. A property without a meaning in lexgraph/store/schema.py stops
the script, naming it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lexgraph import LexGraph
from lexgraph.store.schema import SchemaReference, markdown

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--embedded", required=True)
    parser.add_argument("--neo4j")
    parser.add_argument("--out", default=str(ROOT / "docs" / "schema.md"))
    args = parser.parse_args()
    references: list[SchemaReference] = []
    for location in filter(None, (args.embedded, args.neo4j)):
        with LexGraph.open(location, read_only=True) as lg:
            references.append(lg.schema())
    missing = [f"{ref.backend}: {name}" for ref in references for name in ref.missing]
    if missing:
        print("no meaning in lexgraph/store/schema.py for:\n  " + "\n  ".join(missing), file=sys.stderr)
        return 1
    text = markdown(references).replace(f"{ROOT}/", "")  # a file read from this checkout, named inside it
    Path(args.out).write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: {sum(len(e.properties) for ref in references for e in ref.entries)} properties")
    return 0


if __name__ == "__main__":
    sys.exit(main())
