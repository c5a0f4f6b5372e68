"""The size of each MCP tool's default result, as an assistant's context receives it (bytes of the whole
CallToolResult as JSON), for one realistic call of every tool on a store holding the sample.

    python bench/mcp_result_sizes.py --store STORE [--checkout DIR]

STORE holds the sample with its judgments and index (``tests.helpers.build_search_store``); --checkout runs the
server of another checkout of lexgraph (its ``python -m lexgraph mcp``), to compare with it on the same store.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parent.parent
JUDGMENT = ROOT / "lexgraph" / "data" / "sample" / "precedents" / "91244.txt"
CALLS = {
    "clause_as_of": {"law": "民法", "clause": "第七百九条", "as_of": "2023-06-14"},
    "law_versions": {"law": "民法"},
    "law_diff": {"law": "民法", "from_day": "2020-04-01", "to_day": "2023-06-14", "level": "all"},
    "cite": {"text": JUDGMENT.read_text(encoding="utf-8")},
    "cites": {"law": "民法", "clause": "第七百十条", "as_of": "2023-06-14"},
    "cited_by": {"law": "民法", "clause": "第七百九条"},
    "precedent": {"case": "91244"},
    "search": {"question": "不法行為による損害賠償", "k": 5},
    "ask": {"question": "不法行為による損害賠償の要件は？", "as_of": "2023-06-14"},
    "laws": {},
    "cypher": {"query": "MATCH (p:Provision) RETURN p.path AS path, p.text AS text LIMIT 100"},
    "stats": {},
}


async def sizes(store: str, checkout: Path) -> dict[str, int]:
    env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONIOENCODING": "utf-8"}
    params = StdioServerParameters(command=sys.executable, args=["-m", "lexgraph", "mcp", "--store", store], env=env,
                                   cwd=checkout)
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as (read, write), ClientSession(read, write) as session:
            started = await session.initialize()
            print(f"{checkout}: serverInfo {started.serverInfo.name} {started.serverInfo.version}")
            return {name: len((await session.call_tool(name, arguments)).model_dump_json(exclude_none=True).encode())
                    for name, arguments in CALLS.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", required=True)
    parser.add_argument("--checkout", action="append", default=[])
    args = parser.parse_args()
    checkouts = [Path(c).resolve() for c in args.checkout] or [ROOT]
    found = {checkout: asyncio.run(sizes(args.store, checkout)) for checkout in checkouts}
    print(f"{'tool':14}" + "".join(f"{c.name:>12}" for c in checkouts) + "   (bytes of the default result)")
    for name in CALLS:
        print(f"{name:14}" + "".join(f"{found[c][name]:>12,}" for c in checkouts))


if __name__ == "__main__":
    main()
