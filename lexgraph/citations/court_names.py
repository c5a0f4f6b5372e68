"""Reporters and courts as data, in two JSON files (as eyecite keeps its reporters in reporters-db).

`lexgraph/data/reporters.json` lists every reporter (判例集) with the forms it is written in (民集, 最高裁判所民事判例集
…) and the online sources that take no volume (裁判所ウェブサイト); `lexgraph/data/courts.json` the seats of the
high and district courts and the case codes that name the Supreme Court or the 大審院. The precedent finder builds
its grammar from them once, when it is imported: adding a reporter or a court is an edit of a data file, and a file
that does not read is a `ConfigurationError` naming it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from functools import cache
from importlib import resources
from typing import Any

from lexgraph.errors import ConfigurationError


@dataclass(frozen=True)
class Reporter:
    """One reporter: its full name and the forms a citation may write it in (usually the name among them)."""

    name: str
    forms: tuple[str, ...]


@dataclass(frozen=True)
class Reporters:
    reporters: tuple[Reporter, ...]
    online: tuple[str, ...]

    @property
    def forms(self) -> tuple[str, ...]:
        """Every written form, longest first, so that an alternation tries 大判民録 before 民録."""
        return tuple(sorted({f for r in self.reporters for f in r.forms}, key=len, reverse=True))

    def name_of(self, form: str) -> str | None:
        """The full name of the reporter a form writes (民集 → 最高裁判所民事判例集), None for an unknown form."""
        return next((r.name for r in self.reporters if form in r.forms), None)


@dataclass(frozen=True)
class Courts:
    high_court_places: tuple[str, ...]
    district_court_places: tuple[str, ...]
    supreme_court_case_codes: frozenset[str]
    great_court_case_codes: frozenset[str]
    supreme_court_founded: date


def _load(name: str) -> dict[str, Any]:
    source = resources.files("lexgraph") / "data" / name
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ConfigurationError(f"lexgraph/data/{name} does not read ({error}): reinstall lexgraph") from error
    if not isinstance(data, dict):
        raise ConfigurationError(f"lexgraph/data/{name}: expected a JSON object")
    return data


def _strings(data: dict[str, Any], key: str, name: str) -> tuple[str, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ConfigurationError(f"lexgraph/data/{name}: {key!r} must be a list of non-empty strings")
    return tuple(value)


@cache
def reporters() -> Reporters:
    """The reporters of lexgraph/data/reporters.json, read once."""
    data = _load("reporters.json")
    entries = []
    for k, entry in enumerate(data.get("reporters") or []):
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise ConfigurationError(f"lexgraph/data/reporters.json: reporter {k} needs a 'name'")
        entries.append(Reporter(entry["name"], _strings(entry, "forms", "reporters.json")))
    return Reporters(tuple(entries), _strings(data, "online", "reporters.json"))


@cache
def courts() -> Courts:
    """The courts of lexgraph/data/courts.json, read once."""
    data = _load("courts.json")
    try:
        founded = date.fromisoformat(str(data.get("supreme_court_founded")))
    except ValueError as error:
        raise ConfigurationError("lexgraph/data/courts.json: 'supreme_court_founded' must be YYYY-MM-DD") from error
    return Courts(
        _strings(data, "high_court_places", "courts.json"),
        _strings(data, "district_court_places", "courts.json"),
        frozenset(_strings(data, "supreme_court_case_codes", "courts.json")),
        frozenset(_strings(data, "great_court_case_codes", "courts.json")),
        founded,
    )
