"""Every read path on a given store, each in a process of its own: wall time and peak RSS per path.

    python bench/read_paths_scale.py --store DIR [--buffer-pool SIZE] [--json] [--only NAME,…] [--out-dir DIR]

The paths are those a user runs on a store (`law show/versions/diff/cites/cited-by`, `cite --store`, `graph`,
`viz` to a .dot file (no Graphviz needed), `export rdf` of a clause, of one law and of the whole store, `query`,
`stats`, `doctor`) and the MCP tools, asked over standard input/output by a minimal JSON-RPC client (one server
process, one row per tool; its RSS column is the server's peak so far, read from /proc/PID/status). Each CLI path
is `python -m lexgraph …` in a child process whose own peak RSS `os.wait4` reports. The clauses asked for are
民法 第七百九条 / 第七百十条 and 借地借家法 第三条, which the demo sample and the 2020 archive both hold; a path that
exits non-zero is printed with its exit code and the first line of its error, not hidden. /proc/loadavg is
printed with the table: other work on the machine makes the times upper bounds.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
JUDGMENT = ROOT / "lexgraph" / "data" / "sample" / "precedents" / "91244.txt"
DAY = "2020-11-18"  # the archive's day: every law of the 2020 archive is known in force then


def cli_paths(out_dir: Path) -> list[tuple[str, list[str]]]:
    return [
        ("law show", ["law", "show", "民法", "第七百九条", "--as-of", DAY]),
        ("law versions", ["law", "versions", "民法"]),
        ("law diff", ["law", "diff", "民法", "--from", DAY, "--to", DAY]),
        ("law cites", ["law", "cites", "民法", "第七百十条", "--as-of", DAY]),
        ("law cited-by 709", ["law", "cited-by", "民法", "第七百九条", "--as-of", DAY]),
        ("law cited-by (today)", ["law", "cited-by", "民法", "第七百九条"]),
        ("law cited-by 借地借家法 3", ["law", "cited-by", "借地借家法", "第三条", "--as-of", DAY]),
        ("cite --store", ["cite", str(JUDGMENT), "--json"]),
        ("graph neighbourhood", ["graph", "neighbourhood", "民法 第七百九条", "--depth", "2", "--json"]),
        ("viz (.dot)", ["viz", "民法 第七百九条", "--depth", "2", "--out", str(out_dir / "709.dot")]),
        ("export rdf clause", ["export", "rdf", "民法 第七百九条", "--depth", "2", "--out", str(out_dir / "709.ttl")]),
        ("export rdf law", ["export", "rdf", "--law", "民法", "--out", str(out_dir / "minpo.ttl")]),
        ("export rdf all", ["export", "rdf", "--all", "--out", str(out_dir / "all.ttl")]),
        ("query", ["query", "MATCH (p:Provision) RETURN p.law_id AS law, p.path AS path, p.text AS text",
                   "--json"]),
        ("stats", ["stats", "--json"]),
        ("doctor", ["doctor", "--json"]),
    ]


MCP_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("clause_as_of", {"law": "民法", "clause": "第七百九条", "as_of": DAY}),
    ("law_versions", {"law": "民法"}),
    ("law_diff", {"law": "民法", "from_day": DAY, "to_day": DAY}),
    ("cites", {"law": "民法", "clause": "第七百十条", "as_of": DAY}),
    ("cited_by", {"law": "民法", "clause": "第七百九条", "as_of": DAY}),
    ("cite", {"text": "民法第七百九条及び借地借家法第三条による。", "as_of": DAY}),
    ("laws", {}),
    ("cypher", {"query": "MATCH (p:Provision) RETURN p.uid AS uid, p.text AS text"}),
    ("stats", {}),
]


def run_cli_measured(args: list[str], store: str, env: dict[str, str]) -> dict[str, Any]:
    """The child started and reaped by hand, so that its own rusage (not every child's so far) is read."""
    command = [sys.executable, "-m", "lexgraph", *args, "--store", store]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, stderr=err, env=env, cwd=ROOT)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        out_bytes = out.tell()
        err.seek(0)
        error = err.read().decode("utf-8", "replace").strip().splitlines()
    code = child.returncode
    return {"seconds": seconds, "peak_rss": usage.ru_maxrss * 1024, "code": code, "out_bytes": out_bytes,
            "error": error[-1][:160] if code and error else ""}


