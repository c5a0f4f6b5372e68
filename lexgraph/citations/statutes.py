"""The rule-based statute mention finder: text → `StatuteMention` and `AbbreviationDefinition`, in text order.

It reads what is written and nothing more; which law 同法 or 前項 means is the resolver's job. The scan is built
for speed on long judgments:

1. whitespace is removed (PDF line breaks fall inside citations) and offsets are mapped back at the end;
2. the citation passes (`lexgraph.citations.statute_passes.STATUTE_PASSES`) run in their listed order over the
   compact text, each with one job (law numbers, definitions, clause chains, whole laws, bare names and terms),
   reading it through one `StatuteScan` (`lexgraph.citations.statute_scan`: the grammar);
3. what they found is sorted by start and mapped back to offsets into the text as given.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from lexgraph.citations.compact import CompactText
from lexgraph.citations.lawnames import LawNames
from lexgraph.citations.layout import heading_sections
from lexgraph.citations.model import Mention, StatuteMention
from lexgraph.citations.statute_passes import STATUTE_PASSES, StatuteFinding, StatutePass
from lexgraph.citations.statute_scan import StatuteScan
from lexgraph.citations.terms import DefinedTerms


def find_statutes(text: str, names: LawNames, defined: Iterable[str] = (), offset: int = 0,
                  passes: tuple[StatutePass, ...] = STATUTE_PASSES) -> list[Mention]:
    """Every statute mention and law abbreviation definition in `text`, sorted by start.

    Offsets are into `text` as given (whitespace included). Mentions of clauses come one per list element; laws
    cited as a whole (by number, or by name and number) have no provision; bare law names (``bare=True``) are
    included for the resolver's sake and are never reported as citations. `defined` are the abbreviations
    defined before `text` (by the text read before it, when a long text is read piece by piece); `offset` is
    added to every offset, for a `text` that is a window into a longer one. `passes` are run in order (the
    default list is the finder; a test may run a prefix of it).
    """
    compact = CompactText.of(text)
    scan = StatuteScan(compact.text, names, frozenset(compact.breaks), compact=compact,
                       definitions=DefinedTerms(defined), starts_line=offset == 0)
    finding = StatuteFinding()
    for statute_pass in passes:
        statute_pass.run(scan, finding)
    found = finding.found
    found.sort(key=lambda f: (f[0], f[1]))
    out: list[Mention] = []
    to_original = compact.to_original
    for start, end, item in found:  # compact offsets → offsets into `text`
        first, last = to_original(start), to_original(end - 1) + 1
        if isinstance(item, StatuteMention):
            m = item
            out.append(StatuteMention(  # not dataclasses.replace: this runs for every mention
                first + offset, last + offset, text[first:last], m.law, m.provision, m.pin, m.inherited, m.bare,
                m.qualifies_previous, None if m.quoted_in is None else to_original(m.quoted_in) + offset,
                None if m.scope_end is None else to_original(m.scope_end - 1) + 1 + offset, m.parallel, None,
                m.target, None if m.sentence_start is None else to_original(m.sentence_start) + offset))
        else:
            out.append(replace(item, start=first + offset, end=last + offset))
    return _in_sections(text, out, offset)


def _in_sections(text: str, mentions: list[Mention], offset: int) -> list[Mention]:
    """`mentions` with the section end of each law named in a labelled heading (`section_end`): the law that
    heading discusses, which a bare article below it may mean (`lexgraph.citations.layout.heading_sections`). Only
    the lines of mentions that name a law are looked at."""
    naming = [m.start - offset for m in mentions if isinstance(m, StatuteMention) and m.law is not None
              and m.law.kind in ("name", "number", "same")]
    if not naming:
        return mentions
    sections = heading_sections(text, naming)
    if not sections:
        return mentions
    return [replace(m, section_end=sections[m.start - offset] + offset)
            if isinstance(m, StatuteMention) and m.start - offset in sections else m for m in mentions]
