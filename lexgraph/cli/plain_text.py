"""Text and flag options taken as given, without the pydantic validator Typer would build for each of them.

Typer (0.2x) coerces every option's and argument's value through a pydantic ``TypeAdapter`` it builds the first
time the parameter is parsed, given or not: for ``lexgraph cite`` that imported pydantic and built six adapters,
about a third of a short ``cite``'s time. For a parameter typed ``str`` (or ``str | None``) whose
value arrives as a ``str``, that adapter returns the value unchanged (Typer's ``_parse_cli_str`` then pydantic's
lax ``str``), and so it does for a ``bool`` (a flag, ``--help`` too) that arrives as a ``bool``; so
`take_text_as_given` gives such parameters a coercion that returns it at once. Any other value (bytes from a test,
a flag's text from an environment variable) goes through Typer's own coercion, built then, exactly as before.
Parameters of every other type (numbers, paths, lists, choices) keep Typer's coercion untouched.

It uses two names of Typer's private ``_coercion`` module and the ``_runtime_param`` slot of its parameters; if a
later Typer lacks them, nothing is changed (the commands are as correct, only slower to start), and
tests/test_entry_point.py fails so that someone looks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

try:
    from typer._coercion import RuntimeParam, build_runtime_param
except ImportError:  # a Typer without the lazily built coercion: nothing to take as given
    RuntimeParam = None  # type: ignore[assignment,misc]


if RuntimeParam is not None:

    @dataclass(frozen=True)
    class TextAsGiven(RuntimeParam):
        """A value of the parameter's own type (``str`` or ``bool``) as it is; anything else through the coercion
        Typer would have built."""

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if type(value) is self.annotation:
                return value
            return build_runtime_param(param.type_descriptor)._coerce_value(value, param=param, ctx=ctx)


_AS_GIVEN = (str, bool)  # the types whose own values Typer's adapter returns unchanged


def _plain_text(param: Any) -> bool:
    """Whether `param` is a single ``str`` (or ``str | None``) or ``bool`` with no parser of its own and no
    coercion built yet."""
    descriptor = getattr(param, "type_descriptor", None)
    return (descriptor is not None and getattr(param, "_runtime_param", False) is None
            and descriptor.annotation in _AS_GIVEN and descriptor.parameter_info.parser is None
            and descriptor.file_annotation is None and not param.multiple and param.nargs == 1)


def as_given(param: Any) -> bool:
    """Give `param` the coercion that returns a value of its own type as it is, if it is a plain text or flag
    parameter (`_plain_text`); whether it was."""
    if RuntimeParam is None or not _plain_text(param):
        return False
    param._runtime_param = TextAsGiven(parameter_info=param.type_descriptor.parameter_info,
                                       annotation=param.type_descriptor.annotation)
    return True


def take_text_as_given(command: Any) -> int:
    """Give every plain text or flag parameter of `command` (a click command, or a group and all its commands),
    its ``--help`` too (made when the command is parsed), the coercion that returns a ``str`` or ``bool`` as it
    is; the number of parameters changed (0 where Typer has no such slot)."""
    if RuntimeParam is None:
        return 0
    changed = sum(as_given(param) for param in getattr(command, "params", ()))
    own_help = getattr(command, "get_help_option", None)
    if own_help is not None:

        def get_help_option(ctx: Any) -> Any:
            option = own_help(ctx)
            if option is not None:
                as_given(option)
            return option

        command.get_help_option = get_help_option
    for sub in (getattr(command, "commands", None) or {}).values():
        changed += take_text_as_given(sub)
    return changed
