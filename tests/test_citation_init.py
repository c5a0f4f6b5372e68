"""`Citation`'s one-call ``__init__`` (`lexgraph.citations.model._fill_dict_init`) builds what the dataclass's own
would: the same parameters in the same order, the same defaults, a frozen, equal and hashable value."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from lexgraph.citations import Citation, extract


def test_parameters_and_defaults_are_the_fields():
    parameters = list(inspect.signature(Citation).parameters.values())
    fields = dataclasses.fields(Citation)
    assert [p.name for p in parameters] == [f.name for f in fields]
    for parameter, field in zip(parameters, fields, strict=True):
        expected = inspect.Parameter.empty if field.default is dataclasses.MISSING else field.default
        assert parameter.default == expected, field.name


def test_every_field_is_set_from_its_argument_and_the_value_stays_frozen():
    names = [f.name for f in dataclasses.fields(Citation)]
    values = {name: (index if name in ("start", "end") else f"v{index}") for index, name in enumerate(names)}
    by_keyword = Citation(**values)
    by_position = Citation(*values.values())
    assert dataclasses.asdict(by_keyword) == values
    assert by_keyword == by_position and hash(by_keyword) == hash(by_position)
    assert dataclasses.replace(by_keyword, as_of="2020-04-01").as_of == "2020-04-01"
    with pytest.raises(dataclasses.FrozenInstanceError):
        by_keyword.start = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        Citation(start=1, end=2)  # type: ignore[call-arg]  # surface has no default


def test_extracted_citations_read_as_of_a_day_keep_every_other_field():
    found = extract("民法第七百九条及び最高裁平成２０年６月１２日第一小法廷判決")
    assert found
    for c in found:
        stamped = c.read_as_of("2020-04-01", 10)
        assert stamped.as_of == "2020-04-01" and (stamped.start, stamped.end) == (c.start + 10, c.end + 10)
        assert dataclasses.replace(stamped, start=c.start, end=c.end, as_of=c.as_of) == c
