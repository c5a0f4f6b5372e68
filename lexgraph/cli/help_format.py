"""Help that reads right at any width: flags shown as flags, every line wrapped, never cut.

Typer (0.2x) draws ``--help`` with rich, and three of its choices mislead a reader, whatever a command declares:

- it asks every option for its type label (``TyperOption.display_type_rich``) and prints it, flags too, so that
  ``--json`` reads ``--json <bool>``, as if it took a value (``--json true`` is a usage error). Its plain formatter
  (``get_help_record``) leaves a flag's label out; `_flag_label` does the same for the rich one, for every flag of
  every command, ``--help`` and ``--version`` included.
- it lays a parameter's help out in a table column that ends an overlong word (a path, a URL) and some lines
  mixing Japanese and Latin text with "…", so that part of the help is never shown: `_folded` gives that text
  ``overflow="fold"``, which carries the rest onto the next line.
- in a group's list of commands it keeps the line breaks of a command's first paragraph as the source wrapped it,
  so that a line breaks in the middle at 80 columns; `_joined` joins them, as Typer does for the command's own help.

These are changes to Typer's private rich_utils; if a later Typer lacks those names, nothing is changed, and
tests/test_cli_help.py fails so that someone looks.
"""

from __future__ import annotations

from typing import Any

try:
    from typer import core as _core
    from typer import rich_utils as _rich
except ImportError:  # a Typer without rich help: its plain formatter already shows flags as flags
    _rich = None  # type: ignore[assignment]


def _flag_label(original: Any) -> Any:
    def display_type_rich(self: Any, ctx: Any) -> str | None:
        if getattr(self, "is_flag", False) or getattr(self, "count", False):
            return None  # a flag takes no value: no type to show
        return original(self, ctx)

    return display_type_rich


def _folded(original: Any) -> Any:
    def get_parameter_help(**kwargs: Any) -> Any:
        shown = original(**kwargs)
        for item in getattr(shown, "renderables", ()):
            if hasattr(item, "overflow"):
                item.overflow = "fold"
        return shown

    return get_parameter_help


def _joined(original: Any) -> Any:
    def make_command_help(*, help_text: str, markup_mode: Any) -> Any:
        first, _, rest = help_text.partition("\n\n")
        return original(help_text=" ".join(first.split()) + (f"\n\n{rest}" if rest else ""),
                        markup_mode=markup_mode)

    return make_command_help


def readable_help() -> bool:
    """Make Typer's rich help read right (see the module's docstring), once; whether it was changed."""
    if _rich is None or getattr(_rich, "_lexgraph_readable", False):
        return False
    names = ("_get_parameter_help", "_make_command_help")
    if not all(hasattr(_rich, name) for name in names) or not hasattr(_core.TyperOption, "display_type_rich"):
        return False
    _core.TyperOption.display_type_rich = _flag_label(_core.TyperOption.display_type_rich)  # type: ignore[method-assign]
    _rich._get_parameter_help = _folded(_rich._get_parameter_help)
    _rich._make_command_help = _joined(_rich._make_command_help)
    _rich._lexgraph_readable = True  # type: ignore[attr-defined]
    return True
