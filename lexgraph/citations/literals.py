"""Where given characters stand in a long text, found with `str.find` rather than a character class.

Why: a pattern that starts with a class of a few characters (「[編章節款目]」) makes the regular-expression engine test
every character of the text against the class, about 10 ns a character (5 ms for the 1 MB of judgments the cite
bench reads, at load), where `str.find` skips to each rare character in a tenth of that. (For words of several
characters, 「最高裁」, 「法廷」, `str.find` was no faster than the engine on the same text: only single characters
that are rare in judgments are looked for this way.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from heapq import merge


def places(text: str, characters: Iterable[str], start: int = 0) -> Iterator[int]:
    """The offsets in `text` (from `start`) where one of `characters` stands, in order: what
    ``re.finditer("[…]", text)`` gives as starts."""
    return merge(*(_places(text, character, start) for character in dict.fromkeys(characters)))


def _places(text: str, character: str, start: int) -> Iterator[int]:
    find = text.find
    place = find(character, start)
    while place >= 0:
        yield place
        place = find(character, place + 1)


def finditer_at(pattern: re.Pattern[str], text: str, characters: Iterable[str]) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text)`` for a `pattern` whose every match is non-empty and starts with one of
    `characters`: the pattern is tried only where one stands, in order, and the next try starts where a match
    ended, as ``finditer`` does, so that the matches are the same."""
    match = pattern.match
    end = 0
    for place in places(text, characters):
        if place < end:
            continue  # inside the match just found
        found = match(text, place)
        if found is not None:
            yield found
            end = found.end()
