"""The one-call ``__init__`` of `Citation` and `StatuteMention` (`lexgraph.citations.model.fill_dict_init`)
builds what the dataclass's own would: the same parameters in the same order, the same defaults, a frozen, equal
and hashable value."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from lexgraph.citations import Citation, extract
from lexgraph.citations.model import StatuteMention


@pytest.mark.parametrize("cls", [Citation, StatuteMention])
def test_parameters_and_defaults_are_the_fields(cls: type) -> None:
    parameters = list(inspect.signature(cls).parameters.values())
    fields = dataclasses.fields(cls)
    assert [p.name for p in parameters] == [f.name for f in fields]
    for parameter, field in zip(parameters, fields, strict=True):
        expected = inspect.Parameter.empty if field.default is dataclasses.MISSING else field.default
        assert parameter.default == expected, field.name


@pytest.mark.parametrize("cls", [Citation, StatuteMention])
def test_every_field_is_set_from_its_argument_and_the_value_stays_frozen(cls: type) -> None:
    names = [f.name for f in dataclasses.fields(cls)]
    values = {name: (index if name in ("start", "end") else f"v{index}") for index, name in enumerate(names)}
    by_keyword = cls(**values)
    by_position = cls(*values.values())
    assert dataclasses.asdict(by_keyword) == values
    assert by_keyword == by_position and hash(by_keyword) == hash(by_position)
    assert dataclasses.replace(by_keyword, start=7).start == 7
    with pytest.raises(dataclasses.FrozenInstanceError):
        by_keyword.start = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        cls(start=1, end=2)  # surface has no default


def test_extracted_citations_read_as_of_a_day_keep_every_other_field() -> None:
    found = extract("民法第七百九条及び最高裁平成２０年６月１２日第一小法廷判決")
    assert found
    for c in found:
        stamped = c.read_as_of("2020-04-01", 10)
        assert stamped.as_of == "2020-04-01" and (stamped.start, stamped.end) == (c.start + 10, c.end + 10)
        assert dataclasses.replace(stamped, start=c.start, end=c.end, as_of=c.as_of) == c
