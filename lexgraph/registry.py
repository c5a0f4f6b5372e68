"""One shape for every table that maps a name to what it stands for: the search modes (`retrieve.modes`), the
kinds of search index (`index.backends`), the embedders (`index.embed`), the citation extractors
(`citations.extractors`), the fusions (`retrieve.fusion`) and the multiple-choice agents' methods
(`answer.agents`).

A `Registry` holds frozen entries, each with a ``name``, in the order they were registered: `names()` is the
list of choices a CLI option, an MCP enum or an evaluation offers (read when asked, so an entry registered at run
time is offered too); `entry(name)` is the lookup, whose `ConfigurationError` names the registered ones; a name
registered twice is refused (one meaning per name). Where what an entry stands for is expensive to import (an
index engine, spaCy), the entry names it as ``"module:attribute"`` (`Lazy`, `loaded`), imported only when it is
used, so that listing the choices loads nothing heavy.

At the bottom of the house with the errors: every layer may keep a registry.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from lexgraph.errors import ConfigurationError


class HasName(Protocol):
    @property
    def name(self) -> str: ...


E = TypeVar("E", bound=HasName)


def choices_message(field: str) -> Callable[[str, Sequence[str]], str]:
    """The usual refusal of an unknown name: ``<field> must be one of a, b, not 'x'``."""
    return lambda name, names: f"{field} must be one of {', '.join(names)}, not {name!r}"


class Registry(Mapping[str, E]):
    """Entries by name, in registration order (a read-only mapping; `register` adds). `noun` names an entry in
    the refusal of a second registration (``search mode 'x' is registered twice``); `unknown` writes the refusal
    of a name that is not registered, from the name and the registered names (`choices_message` by default)."""

    def __init__(self, noun: str, *, unknown: Callable[[str, Sequence[str]], str] | None = None) -> None:
        self.noun = noun
        self._unknown = unknown or choices_message(noun)
        self._entries: dict[str, E] = {}

    def register(self, entry: E) -> E:
        """Add `entry` under its name; a name registered twice is a `ConfigurationError`."""
        if entry.name in self._entries:
            raise ConfigurationError(f"{self.noun} {entry.name!r} is registered twice")
        self._entries[entry.name] = entry
        return entry

    def unregister(self, name: str) -> E:
        """Remove the entry called `name` (a test's own mode, a plugin unloaded); `entry`'s error if unknown."""
        found = self.entry(name)
        del self._entries[name]
        return found

    def names(self) -> tuple[str, ...]:
        """The registered names, in registration order: the choices, as they are now."""
        return tuple(self._entries)

    def entry(self, name: str) -> E:
        """The entry called `name`, or a `ConfigurationError` naming the registered ones."""
        try:
            return self._entries[name]
        except KeyError:
            raise ConfigurationError(self._unknown(name, self.names())) from None

    def __getitem__(self, name: str) -> E:
        return self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


def check_target(target: str, what: str) -> None:
    """Refuse a target not of the form ``"module:attribute"`` when the entry is made, not when it is first used."""
    module, colon, attribute = target.partition(":")
    if not (module and colon and attribute.isidentifier()):
        raise ConfigurationError(f"{what}: must be 'module:attribute', not {target!r}")


def loaded(target: str) -> Any:
    """What ``"module:attribute"`` names, its module imported now."""
    module, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class Lazy:
    """An entry standing for ``target`` (``"module:attribute"``), imported when first `load`-ed."""

    name: str
    target: str

    def __post_init__(self) -> None:
        check_target(self.target, f"{self.name!r}'s target")

    def load(self) -> Any:
        return loaded(self.target)


def lazy_table(noun: str, targets: Mapping[str, str], *,
               unknown: Callable[[str, Sequence[str]], str] | None = None) -> Registry[Lazy]:
    """A registry of `Lazy` entries, name → ``"module:attribute"``, in the mapping's order."""
    table: Registry[Lazy] = Registry(noun, unknown=unknown)
    for name, target in targets.items():
        table.register(Lazy(name, target))
    return table
