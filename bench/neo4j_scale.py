"""Neo4j against the embedded store on the same machine: loading the e-Gov corpus, and warm search latency.

    python bench/neo4j_scale.py scale  [--archive A] [--laws N] [--embedded DIR] [--ways direct,copy,keyset]
                                       [--restart-server] [--neo4j URI] [--wipe] [--json]
    python bench/neo4j_scale.py search --store DIR [--neo4j URI] [--wipe | --indexed] [--rounds 2]
                                       [--modes bm25,hybrid] [--questions N] [--json]
    python bench/neo4j_scale.py export --store DIR [--pages 2] [--json]
    python bench/neo4j_scale.py tools  --store DIR|URI [--json]

``scale`` loads the 2020 e-Gov archive (or its first ``--laws N`` files) into Neo4j two ways and reports, for each,
the wall time, lexgraph's peak RSS (each way runs in a child process of its own), the server's peak RSS and the
store's size on disk:
  1. a new embedded store (skipped with ``--embedded DIR``: an embedded store of the same archive made before,
     e.g. by ``lexgraph ingest statutes ARCHIVE --no-link --store DIR``, whose own figures this run then lacks);
  2. straight into Neo4j (``lexgraph ingest statutes --store bolt://…``);
  3. into Neo4j again, by `copy --to` from the embedded store (its bulk export: COPY TO Parquet, then UNWIND/MERGE
     batches of 10,000 rows);
  4. with ``--ways …,keyset``, the copy as it read before (a keyset walk, ``WHERE key > $after ORDER BY key``
     ``LIMIT 2000``, which rescans the label for every page in LadybugDB): the copy fix's before/after, same run.
Statutes only, linked only if the embedded store was (CITES edges are copied when present; the direct ingest
never links here). ``--restart-server`` stops the local server (`make neo4j`, NEO4J_LOCAL_DIR / NEO4J_HEAP /
NEO4J_PAGECACHE, ports from --neo4j), deletes its data and starts it again before each Neo4j step, so that each
step's server peak (VmHWM of /proc/<pid>/status) and store size are its own; without it the database is wiped
with DETACH DELETE and the server's VmHWM is the peak since it started. The store size is the data folder's
databases/neo4j, with transactions/neo4j (the logs) apart. /proc/loadavg is printed beside every figure: other
work on the machine makes absolute times upper bounds. Each step's figures go to stderr as soon as it ends.

``search`` times warm bm25 and hybrid search (p50 / p95 over lawqa_jp's questions, as bench/search_latency.py) on
an indexed embedded store (``bench/retrieval_lawqa.py --prepare``, or the whole archive's) and on the same graph
copied into Neo4j and indexed there with the embedded store's cached vectors (nothing is embedded again), both
with the model the embedded index was built with; ``--indexed`` when the database already holds that copy and
its index (a whole-archive copy takes tens of minutes: made once, beforehand). It also compares the two
backends' clause top 10s question by question, and shows the first question on which they differ.

``export`` times the copy's read side alone on an embedded store, nothing written: the bulk export of every
clause against a few pages of the keyset walk it replaced, and what that walk would take for them all.

``tools`` drives the MCP server (`lexgraph mcp --store …`) with the MCP SDK's client over standard input/output,
as tests/test_mcp.py does, on a whole-archive store: every tool but ``precedent``, each call's error or not, time
and list sizes.

``scale`` and ``search`` WIPE the Neo4j database (every node, and lexgraph's vector indexes): ``--wipe``
must say so unless it is empty.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
DEFAULT_ARCHIVE = SHARED / "egov" / "lawhub-xml_2020-11-18_all.tar.xz"
DEFAULT_URI = "bolt://127.0.0.1:7687"
LOCAL_DIR = Path(os.environ.get("NEO4J_LOCAL_DIR", ROOT / ".neo4j-local"))  # as in the Makefile: pid file, data


# -- the local server ---------------------------------------------------------------------------------------------
def server_memory() -> dict[str, float] | None:
    """VmRSS and VmHWM (MB) of the local server started by `make neo4j`; None when there is no pid file."""
    pid_file = LOCAL_DIR / "neo4j.pid"
    if not pid_file.is_file():
        return None
    status = Path(f"/proc/{pid_file.read_text().strip()}/status")
    if not status.is_file():
        return None
    fields = dict(line.split(":", 1) for line in status.read_text().splitlines() if ":" in line)
    return {name: round(int(fields[name].split()[0]) / 1024, 1) for name in ("VmRSS", "VmHWM") if name in fields}


def size_mb(*paths: Path) -> float:
    total = 0
    for path in paths:
        if path.is_file():
            total += path.stat().st_size
        elif path.is_dir():
            total += sum(p.stat().st_size for p in path.rglob("*") if p.is_file())
    return round(total / 1e6, 1)


def neo4j_store_mb() -> dict[str, float] | None:
    """The database's store files, and its transaction logs apart (kept for a while after each write: they grow
    with every load, and a wipe adds to them)."""
    data = LOCAL_DIR / "data" / "data"
    if not data.is_dir():
        return None
    return {"store": size_mb(data / "databases" / "neo4j"),
            "transaction_logs": size_mb(data / "transactions" / "neo4j")}


def loadavg() -> str:
    """The 1, 5 and 15-minute load averages: how busy the 2 cores were while a figure was taken."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def restart_server(uri: str) -> None:
    """Stop the local server, delete its data and start it empty (`make neo4j-stop`, `make neo4j`)."""
    port = urlsplit(uri).port or 7687
    settings = [f"NEO4J_LOCAL_DIR={LOCAL_DIR}", f"NEO4J_BOLT_PORT={port}"] + [
        f"{name}={os.environ[name]}" for name in ("NEO4J_HTTP_PORT", "NEO4J_GUIDE_PORT", "NEO4J_HEAP",
                                                   "NEO4J_PAGECACHE") if name in os.environ]
    subprocess.run(["make", "-s", "neo4j-stop", *settings], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    shutil.rmtree(LOCAL_DIR / "data", ignore_errors=True)
    subprocess.run(["make", "-s", "neo4j", *settings], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)


def wipe(uri: str, allowed: bool) -> None:
    """Empty the Neo4j database (batched), refusing a database that holds data unless ``--wipe`` was given."""
    from lexgraph.store.neo4j import Neo4jStore

    store = Neo4jStore(uri)
    try:
        nodes = store._read("MATCH (n) RETURN count(n) AS n", None, "counting")[0]["n"]
        if nodes and not allowed:
            sys.exit(f"{uri} holds {nodes} nodes; this bench deletes them all: pass --wipe if that is what you want")
        store._run_autocommit("MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS", None,
                              "wiping")
        for name in ("provision_embedding", "chunk_embedding"):
            store._run_autocommit(f"DROP INDEX {name} IF EXISTS", None, "dropping a vector index")
    finally:
        store.close()


# -- one step in a child process, so that its peak RSS is its own -------------------------------------------------
def run_step(*args: str) -> dict[str, Any]:
    started, load = time.perf_counter(), loadavg()
    done = subprocess.run([sys.executable, __file__, "_step", *args], stdout=subprocess.PIPE, text=True, cwd=ROOT,
                          check=False)
    if done.returncode:
        sys.exit(f"step {args[0]} failed (exit {done.returncode})")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["wall_s"] = round(time.perf_counter() - started, 1)  # with the child's start-up and imports
    result["loadavg_start"], result["loadavg_end"] = load, loadavg()
    return result


def step(name: str, source: str, target: str) -> dict[str, Any]:
    """Runs in the child: ingest `source` into `target`, or copy the embedded store `source` to `target`
    (``copy``: its bulk export; ``copy-keyset``: the keyset walk the copy used before, at its batch of 2000)."""
    from lexgraph import LexGraph
    from lexgraph.store.copy import DEFAULT_BATCH

    started = time.perf_counter()
    if name in ("copy", "copy-keyset"):
        batch = DEFAULT_BATCH
        if name == "copy-keyset":
            from lexgraph.store.base import GraphStore
            from lexgraph.store.embedded import EmbeddedStore

            EmbeddedStore.export_nodes = GraphStore.export_nodes  # type: ignore[method-assign]
            EmbeddedStore.export_relationships = GraphStore.export_relationships  # type: ignore[method-assign]
            batch = 2000
        with LexGraph.open(source, read_only=True) as lg:
            copied = lg.copy_to(target, batch=batch)
        with LexGraph.open(target) as lg:
            counts = lg.stats()
        result: dict[str, Any] = {"copied": copied.to_json()}
    else:
        with LexGraph.open(target) as lg:
            summary = lg.ingest_statutes([Path(source)], link=False)
            counts = lg.stats()
        result = {"files": summary.files, "versions_added": summary.versions_added,
                  "failures": len(summary.failures), "xml_mb": round(summary.xml_bytes / 1e6, 1)}
    result["seconds"] = round(time.perf_counter() - started, 1)
    result["nodes"] = sum(counts.nodes.values())
    result["relationships"] = sum(counts.relationships.values())
    result["provisions"] = counts.nodes.get("Provision", 0)
    result["cites"] = counts.relationships.get("CITES", 0)
    result["lexgraph_peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    return result


def first_laws(archive: Path, n: int, folder: Path) -> Path:
    """The first ``n`` XML files of the archive, in a tar beside it whose name keeps the archive's day (which dates
    its snapshots: lexgraph/statutes/sources.py)."""
    day = re.search(r"\d{4}-\d{2}-\d{2}", archive.name)
    target = folder / f"first-{n}_{day.group(0) if day else 'undated'}.tar"
    folder.mkdir(parents=True, exist_ok=True)
    taken = 0
    with tarfile.open(archive) as source, tarfile.open(target, "w") as out:
        for member in source:
            if member.isfile() and member.name.endswith(".xml"):
                out.addfile(member, source.extractfile(member))
                taken += 1
                if taken == n:
                    break
    return target


def scale(args: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="lexgraph-neo4j-scale-"))
    try:
        source = args.archive if not args.laws else first_laws(args.archive, args.laws, work / "xml")
        report: dict[str, Any] = {"source": str(args.archive), "laws": args.laws or "all",
                                  "server_at_start": server_memory()}
        if args.embedded:
            embedded = args.embedded
            report["embedded"] = {"store": str(embedded), "built": "before this run (--embedded)"}
        else:
            embedded = work / "store"
            report["embedded"] = run_step("ingest", str(source), str(embedded))
        report["embedded"]["store_mb"] = size_mb(embedded)
        print(json.dumps({"embedded": report["embedded"]}), file=sys.stderr, flush=True)
        ways = {"direct": ("neo4j_direct", ("ingest", str(source), args.neo4j)),
                "copy": ("neo4j_copy", ("copy", str(embedded), args.neo4j)),
                "keyset": ("neo4j_copy_keyset", ("copy-keyset", str(embedded), args.neo4j))}
        steps = [ways[way] for way in args.ways.split(",")]
        for number, (name, step_args) in enumerate(steps):
            if args.restart_server:
                restart_server(args.neo4j)
            else:
                wipe(args.neo4j, allowed=args.wipe or number > 0)
            time.sleep(2)  # let the deletes' transaction logs settle before measuring the store
            report[name] = run_step(*step_args)
            time.sleep(2)
            report[name]["store_mb"] = neo4j_store_mb()
            report[name]["server"] = server_memory()
            report[name]["server_restarted"] = args.restart_server
            print(json.dumps({name: report[name]}), file=sys.stderr, flush=True)
        report["table"] = scale_table(report)
        return report
    finally:
        shutil.rmtree(work, ignore_errors=True)


def scale_table(report: dict[str, Any]) -> list[str]:
    """The figures side by side, one line per way, with the load average beside each."""
    lines = ["way | wall s | lexgraph peak RSS MB | server peak RSS MB | store MB (+ tx logs) | provisions | "
             "relationships | CITES | loadavg start → end"]
    for name in ("embedded", "neo4j_direct", "neo4j_copy", "neo4j_copy_keyset"):
        row = report.get(name)
        if not row:
            continue
        store = row.get("store_mb")
        store_text = (f"{store['store']} (+{store['transaction_logs']})" if isinstance(store, dict)
                      else str(store))
        server = (row.get("server") or {}).get("VmHWM", "")
        lines.append(" | ".join(str(x) for x in (
            name, row.get("wall_s", "-"), row.get("lexgraph_peak_rss_mb", "-"), server, store_text,
            row.get("provisions", "-"), row.get("relationships", "-"), row.get("cites", "-"),
            f"{row.get('loadavg_start', '-')} → {row.get('loadavg_end', '-')}")))
    direct, copy = report.get("neo4j_direct", {}), report.get("neo4j_copy", {})
    if direct.get("wall_s") and copy.get("wall_s"):
        lines.append(f"copy / direct wall: {copy['wall_s'] / direct['wall_s']:.2f}")
    keyset = report.get("neo4j_copy_keyset", {})
    if keyset.get("wall_s") and copy.get("wall_s"):
        lines.append(f"keyset copy (before) / bulk copy (after) wall: {keyset['wall_s'] / copy['wall_s']:.2f}")
    return lines


# -- the copy's read side alone -----------------------------------------------------------------------------------
def export(args: argparse.Namespace) -> dict[str, Any]:
    """How fast `copy` reads an embedded store, with nothing written: its bulk export of every Provision (COPY TO
    Parquet, then batches of 10,000 rows) against the keyset walk it used before, of which only ``--pages``
    pages are read at the start, middle and end of the key range (a whole walk of the corpus takes hours), to
    show what one page costs and what the walk would take. The pages are the queries of the walk
    (`lexgraph.store.base._keyset_pages`, the default `GraphStore.export_nodes`)."""
    from lexgraph.store.embedded import EmbeddedStore

    report: dict[str, Any] = {"store": str(args.store), "loadavg_start": loadavg()}
    store = EmbeddedStore(args.store, read_only=True)
    try:
        started, cpu, rows = time.perf_counter(), time.process_time(), 0
        for batch in store.export_nodes("Provision", 10_000):
            rows += len(batch)
        report["bulk"] = {"provisions": rows, "wall_s": round(time.perf_counter() - started, 1),
                          "cpu_s": round(time.process_time() - cpu, 1), "loadavg_end": loadavg()}
        keys = [row["k"] for row in store._execute("MATCH (n:Provision) RETURN n.uid AS k ORDER BY k")]
        pages: list[dict[str, Any]] = []
        for share in (0.0, 0.5, 0.9):
            after = keys[int(share * (len(keys) - 1))] if share else None
            for _ in range(args.pages):
                started, cpu = time.perf_counter(), time.process_time()
                found = store.run_read_only(
                    "MATCH (n:Provision) " + ("WHERE n.uid > $after " if after is not None else "")
                    + "RETURN n AS node ORDER BY n.uid LIMIT $limit",
                    {"limit": 2000, **({"after": after} if after is not None else {})})
                pages.append({"at": share, "rows": len(found), "seconds": round(time.perf_counter() - started, 2),
                              "cpu_s": round(time.process_time() - cpu, 2)})
                if len(found) < 2000:
                    break
                after = found[-1]["node"]["uid"]
        per_page = float(np.mean([page["seconds"] for page in pages]))
        cpu_per_page = float(np.mean([page["cpu_s"] for page in pages]))
        count = -(-len(keys) // 2000)
        report["keyset"] = {"pages_read": len(pages), "rows_per_page": 2000, "s_per_page": round(per_page, 2),
                            "cpu_s_per_page": round(cpu_per_page, 2), "pages": pages, "pages_for_all": count,
                            "projected_s_for_all_provisions": round(per_page * count),
                            "projected_cpu_s_for_all_provisions": round(cpu_per_page * count),
                            "loadavg_end": loadavg()}
        # CPU seconds (all the process's threads) are what a loaded machine distorts least.
        report["projected_keyset_over_bulk"] = {
            "wall": round(per_page * count / max(report["bulk"]["wall_s"], 0.1), 1),
            "cpu": round(cpu_per_page * count / max(report["bulk"]["cpu_s"], 0.1), 1)}
    finally:
        store.close()
    return report


# -- search latency -----------------------------------------------------------------------------------------------
def _summary(times: list[float]) -> dict[str, float]:
    values = np.asarray(times)
    return {"p50_ms": round(float(np.percentile(values, 50)), 1), "p95_ms": round(float(np.percentile(values, 95)), 1),
            "n": len(times)}


def search(args: argparse.Namespace) -> dict[str, Any]:
    """Copy the embedded store into Neo4j and index it there from its cached vectors (unless ``--indexed``: the
    database already holds that copy and its index), then time warm searches on both, one backend after the other,
    and compare their top 10s question by question."""
    from lexgraph import LexGraph
    from lexgraph.eval.lawqa import load_lawqa
    from lexgraph.index.backends import index_backend
    from lexgraph.index.embed import embedder_choice_of, get_embedder
    from lexgraph.retrieve.search import SearchOptions

    questions = [q.question for q in load_lawqa(args.dataset)][:args.questions or None]
    report: dict[str, Any] = {"questions": len(questions), "rounds": args.rounds, "loadavg_start": loadavg()}
    with LexGraph.open(args.store, read_only=True) as lg:  # the model the embedded index was built with
        store = lg.session.store
        recorded = index_backend(store).recorded_parts(store, check_files=False)[1]
    embedder = get_embedder(embedder_choice_of(recorded))
    report["embedder"] = embedder.name
    if not args.indexed:
        wipe(args.neo4j, allowed=args.wipe)
        os.environ["LEXGRAPH_CACHE_DIR"] = str(args.store / "cache")  # index Neo4j with the embedded store's vectors
        started = time.perf_counter()
        with LexGraph.open(args.store, read_only=True) as lg:
            lg.copy_to(args.neo4j)
        report["copy_s"] = round(time.perf_counter() - started, 1)
        with LexGraph.open(args.neo4j) as lg:
            started = time.perf_counter()
            built = lg.index(embedder=embedder)
            report["neo4j_index"] = {"seconds": round(time.perf_counter() - started, 1), "units": built.units,
                                     "embedded_texts": built.embedded_texts}
    vectors = {q: embedder.embed_queries([q])[0] for q in questions}  # the embedding is the same on both: not timed

    class Cached:
        """The embedder with the questions' vectors computed once, so that the timings are the search's own."""

        name, dim = embedder.name, embedder.dim

        def embed_queries(self, texts: list[str]) -> np.ndarray:
            return np.stack([vectors[t] if t in vectors else embedder.embed_queries([t])[0] for t in texts])

        def embed_passages(self, texts: list[str]) -> np.ndarray:
            return embedder.embed_passages(texts)

    modes = args.modes.split(",")
    tops: dict[str, dict[str, list[list[tuple[str, float]]]]] = {}
    lists: dict[str, dict[str, list[list[tuple[str, float]]]]] = {}
    for backend, location in (("embedded", str(args.store)), ("neo4j", args.neo4j)):
        with LexGraph.open(location, read_only=True) as lg:
            rows: dict[str, Any] = {}
            tops[backend] = {}
            started = time.perf_counter()
            lg.search(questions[0], options=SearchOptions(mode="hybrid"),
                      retriever=lg.retriever("hybrid", embedder=Cached()))  # type: ignore[arg-type]
            rows["first_search_s"] = round(time.perf_counter() - started, 2)  # opens the index
            for mode in modes:
                options = SearchOptions(mode=mode)
                retriever = lg.retriever(mode, embedder=Cached())  # type: ignore[arg-type]
                ranked_by = set()
                tops[backend][mode] = []
                for question in questions:  # warm-up, and the top 10 compared below
                    result = lg.search(question, options=options, retriever=retriever)
                    tops[backend][mode].append([(hit.uid, round(hit.score, 6)) for hit in result.clauses[:10]])
                    ranked_by.add(result.ranked_by.mode if result.ranked_by else mode)
                times = []
                for _ in range(args.rounds):
                    for question in questions:
                        started = time.perf_counter()
                        lg.search(question, options=options, retriever=retriever)
                        times.append((time.perf_counter() - started) * 1000)
                rows[mode] = _summary(times) | {"ranked_as": sorted(ranked_by)}
            report[backend] = rows | {"loadavg_end": loadavg()}
            lists[backend] = _index_lists(lg, questions, vectors, exact=backend == "embedded" and args.exact)
    report["neo4j_over_embedded"] = {mode: {q: round(report["neo4j"][mode][q] / max(report["embedded"][mode][q], 0.1),
                                                     2) for q in ("p50_ms", "p95_ms")} for mode in modes}
    report["top10_agreement"] = {mode: _agreement(questions, tops["embedded"][mode], tops["neo4j"][mode])
                                 for mode in modes}
    # The lists fused, straight from each index (the question's Sudachi tokens, its vector; clauses only): which of
    # them differs, and for the dense one, which backend's HNSW strays from the exact top 10 (numpy over every
    # vector of the embedded index, the same vectors Neo4j holds).
    report["index_lists_agreement"] = {name: _agreement(questions, lists["embedded"][name], lists["neo4j"][name])
                                       for name in ("bm25", "dense")}
    if "exact" in lists["embedded"]:
        report["dense_against_exact"] = {backend: _agreement(questions, lists["embedded"]["exact"],
                                                             lists[backend]["dense"]) for backend in lists}
    report["server"] = server_memory()
    return report


def _index_lists(lg: Any, questions: list[str], vectors: dict[str, np.ndarray],
                 exact: bool) -> dict[str, list[list[tuple[str, float]]]]:
    """Each question's BM25 and dense top 10 of clauses from the open store's index itself, and with `exact` (the
    embedded index only) the exact dense top 10."""
    from lexgraph.index.query import SearchFilter
    from lexgraph.index.tokenize import tokenize

    index = lg.session.search_index()
    where = SearchFilter(kind="provision")
    out: dict[str, list[list[tuple[str, float]]]] = {"bm25": [], "dense": [], **({"exact": []} if exact else {})}
    for question in questions:
        out["bm25"].append([(h.uid, round(h.score, 5)) for h in index.text_search(tokenize(question), 10, where)])
        out["dense"].append([(h.uid, round(h.score, 5)) for h in index.vector_search(vectors[question], 10, where)])
        if exact:
            query = np.asarray(vectors[question], dtype=np.float32)
            found = index._exact(query, 10, index._candidates(index._allowed(where)))
            out["exact"].append([(uid, round(score, 5)) for uid, score in found])
    return out


def _agreement(questions: list[str], embedded: list[list[tuple[str, float]]],
               neo4j: list[list[tuple[str, float]]]) -> dict[str, Any]:
    """How far the two backends' clause top 10s agree: the same list (uids in order), the same set, the mean share
    of uids in common; and the first question whose lists differ, with both lists and their scores, to see why."""
    same_order = sum(1 for a, b in zip(embedded, neo4j, strict=True) if [u for u, _ in a] == [u for u, _ in b])
    same_set = sum(1 for a, b in zip(embedded, neo4j, strict=True) if {u for u, _ in a} == {u for u, _ in b})
    shared = [len({u for u, _ in a} & {u for u, _ in b}) / max(len(a), 1) for a, b in zip(embedded, neo4j, strict=True)]
    first = next((i for i, (a, b) in enumerate(zip(embedded, neo4j, strict=True))
                  if [u for u, _ in a] != [u for u, _ in b]), None)
    differs = None if first is None else {"question": questions[first], "embedded": embedded[first],
                                          "neo4j": neo4j[first]}
    return {"same_order": same_order, "same_set": same_set, "questions": len(questions),
            "mean_shared": round(float(np.mean(shared)), 3) if shared else None, "first_difference": differs}


# -- the MCP tools ------------------------------------------------------------------------------------------------
#: Calls an assistant might make about the whole archive, every tool but ``precedent`` (the archive holds statutes
#: only) among them: the clause that the most clauses cite, the cited-by lists that broke the embedded store's
#: buffer pool, and each search mode.
TOOL_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("clause_as_of", {"law": "民法", "clause": "第七百九条", "as_of": "2020-11-18"}),
    ("clause_as_of", {"law": "借地借家法", "clause": "第三条"}),
    ("cites", {"law": "民法", "clause": "第七百十条"}),
    ("cited_by", {"law": "民法", "clause": "第七百九条"}),
    ("cited_by", {"law": "借地借家法", "clause": "第三条"}),
    ("cited_by", {"law": "民法", "clause": "第九十条"}),
    ("law_versions", {"law": "民法"}),
    ("law_diff", {"law": "民法", "from_day": "2020-04-01", "to_day": "2020-11-18"}),
    ("cite", {"text": "民法第七百九条及び第七百十条並びに借地借家法第三条"}),
    ("laws", {}), ("stats", {}),
    ("cypher", {"query": "MATCH (p:Provision {law_id: $law}) RETURN count(p) AS clauses",
                "params": {"law": "129AC0000000089"}}),
    ("cypher", {"schema": True}),
    *[("search", {"question": "借地権の存続期間は何年か", "mode": mode}) for mode in ("bm25", "dense", "hybrid",
                                                                               "learned")],
    ("ask", {"question": "借地権の存続期間は何年か"}),
]


def tools(args: argparse.Namespace) -> dict[str, Any]:
    """Drive `lexgraph mcp --store …` over standard input/output with the MCP SDK's client, as tests/test_mcp.py
    does, and report each call: an error or not, its time, and the sizes of its lists."""
    import asyncio

    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    env = {key: value for key, value in os.environ.items()
           if key not in ("LEXGRAPH_STORE", "LEXGRAPH_LLM_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))
    report: dict[str, Any] = {"store": args.store, "loadavg_start": loadavg()}

    async def main() -> list[dict[str, Any]]:
        params = StdioServerParameters(command=sys.executable, args=["-m", "lexgraph", "mcp", "--store", args.store],
                                       env=env, cwd=ROOT)
        done: list[dict[str, Any]] = []
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            for name, arguments in TOOL_CALLS:
                started = time.perf_counter()
                result = await session.call_tool(name, arguments)
                row: dict[str, Any] = {"tool": name, "arguments": arguments, "error": result.isError,
                                       "seconds": round(time.perf_counter() - started, 2)}
                content = result.structuredContent or {}
                if result.isError:
                    row["message"] = getattr(result.content[0], "text", "")[:300]
                else:
                    row["total"] = content.get("total") or {key: len(value) for key, value in content.items()
                                                            if isinstance(value, list)}
                    if name == "search":
                        row["ranked_by"] = content.get("ranked_by")
                        row["top3"] = [hit.get("title") or hit.get("uid") or str(hit)[:80]
                                       for hit in content.get("clauses", [])[:3]]
                done.append(row)
        return done

    report["calls"] = asyncio.run(main())
    report["errors"] = sum(1 for row in report["calls"] if row["error"])
    report["loadavg_end"] = loadavg()
    return report


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "_step":
        print(json.dumps(step(*sys.argv[2:5])))
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("scale", "search", "export", "tools"):
        command = sub.add_parser(name)
        command.add_argument("--neo4j", default=DEFAULT_URI, help=f"the Neo4j to load (default {DEFAULT_URI})")
        command.add_argument("--wipe", action="store_true", help="empty the Neo4j database even if it holds data")
        command.add_argument("--json", action="store_true")
    sub.choices["scale"].add_argument("--archive", type=Path, default=DEFAULT_ARCHIVE)
    sub.choices["scale"].add_argument("--laws", type=int, default=0, help="only the first N files (default: all)")
    sub.choices["scale"].add_argument("--embedded", type=Path,
                                      help="an embedded store of the same archive, made before: not rebuilt")
    sub.choices["scale"].add_argument("--ways", default="direct,copy",
                                      help="which loads into Neo4j, in this order: direct, copy, and keyset (the "
                                           "copy as it read before: slow, quadratic); default direct,copy")
    sub.choices["scale"].add_argument("--restart-server", action="store_true",
                                      help="restart the local server on an empty data folder before each step")
    sub.choices["search"].add_argument("--store", type=Path, required=True,
                                       help="an indexed embedded store (bench/retrieval_lawqa.py --prepare, or the "
                                            "whole-archive store)")
    sub.choices["search"].add_argument("--dataset", type=Path, default=SHARED / "lawqa_jp" / "dev.json")
    sub.choices["search"].add_argument("--rounds", type=int, default=2)
    sub.choices["search"].add_argument("--questions", type=int, default=0, help="only the first N (default: all)")
    sub.choices["search"].add_argument("--exact", action="store_true",
                                       help="also each backend's dense top 10 against the exact one (numpy over "
                                            "every vector of the embedded index)")
    sub.choices["search"].add_argument("--modes", default="bm25,hybrid",
                                       help="the modes timed, comma-separated (default bm25,hybrid; learned ranks "
                                            "as hybrid on Neo4j, which has no anchor field)")
    sub.choices["search"].add_argument("--indexed", action="store_true",
                                       help="the Neo4j database already holds a copy of --store with its index "
                                            "(lexgraph copy, then lexgraph index with LEXGRAPH_CACHE_DIR): copy, "
                                            "index and wipe nothing")
    sub.choices["export"].add_argument("--store", type=Path, required=True, help="an embedded store")
    sub.choices["tools"].add_argument("--store", required=True, help="a store directory or bolt:// URI")
    sub.choices["export"].add_argument("--pages", type=int, default=2, help="keyset pages read at each place")
    args = parser.parse_args()
    report = {"scale": scale, "search": search, "export": export, "tools": tools}[args.command](args)
    print(json.dumps(report, ensure_ascii=False, indent=None if args.json else 2))
    if not args.json and report.get("table"):
        print("\n".join(report["table"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