class McpServer:
    """`lexgraph mcp` over standard input/output, spoken to in newline-delimited JSON-RPC as the MCP SDK does."""

    def __init__(self, store: str, env: dict[str, str]) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "lexgraph", "mcp", "--store", store],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                        env=env, cwd=ROOT)
        self._next = 0
        self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "read_paths_scale", "version": "1"}})
        self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self._next += 1
        self._send({"jsonrpc": "2.0", "id": self._next, "method": method, "params": params})
        assert self.process.stdout is not None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("the MCP server ended")
            answer = json.loads(line)
            if answer.get("id") == self._next:
                return answer

    def peak_rss(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
        return 0

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def run_mcp(store: str, env: dict[str, str], only: set[str] | None) -> list[dict[str, Any]]:
    rows = []
    started = time.perf_counter()
    server = McpServer(store, env)
    rows.append({"path": "mcp: start", "seconds": time.perf_counter() - started, "peak_rss": server.peak_rss(),
                 "code": 0, "error": ""})
    try:
        for tool, arguments in MCP_CALLS:
            name = f"mcp: {tool}"
            if only and name not in only and "mcp" not in only:
                continue
            started = time.perf_counter()
            answer = server.request("tools/call", {"name": tool, "arguments": arguments})
            seconds = time.perf_counter() - started
            result = answer.get("result") or {}
            failed = "error" in answer or result.get("isError")
            text = json.dumps(answer.get("error") or result.get("content"), ensure_ascii=False)
            rows.append({"path": name, "seconds": seconds, "peak_rss": server.peak_rss(), "code": 1 if failed else 0,
                         "error": text[:160] if failed else "", "out_bytes": len(text)})
    finally:
        server.close()
    return rows


def mib(size: int) -> str:
    return f"{size / (1 << 20):,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", required=True)
    parser.add_argument("--buffer-pool", help="passed to every command (LEXGRAPH_BUFFER_POOL)")
    parser.add_argument("--only", help="comma-separated path names (as printed), or mcp")
    parser.add_argument("--out-dir", type=Path, help="where the written files go (default: a temporary folder)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    only = {name.strip() for name in args.only.split(",")} if args.only else None
    env = {**os.environ, "PYTHONIOENCODING": "utf-8",
           "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
    for unset in ("LEXGRAPH_STORE", "LEXGRAPH_LLM_MODEL", "OPENAI_BASE_URL"):
        env.pop(unset, None)
    if args.buffer_pool:
        env["LEXGRAPH_BUFFER_POOL"] = args.buffer_pool
    with tempfile.TemporaryDirectory() as scratch:
        out_dir = args.out_dir or Path(scratch)
        out_dir.mkdir(parents=True, exist_ok=True)
        rows = []
        for name, command in cli_paths(out_dir):
            if only and name not in only:
                continue
            row = {"path": name, **run_cli_measured(command, args.store, env)}
            written = [p for p in command if p.startswith(str(out_dir))]
            if written and Path(written[0]).exists():
                row["out_bytes"] = Path(written[0]).stat().st_size
            rows.append(row)
            print(f"{name}: {row['seconds']:.1f} s, {mib(row['peak_rss'])} MiB, exit {row['code']}", file=sys.stderr)
        if not only or "mcp" in only or any(name.startswith("mcp") for name in only):
            rows += run_mcp(args.store, env, only)
    load = Path("/proc/loadavg").read_text().split()[:3]
    if args.json:
        print(json.dumps({"store": args.store, "loadavg": load, "rows": rows}, ensure_ascii=False, indent=2))
        return
    print(f"store {args.store}, load average {' '.join(load)}")
    print("| read path | time (s) | peak RSS (MiB) | exit | output |")
    print("|---|---:|---:|---:|---|")
    for row in rows:
        note = row["error"] or (f"{row['out_bytes']:,} bytes" if row.get("out_bytes") else "")
        print(f"| {row['path']} | {row['seconds']:.1f} | {mib(row['peak_rss'])} | {row['code']} | {note} |")


if __name__ == "__main__":
    main()
