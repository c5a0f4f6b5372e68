"""新旧対照: a changed clause's old and new wording one after the other, the words that changed marked in each.

A lawyer reads an amendment as the 新旧対照表 prints it, the former wording (改正前) above the new (改正後), with the
changed words marked; a list of the clause names alone says that something changed, not what. The marks are
characters as well as colours (``[-削られた文字-]`` in the old wording, ``{+加えられた文字+}`` in the new), so that
they survive a pipe, a file and a terminal without colour. Japanese has no spaces between words, so the wordings
are compared character by character, and an unchanged run of one character between two changes is taken into the
change, so that a rewritten phrase is marked as one change rather than as a scatter of single characters.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from rich.cells import cell_len
from rich.text import Text

DELETED = ("[-", "-]")
INSERTED = ("{+", "+}")
LEGEND = "改正前 / 改正後: [-削られた文字-] {+加えられた文字+}"
_SIMILAR = 0.4
_BRIDGED = 1  # an unchanged run this short between two changes is shown as part of the change


def changed_runs(before: str, after: str) -> list[tuple[str, str, str]]:
    """The wordings as runs (what, old text, new text), `what` being ``equal`` or ``changed`` (either side may be
    empty: a pure deletion or insertion); an equal run of at most `_BRIDGED` characters between two changes is
    folded into them."""
    runs: list[tuple[str, str, str]] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        what = "equal" if op == "equal" else "changed"
        old, new = before[i1:i2], after[j1:j2]
        if runs and runs[-1][0] == what == "changed":
            runs[-1] = ("changed", runs[-1][1] + old, runs[-1][2] + new)
        else:
            runs.append((what, old, new))
    merged: list[tuple[str, str, str]] = []
    for index, run in enumerate(runs):
        short_gap = (run[0] == "equal" and len(run[1]) <= _BRIDGED and 0 < index < len(runs) - 1)
        if (short_gap or run[0] == "changed") and merged and merged[-1][0] == "changed":
            merged[-1] = ("changed", merged[-1][1] + run[1], merged[-1][2] + run[2])
        elif short_gap:
            merged.append(("changed", run[1], run[2]))
        else:
            merged.append(run)
    return merged


def marked(before: str | None, after: str | None) -> tuple[Text | None, Text | None]:
    """The old and the new wording, each with its changed words marked (None for a side that does not exist:
    a clause added or removed is shown whole, unmarked). The wordings' lines (a clause's paragraphs and items)
    are aligned first, so that a paragraph inserted is marked whole and the others are compared with their own
    counterpart, not with whatever characters happen to match across paragraphs."""
    if before is None or after is None:
        return (None if before is None else Text(before)), (None if after is None else Text(after))
    old_lines, new_lines = before.split("\n"), after.split("\n")
    old: list[Text] = []
    new: list[Text] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        left, right = old_lines[i1:i2], new_lines[j1:j2]
        pairs = list(zip(left, right, strict=True)) if op == "equal" else _counterparts(left, right)
        for old_line, new_line in pairs:
            _mark_line(old, new, old_line, new_line)
    return Text("\n").join(old), Text("\n").join(new)


def _counterparts(left: list[str], right: list[str]) -> list[tuple[str | None, str | None]]:
    """Lines that replaced others, each old line paired in order with the most similar new line still free (at
    least `_SIMILAR` alike), the others alone: a paragraph rewritten is compared with its rewriting, a paragraph
    inserted before it is marked whole."""
    pairs: list[tuple[str | None, str | None]] = []
    start = 0
    for old_line in left:
        ratios = [SequenceMatcher(None, old_line, line, autojunk=False).ratio() for line in right[start:]]
        best = max(range(len(ratios)), key=ratios.__getitem__, default=None)
        if best is None or ratios[best] < _SIMILAR:
            pairs.append((old_line, None))
            continue
        pairs += [(None, line) for line in right[start:start + best]]
        pairs.append((old_line, right[start + best]))
        start += best + 1
    pairs += [(None, line) for line in right[start:]]
    return pairs


def folded(text: Text, width: int) -> list[Text]:
    """`text`'s lines cut into pieces of at most `width` cells, at any character: a clause's 全角 space after its
    number is no place to break a line (a terminal's word wrap breaks there), and its words have no spaces
    between them to break at."""
    pieces: list[Text] = []
    for line in text.split("\n", allow_blank=True):
        offsets, cells = [], 0
        for index, character in enumerate(line.plain):
            wide = cell_len(character)
            if cells + wide > width:
                offsets.append(index)
                cells = 0
            cells += wide
        pieces += list(line.divide(offsets)) if offsets else [line]
    return pieces


def _mark_line(old: list[Text], new: list[Text], old_line: str | None, new_line: str | None) -> None:
    """The two lines (either may be missing) with their changes marked, added to `old` and `new`."""
    if old_line is not None and new_line is not None:
        left_text, right_text = Text(), Text()
        for what, left, right in changed_runs(old_line, new_line):
            if what == "equal":
                left_text.append(left)
                right_text.append(right)
                continue
            if left:
                left_text.append(f"{DELETED[0]}{left}{DELETED[1]}", style="bold red")
            if right:
                right_text.append(f"{INSERTED[0]}{right}{INSERTED[1]}", style="bold green underline")
        old.append(left_text)
        new.append(right_text)
    elif old_line is not None:
        old.append(Text(f"{DELETED[0]}{old_line}{DELETED[1]}", style="bold red"))
    elif new_line is not None:
        new.append(Text(f"{INSERTED[0]}{new_line}{INSERTED[1]}", style="bold green underline"))
