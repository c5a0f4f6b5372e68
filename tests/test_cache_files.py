"""No executable caches: what lexgraph keeps in the user's cache folder is read back as checked data. A pickle, a
damaged or hostile file in its place is ignored with one line and built again, never run."""

from __future__ import annotations

import gzip
import json
import os
import pickle
import re
import subprocess
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexgraph.citations.lawnames import LawNames
from lexgraph.statutes import catalog as module
from lexgraph.statutes.catalog import Catalog, LawEntry
from tests.helpers import ROOT

JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-5, 10**6) | st.text(max_size=8),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                                       max_size=4), max_leaves=12)


#: The fields of the cache files (`Catalog.to_cache`, `LawNames.to_cache`), and one that is none of them.
FIELDS = ["count", "law_id", "title", "law_num", "law_type", "aliases", "parent", "variant_of", "variant_aliases",
          "variant_parent", "given", "by_name", "by_num", "former", "by_former", "parents", "orders", "duplicates",
          "aliases_dictionary", "names", "lengths", "referencing", "other"]


class RunsCode:
    """What a hostile pickle holds: unpickling it creates the folder `marker`."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return os.mkdir, (str(self.marker),)


def bundled_data() -> bytes:
    return (resources.files("lexgraph") / "data" / "catalog.json.gz").read_bytes()


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    home = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    yield home


def test_a_pickle_in_the_cache_folder_is_never_run_and_the_catalogue_is_built_again(cache_home: Path,
                                                                                    tmp_path: Path) -> None:
    """A file the user's other processes could write (mode 600, theirs) used to be unpickled by every later run."""
    path = module._cache_file(bundled_data())
    assert path is not None
    path.parent.mkdir(parents=True, mode=0o700)
    marker = tmp_path / "ran"
    hostile = pickle.dumps(RunsCode(marker))
    for planted in {path, path.with_suffix(".pickle")}:  # the name of today's file and of the pickle of before
        planted.write_bytes(hostile)
        planted.chmod(0o600)
    env = {**os.environ, "XDG_CACHE_HOME": str(cache_home), "PYTHONIOENCODING": "utf-8",
           "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
    run = subprocess.run([sys.executable, "-m", "lexgraph", "cite", "-", "--json"], input="民法第七百九条",
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert not marker.exists(), "the pickle's code ran"
    assert run.returncode == 0, run.stderr
    assert [c["law_id"] for c in json.loads(run.stdout)["citations"]] == ["129AC0000000089"]
    ignored = [line for line in run.stderr.splitlines() if "ignoring the cached" in line]
    assert ignored == [f"lexgraph: ignoring the cached catalogue {str(path)!r}: its first line is not "
                       f"'{module.CACHE_FORMAT}'; building it again"]
    assert path.read_bytes().startswith(module.CACHE_FORMAT.encode() + b"\n{")
    # the next run reads the rebuilt file back, silently
    again = subprocess.run([sys.executable, "-m", "lexgraph", "cite", "-", "--json"], input="民法第七百九条",
                           capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert again.returncode == 0 and "ignoring" not in again.stderr and again.stdout == run.stdout


def small_catalog() -> Catalog:
    entries = [LawEntry("129AC0000000089", "民法", "明治二十九年法律第八十九号", "Act"),
               LawEntry("322CO0000000016", "民法施行令", "昭和二十二年政令第十六号", "CabinetOrder"),
               LawEntry("140AC0000000045", "刑法", "明治四十年法律第四十五号", "Act", ("刑",))]
    return Catalog(entries, aliases={"民": "民法"})


def written(path: Path, data: Any) -> Path:
    path.write_text(module.CACHE_FORMAT + "\n" + json.dumps(data, ensure_ascii=False), encoding="utf-8")
    path.chmod(0o600)
    return path


def test_a_catalogue_read_back_is_the_one_written(tmp_path: Path) -> None:
    tmp_path.chmod(0o700)
    built = small_catalog()
    module._write_cache(tmp_path / "c.json", built)
    read = module._read_cache(tmp_path / "c.json", Catalog, "catalogue")
    assert read is not None and vars(read) == vars(built)
    assert read.lookup("民") == built.lookup("民法") and read.parent_of("322CO0000000016") == built.by_id(
        "129AC0000000089")


@pytest.mark.parametrize("content", [
    b"", b"lexgraph-cache 1", b"lexgraph-cache 1\n", b"lexgraph-cache 1\n{", b"lexgraph-cache 1\n[]",
    b"lexgraph-cache 1\nnull", b"lexgraph-cache 1\n" + b"[" * 100_000 + b"]" * 100_000,
    b"lexgraph-cache 1\n\xff\xfe", b"lexgraph-cache 2\n{}", b"\x80\x05K\x01.",
])
def test_a_damaged_cache_file_is_ignored_in_one_line_naming_it(content: bytes, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    tmp_path.chmod(0o700)
    path = tmp_path / "catalog-x.json"
    path.write_bytes(content)
    path.chmod(0o600)
    assert module._read_cache(path, Catalog, "catalogue") is None
    assert module._read_cache(path, LawNames, "lawnames") is None
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2 and all(line.startswith("lexgraph: ignoring the cached ") and repr(str(path)) in line
                                   and line.endswith("; building it again") for line in lines), lines


def test_a_cache_that_is_not_a_regular_private_file_or_too_large_is_not_read(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    tmp_path.chmod(0o700)
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo, 0o600)
    assert module._read_cache(fifo, Catalog, "catalogue") is None  # never opened for a blocking read
    large = tmp_path / "large.json"
    with large.open("wb") as file:
        file.truncate(module.CACHE_MAX_BYTES + 1)
    large.chmod(0o600)
    assert module._read_cache(large, Catalog, "catalogue") is None
    shared = written(tmp_path / "shared.json", small_catalog().to_cache())
    shared.chmod(0o622)
    assert module._read_cache(shared, Catalog, "catalogue") is None
    err = capsys.readouterr().err
    assert "not a regular file of this user's" in err and "larger than 64 MB" in err and err.count("\n") == 3
    assert module._read_cache(tmp_path / "absent.json", Catalog, "catalogue") is None
    assert capsys.readouterr().err == ""  # no file yet: built, nothing to say


@pytest.mark.parametrize("change", [
    {"count": "3"}, {"count": 99}, {"law_id": ["x"]}, {"given": [0, 1, 7]}, {"given": [0, -1]}, {"given": ["0"]},
    {"given": [True, 0.5]}, {"variant_of": [99]}, {"former": [[1, 2, 3, 4, 5]]}, {"former": [["a", "b", "c",
    "2024-02-30", "s"]]}, {"parents": {"x": 1}}, {"by_name": {"names": "", "rows": [], "more": [[42]]}},
    {"by_name": {"names": "", "rows": [0, 1], "more": []}}, {"by_num": []}, {"by_former": {"x": [3]}},
])
def test_hostile_values_in_a_catalogue_cache_are_refused_with_the_field(change: dict[str, Any], tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    tmp_path.chmod(0o700)
    path = written(tmp_path / "c.json", {**small_catalog().to_cache(), **change})
    assert module._read_cache(path, Catalog, "catalogue") is None
    [line] = capsys.readouterr().err.splitlines()
    assert "its data is not a catalogue" in line


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(key=st.sampled_from(FIELDS), value=JSON_VALUES)
def test_any_value_in_any_field_of_a_cache_is_read_as_data_or_ignored(key: str, value: Any, tmp_path: Path) -> None:
    tmp_path.chmod(0o700)
    for kind, data in ((Catalog, small_catalog().to_cache()), (LawNames, LawNames(["民法", "刑法"]).to_cache())):
        path = written(tmp_path / "c.json", {**data, key: value})
        read = module._read_cache(path, kind, "cache")  # never raises
        assert read is None or isinstance(read, kind)


def test_the_bundled_catalogue_and_its_name_index_read_back_equal_to_the_built_ones(tmp_path: Path) -> None:
    tmp_path.chmod(0o700)
    payload = json.loads(gzip.decompress(bundled_data()))
    payload["aliases"] = {**module.EXTRA_ALIASES, **payload.get("aliases", {})}
    built = Catalog.from_payload(payload)
    names = LawNames(name for name, _ in built.names())
    for value, kind in ((built, Catalog), (names, LawNames)):
        module._write_cache(tmp_path / "x.json", value)
        read = module._read_cache(tmp_path / "x.json", kind, "x")
        assert read is not None and vars(read) == vars(value)
    read_catalog = module._read_cache(tmp_path / "x.json", LawNames, "x")
    assert read_catalog is not None and len(read_catalog) == len(names)


# The one use of pickle left reads what another process of the same ingest packed in memory (a law's linking input,
# passed through multiprocessing, which pickles anyway): nothing read from a file.
IN_MEMORY = {("lexgraph/ingest/corpus.py", "return pickle.loads(zlib.decompress(packed))")}
UNSAFE = re.compile(r"\bpickle\.loads?\(|\bUnpickler\b|\bjoblib\b|\bmarshal\.loads?\(|\bshelve\b|\bdill\b|"
                    r"allow_pickle\s*=\s*True|\btorch\.load\(|\bcloudpickle\b")


def test_nothing_lexgraph_reads_back_is_unpickled() -> None:
    found = {(str(path.relative_to(ROOT)), line.strip()) for path in sorted((ROOT / "lexgraph").rglob("*.py"))
             for line in path.read_text(encoding="utf-8").splitlines() if UNSAFE.search(line)}
    assert found == IN_MEMORY
