"""The bundled catalogue's cache read back: plain JSON, checked (what lexgraph reads) against a pickle of the same
objects (what it read before, and ran code from).

    python bench/catalog_cache.py [--rounds 15] [--json]

The catalogue and its law-name index are built once, written in a temporary folder both ways, then read back
``--rounds`` times each, alternating (JSON, pickle, JSON, …) so that both see the same load on a shared machine;
the medians and their ratio are printed, with the files' sizes and the load average. Each JSON read is checked to
give the same catalogue (every index equal) as the one built. The pickle is written and read here only, to measure
what the cache cost before: lexgraph itself no longer reads one.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import pickle
import statistics
import tempfile
import time
from importlib import resources
from pathlib import Path
from typing import Any

from lexgraph.citations.lawnames import LawNames
from lexgraph.statutes import catalog as catalogue
from lexgraph.statutes import former_titles


def built() -> tuple[catalogue.Catalog, LawNames]:
    data = (resources.files("lexgraph") / "data" / "catalog.json.gz").read_bytes()
    payload = json.loads(gzip.decompress(data))
    payload["aliases"] = {**catalogue.EXTRA_ALIASES, **payload.get("aliases", {})}
    built = catalogue.Catalog.from_payload(payload, former_titles.bundled())
    return built, LawNames(name for name, _ in built.names())


def same(left: Any, right: Any) -> bool:
    return {k: v for k, v in vars(left).items() if k != "_lookups"} == \
        {k: v for k, v in vars(right).items() if k != "_lookups"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    catalog, names = built()
    figures: dict[str, Any] = {"load_before": os.getloadavg()[0]}
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o700)
        for label, value, kind in (("catalogue", catalog, catalogue.Catalog), ("lawnames", names, LawNames)):
            as_json = Path(folder) / f"{label}.json"
            as_pickle = Path(folder) / f"{label}.pickle"
            catalogue._write_cache(as_json, value)
            as_pickle.write_bytes(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
            read_back = catalogue._read_cache(as_json, kind, label)
            assert read_back is not None and same(read_back, value), f"{label}: the JSON cache reads back different"
            json_times, pickle_times = [], []
            for _ in range(args.rounds):
                start = time.perf_counter()
                catalogue._read_cache(as_json, kind, label)
                json_times.append(time.perf_counter() - start)
                start = time.perf_counter()
                with as_pickle.open("rb") as file:
                    pickle.load(file)
                pickle_times.append(time.perf_counter() - start)
            figures[label] = {
                "json_ms": round(statistics.median(json_times) * 1000, 1),
                "pickle_ms": round(statistics.median(pickle_times) * 1000, 1),
                "ratio": round(statistics.median(json_times) / statistics.median(pickle_times), 2),
                "json_bytes": as_json.stat().st_size, "pickle_bytes": as_pickle.stat().st_size,
            }
    figures["load_after"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(figures))
        return
    print(f"load average {figures['load_before']:.2f} → {figures['load_after']:.2f}, {args.rounds} rounds each")
    for label in ("catalogue", "lawnames"):
        f = figures[label]
        print(f"{label:10} JSON {f['json_ms']:6.1f} ms ({f['json_bytes'] / 1e6:.1f} MB)   pickle {f['pickle_ms']:6.1f} "
              f"ms ({f['pickle_bytes'] / 1e6:.1f} MB)   JSON/pickle {f['ratio']:.2f}")


if __name__ == "__main__":
    main()
