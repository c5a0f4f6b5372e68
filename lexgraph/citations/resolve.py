"""The resolver: mentions read in their context become citations of a law, a clause and a version.

It walks the mentions in text order, as a reader does, keeping what was cited last (for 同法 / 同条 / 同項),
the abbreviations defined so far (振興会法), and the clause being read when the text is itself a statute (for
前項 / 次条 / この号). Every mention that names a clause comes out as a citation, and one that cannot be
resolved comes out `unresolved` with the reason, never silently dropped. The one exception is 前… / 次… in a text
that is not a statute: there they are read from the clause whose words the sentence quotes or paraphrases
(「同条２項が「前項の協議が…」」, 「同条３項は，前２項の政令においては…」), and without such a clause they are
the text's own sections (「前項で述べたとおり」, 主文 「２ 前項の部分につき」), not citations.

Relative references need the law's structure: 前条 of 第五条 is 第四条, unless 第四条の二 exists. With a
`RevisionLookup` the resolver asks the store; without one it counts and says so in the citation's `reason`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import lru_cache

from lexgraph.citations.context import (
    AbsenceLookup,
    AmendmentLookup,
    CitationContext,
    Clause,
    GapLookup,
    LawTarget,
    MemberLookup,
    ResolutionState,
    StructureLookup,
    VersionsAhead,
    offers,
)
from lexgraph.citations.lawnames import canonical_commas
from lexgraph.citations.model import (
    AbbreviationDefinition,
    Citation,
    LawRef,
    Mention,
    ProvisionRef,
    Status,
    StatuteMention,
    Step,
    TargetRef,
    VersionPin,
    fill_dict_init,
)
from lexgraph.errors import ClauseUnplaced
from lexgraph.numerals import build_path, kanji_to_int
from lexgraph.statutes.catalog import COURT_RULES, LawEntry, normalize_law_num, parent_title

_RECENT = 8
# The 附則 of an amending law in the amended law's text: suppl[平成15年8月1日法律第138号]
_AMENDING_BLOCK = re.compile(r"suppl\[(?P<era_year>[^\d\]]+\d+年)(?:\d+月\d+日)?(?P<number>[^\]]*?第\d+号)\]")
_MAX_EXPANSION = 100  # a paragraph or item range wider than this is kept as its first clause
_MAX_BRANCH = 60
_PATH_SEGMENT = re.compile(r"^(suppl(?:\[[^\]]*\])?(?:#\d+)?)$|^([apis])(\d+(?:_\d+)*)$")
_WORD = {"article": "条", "paragraph": "項", "item": "号", "subitem": "目"}
_RELATION_WORD = {"previous": "前", "next": "次", "same": "同", "this": "本", "all_previous": "前各"}
# Version words glued to a law name (旧民法, 新薬事法): a version, but not which revision.
_GLUED_VERSIONS = frozenset({"旧", "新", "改正前", "改正後"})


@dataclass(frozen=True)
class _Target:
    """One clause a provision reference resolves to (a range of articles stays one target)."""

    clause: Clause
    article_to: str | None = None
    member_to: str | None = None  # the last paragraph / item / subitem of a range ending at the clause's level
    status: Status = "resolved"
    reason: str | None = None


fill_dict_init(_Target)


def resolve(mentions: Iterable[Mention], context: CitationContext) -> list[Citation]:
    """The citations of `mentions` in `context`, in text order (see `resolve_with_state`)."""
    return resolve_with_state(mentions, context)[0]


def resolve_with_state(mentions: Iterable[Mention], context: CitationContext) -> tuple[list[Citation], ResolutionState]:
    """The citations, and the state after the last mention, to carry on to the next text of the same document."""
    resolver = _Resolver(context)
    return resolver.read(mentions), resolver.state()


class PieceResolver:
    """The resolver of one long text that arrives piece by piece (`lexgraph.citations.stream`): it keeps the
    whole working memory between pieces (what 同法 means, the aside a law was named in, the clauses that a quote
    may repeat), which a `ResolutionState` handed from call to call does not carry, so that the citations come
    out exactly as if the text were resolved in one call. Offsets stay those of the whole text."""

    def __init__(self, context: CitationContext) -> None:
        self._resolver = _Resolver(context)

    def read(self, mentions: Iterable[Mention]) -> list[Citation]:
        """The citations of the next mentions, in text order."""
        return self._resolver.read(mentions)

    def forget_before(self, position: int) -> None:
        """Drop what only citations before `position` can need (a quote repeats a clause of its own sentence), so
        that memory does not grow with the text."""
        cited_at = self._resolver.cited_at
        for start in [start for start in cited_at if start < position]:
            del cited_at[start]
        law_at = self._resolver.law_at
        for start in [start for start in law_at if start < position]:
            del law_at[start]


class _Resolver:
    """The working memory of one `resolve_with_state` call."""

    def __init__(self, context: CitationContext) -> None:
        self.context = context
        self.catalog = context.catalog
        state = context.state
        self.last_law = state.last_law
        self.last_clause = state.last_clause
        self.recent = list(state.recent_laws)
        self.abbreviations = dict(state.abbreviations)
        self.bare_meanings = dict(state.bare_meanings)
        self.last_with: dict[str, tuple[LawTarget, Clause]] = dict(state.last_with)
        self.current_law: LawTarget | None = None
        self.current_clause: Clause | None = None
        # The law named last outside an aside in brackets, and where the aside that named `last_law` ends.
        self.outer_law = state.last_law
        self.last_law_scope: int | None = None
        self.last_law_at = -1  # where `last_law` was named (-1: before this text)
        # The law under discussion: the one the text defined a word such as 「法」 or 「本件条例」 for, which a bare
        # article of a later sentence may mean as well as the law named last.
        self.subject: tuple[str, LawTarget] | None = state.subject
        # The law a labelled heading names (「第３　国家賠償法１条１項の解釈について」) and where its section ends:
        # inside it, that law is under discussion, as a defined term's is.
        self.heading_law: tuple[LawTarget, int] | None = None
        self.cited_at: dict[int, tuple[LawTarget, Clause]] = {}  # by the start of the citation
        # The law each mention that names one resolved to, by the mention's start: what a parse-refined reference
        # (`StatuteMention.law_from`) points back to.
        self.law_at: dict[int, LawTarget] = {}
        # The law the first element of the list being read named, as written and as resolved: the later elements
        # (`StatuteMention.inherited`) carry the same words, which must not be read again against that law itself
        # (「同法施行令附則３項，４項」: ４項 is of the same 施行令, not of 同法施行令 after it).
        self.list_law: tuple[LawRef, VersionPin | None, LawTarget] | None = None
        if context.current_law_id:
            entry = self.catalog.by_id(context.current_law_id)
            self.current_law = (_target(entry) if entry is not None
                                else LawTarget(context.current_law_id, None, status="resolved"))
            self._push_recent(self.current_law)
        if context.current_path:
            self.current_clause = _clause_of_path(context.current_path)

    def read(self, mentions: Iterable[Mention]) -> list[Citation]:
        revisions = self.context.revisions
        if offers(revisions, VersionsAhead):  # type: ignore[type-abstract]
            mentions = list(mentions)
            revisions.read_versions(self._laws_named(mentions))
        citations: list[Citation] = []
        for mention in mentions:
            if isinstance(mention, AbbreviationDefinition):
                self.define(mention)
            elif mention.bare:
                target = self.law(mention.law, mention.pin) if mention.law else None
                if target is not None:
                    self.law_at[mention.start] = target
                    self._heading(mention, target)
                self.remember_law(target, mention.scope_end, mention.start)
            else:
                citations.extend(self.cite(mention))
        return citations

    def _laws_named(self, mentions: list[Mention]) -> list[str]:
        """The ids of the laws `mentions` name by title or number (as the catalogue gives them, before any context
        is read: a 同法 or a defined term means one of these, or one read before), with the law being read: what
        a store reads ahead of the resolver's questions (`VersionsAhead`)."""
        found: dict[str, None] = {}
        if self.context.current_law_id:
            found[self.context.current_law_id] = None
        seen: set[tuple[str, str, str | None]] = set()
        for mention in mentions:
            ref = mention.law
            if ref is None or ref.kind not in ("name", "number") or (ref.kind, ref.name, ref.law_num) in seen:
                continue
            seen.add((ref.kind, ref.name, ref.law_num))
            # a title, 略称 or number (`_named`, `_numbered`); a term defined before means a law read already
            entries = [] if ref.name in self.abbreviations else self.catalog.lookup(ref.name)[:4]
            if ref.law_num is not None and (by_number := self.catalog.by_law_num(ref.law_num)) is not None:
                entries.append(by_number)
            for entry in entries:
                found[entry.law_id] = None
        return list(found)

    def state(self) -> ResolutionState:
        return ResolutionState(self.last_law, self.last_clause, tuple(self.recent),
                               tuple(self.abbreviations.items()), tuple(self.bare_meanings.items()),
                               tuple(self.last_with.items()), self.subject)

    # --- laws ------------------------------------------------------------------------------------------------

    def define(self, definition: AbbreviationDefinition) -> None:
        target = self.law(definition.law, definition.pin)
        self.abbreviations[definition.term] = target
        if _SUBJECT_TERM.fullmatch(definition.term) and (target.law_id is not None or target.title is not None):
            self.subject = (definition.term, target)
        self.remember_law(target, at=definition.start)

    def remember_law(self, target: LawTarget | None, scope_end: int | None = None, at: int = -1) -> None:
        """Keep `target` as the law named last. How it was inferred (its reason) stays with the citation that
        inferred it: a later 同法 is not an inference from a guess but a plain reference. `scope_end` is the end
        of the aside in brackets it was named in, if any."""
        if target is not None and (target.law_id is not None or target.title is not None):
            if (target.status == "resolved" and target.reason is not None) or target.former is not None:
                target = _without_reason(target)  # 同法 after a former title names the law, not the old name
            self.last_law = target
            self.last_law_scope = scope_end
            self.last_law_at = at
            if scope_end is None:
                self.outer_law = target
            self._push_recent(target)

    def _heading(self, mention: StatuteMention, target: LawTarget) -> None:
        """Keep the law a labelled heading names as the law under discussion until its section ends."""
        if mention.section_end is not None and (target.law_id is not None or target.title is not None):
            self.heading_law = (_without_reason(target) if target.status == "resolved" else target,
                                mention.section_end)

    def _push_recent(self, target: LawTarget) -> None:
        key = _key(target)
        if self.recent and _key(self.recent[0]) == key:  # the same law again, as most citations are
            self.recent[0] = target
            return
        others = [t for t in self.recent if _key(t) != key]
        others.insert(0, target)
        self.recent = others[:_RECENT]

    def law(self, ref: LawRef, pin: VersionPin | None) -> LawTarget:
        """The law `ref` names, pinned to `pin` when the text pins a version."""
        target = self._law(ref)
        if pin is not None and pin.amending_law_num is None:
            pin = self._amended_by(pin, target)
        if pin is not None:
            if pin.amending_law_num is None and pin.note in ("旧", "新") and target.law_type == "Constitution":
                # 日本国憲法 has never been amended: 新憲法 is the Constitution, 旧憲法 the one before it.
                if not pin.before:
                    return target
                return LawTarget(None, f"{pin.note}{ref.name}", status="unresolved",
                                 reason=f"{pin.note}{ref.name} is the constitution before {target.title}, "
                                        "not in catalogue")
            if (pin.whole and pin.before and pin.amending_law_num is not None and target.law_id is not None
                    and target.law_num == pin.amending_law_num):
                return self._replaced_law(target, pin)
            target = replace(target, pin=pin)
        return target

    def _replaced_law(self, target: LawTarget, pin: VersionPin) -> LawTarget:
        """The law a complete revision replaced (「行政不服審査法（平成２６年法律第６８号による全部改正前のもの）」),
        where the catalogue's law of that title is the one the revision made (its number is the revising act's):
        another law. Where the catalogue (with the laws of the store) holds exactly one other law of the title enacted
        before it, that law, pinned; else unresolved with the reason: never the new law's id and wording as if
        they were the old."""
        older = [entry for entry in self.catalog.lookup(target.title or "")
                 if entry.law_id != target.law_id and _enacted_before(entry.law_id, target.law_id or "")]
        if len(older) == 1:
            return replace(_target(older[0]), pin=pin)
        held = f"the catalogue holds {len(older)} earlier laws of that title" if older else \
            "the catalogue does not hold it"
        return LawTarget(None, target.title, status="unresolved", pin=pin,
                         reason=f"{target.title} before its complete revision by {pin.amending_law_num} is the law "
                                f"that revision replaced, not the {target.title} the revision enacted "
                                f"({target.law_id}); {held}")

    def _amended_by(self, pin: VersionPin, target: LawTarget) -> VersionPin:
        """`pin` with the number of the amending act the text defined a word for: the one it names
        (「改正法による改正前の割賦販売法」), else, for a bare 改正前の / 改正後の / 旧 / 新, the one amending act the
        text defined (「平成２０年法律第７４号（以下「改正法」という。）」) when its title, if known, names the law.
        Two or more such acts, or none: the pin stays without a number (which version is not known)."""
        term = pin.by_term
        if term is not None:
            act = self.abbreviations.get(term)
            number = act.law_num if act is not None and act.law_id is None else None
        else:
            acts = {act.law_num: name for name, act in self.abbreviations.items()
                    if _AMENDING_TERM.search(name) and act.law_id is None and act.law_num
                    and (act.title is None or target.title is None or act.title.startswith(target.title))}
            number, term = next(iter(acts.items())) if len(acts) == 1 else (None, None)
        return replace(pin, amending_law_num=number, by_term=term) if number else pin

    def _law(self, ref: LawRef) -> LawTarget:
        if ref.kind == "name":
            return self._named(ref)
        if ref.kind == "number":
            return self._numbered(ref.name, ref.name)
        if ref.kind == "same":
            if ref.name in self.abbreviations:  # 「自動車登録規則（…以下「規則」という。）」, then 規則第六条の九
                return self.abbreviations[ref.name]
            if not ref.name.startswith("同"):  # 規則, 本件条例 not defined: the 規則 / 条例 named last, if any
                found = self._same_law("同" + ref.name[-2:])
                if found.title is None and ref.name.endswith("政令"):
                    # 「政令第十一条」 in a 施行規則 that names no 政令 before: its Act's Cabinet Order, as 令 (class 5)
                    order = self._bare_order()
                    if order.law_id is not None:
                        return order
                if found.title is None:
                    return LawTarget(None, ref.name, status="unresolved",
                                     reason=f"law name '{ref.name}' not in catalogue")
                return found
            return self._same_law(ref.name)
        if ref.kind == "this":
            if self.current_law is None:
                return _unresolved(f"{ref.name} outside a statute: no current law given")
            return self.current_law
        word = "法" if ref.kind == "act" else "令"
        target = self._bare_act() if ref.kind == "act" else self._bare_order()
        if target.law_id is not None:
            self.bare_meanings[word] = replace(target, reason=None)
        return target

    def _named(self, ref: LawRef) -> LawTarget:
        if ref.name in self.abbreviations:
            return self.abbreviations[ref.name]
        found = self.catalog.lookup(ref.name)
        if not found and ref.name != (canonical := canonical_commas(ref.name)):
            found = self.catalog.lookup(canonical)
        if ref.law_num is not None:
            by_number = self.catalog.by_law_num(ref.law_num)
            if by_number is not None:
                return _target(by_number)
            # 「公害に係る健康被害の救済に関する特別措置法（昭和４４年法律第９０号）」: the number says it is not the
            # law the (shorter) name fits in the catalogue.
            found = [e for e in found if normalize_law_num(e.law_num) == ref.law_num]
        if len(found) == 1:
            return self._maybe_former(ref.name, _target(found[0]))
        if found:
            options = ", ".join(f"{e.title} ({e.law_id})" for e in found[:4])
            return replace(_target(found[0]), status="ambiguous",
                           reason=f"'{ref.name}' names {len(found)} laws: {options}")
        rule = COURT_RULES.get(ref.name)
        if rule is not None:
            return LawTarget(None, rule[0], law_num=rule[1], status="unresolved",
                             reason=f"{rule[0]} is a rule of the Supreme Court, not in e-Gov")
        outside = outside_kind(ref.name, ref.law_num)
        if outside is not None:
            number = f" ({ref.law_num})" if ref.law_num is not None else ""
            return LawTarget(None, ref.name, law_num=ref.law_num, status="not_in_catalogue", outside=outside,
                             reason=f"'{ref.name}'{number} is {_OUTSIDE_WORDS[outside]}, which the catalogue of "
                                    "national law does not hold")
        if ref.law_num is not None:
            return LawTarget(None, ref.name, law_num=ref.law_num, status="unresolved",
                             reason=f"law '{ref.name}' ({ref.law_num}) not in catalogue")
        return LawTarget(None, ref.name, status="unresolved", reason=f"law name '{ref.name}' not in catalogue")

    def _maybe_former(self, name: str, target: LawTarget) -> LawTarget:
        """`target` with the renaming when `name` is a title it bore before."""
        for renamed in self.catalog.former_titles(canonical_commas(name)):
            if renamed.law_id == target.law_id:
                return replace(target, former=renamed)
        return target

    def _numbered(self, number: str, surface: str) -> LawTarget:
        entry = self.catalog.by_law_num(number)
        if entry is not None:
            return _target(entry)
        found = self.catalog.lookup(number)
        if found:
            options = ", ".join(f"{e.title} ({e.law_id})" for e in found[:4])
            return replace(_target(found[0]), status="ambiguous",
                           reason=f"law number {surface} names {len(found)} laws: {options}")
        outside = outside_kind("", number)
        if outside is not None:
            return LawTarget(None, None, law_num=number, status="not_in_catalogue", outside=outside,
                             reason=f"law number {surface} is {_OUTSIDE_WORDS[outside]}, which the catalogue of "
                                    "national law does not hold")
        return LawTarget(None, None, law_num=number, status="unresolved",
                         reason=f"law number {surface} not in catalogue")

    def _same_law(self, word: str) -> LawTarget:
        """同法 is the law named last; 同令 / 同規則 the last Cabinet Order / rule; 同法施行令 the Order of the law
        named last."""
        if self.last_law is None:
            return _unresolved(f"{word} with no preceding law")
        if word in ("同法", "同"):
            # 同法 is the last *Act* named: 「少年法…少年審判規則…（同法８条）」 means 少年法.
            for target in [self.last_law, *self.recent]:
                if _is_act(target):
                    return target
            return self.last_law
        if word.endswith(("施行令", "施行規則")):
            suffix = "施行令" if word.endswith("施行令") else "施行規則"
            base = self.last_law.title or ""
            return self._family(base, suffix, word)
        suffix = word[1:]
        for target in [self.last_law, *self.recent]:
            if target.title and target.title.endswith(suffix):
                return target
        return _unresolved(f"{word} with no preceding {suffix}")

    def _family(self, act_title: str, suffix: str, word: str) -> LawTarget:
        found = self.catalog.lookup(act_title + suffix) if act_title else []
        if len(found) == 1:
            return _target(found[0])
        return _unresolved(f"{word}: no {suffix} of '{act_title}' in catalogue")

    def _bare_act(self) -> LawTarget:
        """法 in a 施行令 / 施行規則 is the Act it implements; elsewhere a defined 「法」, else the Act cited last."""
        if "法" in self.abbreviations:
            return self.abbreviations["法"]
        current = self.current_law
        if current is not None and current.law_id is not None:
            parent = self.catalog.parent_of(current.law_id)
            if parent is not None:
                return _target(parent)
        if "法" in self.bare_meanings:
            earlier = self.bare_meanings["法"]
            return replace(earlier, reason=f"法 read as {earlier.title}, as earlier in the text")
        for target in self.recent:
            if target.law_id and target.law_type == "Act" and (current is None or target.law_id != current.law_id):
                return replace(target, reason=f"法 read as {target.title}, the Act cited last")
        return _unresolved("法 with no defined abbreviation, no parent law and no Act cited before")

    def _bare_order(self) -> LawTarget:
        """令 in a 施行規則 is the Cabinet Order of the same Act; elsewhere a defined 「令」, else the Cabinet
        Order cited last, else the 施行令 of the Act cited last."""
        if "令" in self.abbreviations:
            return self.abbreviations["令"]
        current = self.current_law
        if current is not None and current.law_id is not None:
            # what the ordinance itself says 令 is, or its parent Act's 施行令 (e.g. the 令 of
            # 企業内容等の開示に関する内閣府令 is 金融商品取引法施行令, which its title does not name)
            stated = self.catalog.order_of(current.law_id)
            parent = self.catalog.parent_of(current.law_id) if stated is None else None
            if parent is not None and parent.law_type == "Act":
                found = self.catalog.lookup(parent.title + "施行令")
                stated = found[0] if len(found) == 1 and found[0].law_id != current.law_id else None
            if stated is not None:
                return _target(stated)
        if current is not None and current.title:
            act = parent_title(current.title) or (current.title if current.law_type == "Act" else None)
            if act is not None:
                order = self.catalog.lookup(act + "施行令")
                if len(order) == 1 and order[0].law_id != current.law_id:
                    return _target(order[0])
        for target in self.recent:
            if target.law_type == "CabinetOrder" and (current is None or target.law_id != current.law_id):
                return replace(target, reason=f"令 read as {target.title}, the Cabinet Order cited last")
        for target in self.recent:
            if target.law_id and target.law_type == "Act" and target.title:
                order = self.catalog.lookup(target.title + "施行令")
                if len(order) == 1:
                    return replace(_target(order[0]), reason=f"令 read as {order[0].title}, the Order of the Act "
                                                              "cited last")
        return _unresolved("令 with no defined abbreviation and no Cabinet Order cited before")

    # --- clauses ---------------------------------------------------------------------------------------------

    def cite(self, mention: StatuteMention) -> list[Citation]:
        if mention.target is not None:
            return [self._cite_target(mention, mention.target)]
        if mention.provision is None:
            # A law named with its number and no clause (「電気通信事業法（昭和五十九年法律第八十六号。以下「法」と
            # いう。）」, 「昭和４４年法律第２号」) is a citation of the law as a whole (kind "law": a table of
            # authorities lists it), and the law a later 同法 or a bare article means.
            target = self.law(mention.law, mention.pin) if mention.law else _unresolved("no law")
            self.law_at[mention.start] = target
            self._heading(mention, target)
            self.remember_law(target, mention.scope_end, mention.start)
            return [self._whole_law(mention, target)]
        provision = mention.provision
        first = provision.steps[0]
        if (mention.law is None and first.relation is None and first.level in ("paragraph", "item")
                and mention.surface.startswith("第") and self.current_clause is None and self.current_law is None
                and self.last_clause is None):
            # 主文 「３ 第１項の部分のうち…」: 第N項 with no law and no clause cited before it is the text's own
            return []
        if mention.law is None and first.relation not in (None, "same") and self.current_clause is None:
            quoted = self.cited_at.get(mention.quoted_in) if mention.quoted_in is not None else None
            if quoted is not None:
                return self._cite_quoted(mention, quoted)
            if self.current_law is None and first.relation in ("previous", "next", "all_previous"):
                # 前項で述べたとおり, 「２ 前項の部分につき…」: outside a statute and outside a quote of one, 前 and 次
                # point at the text's own sections and paragraphs, not at a clause of a law.
                return []
        law, law_note = self._law_of(mention, provision)
        self._heading(mention, law)
        explicit_law = mention.law is not None
        if provision.suppl and law.law_id is None and law.law_num is not None and self.current_law is not None:
            kept = self._block_number()
            if kept is not None and kept == law.law_num:
                # 「平成十六年改正法附則第十項」 read in that amending law's 附則 as the amended law keeps it
                # (suppl[平成16年10月28日法律第136号]): a paragraph of this very 附則, in the law being read
                law, explicit_law = self.current_law, False
        self.law_at[mention.start] = law
        try:
            targets = self._targets(provision, law, explicit_law=explicit_law,
                                    qualifies_previous=mention.qualifies_previous)
        except ClauseUnplaced as failure:
            # 前項 in a judgment, 同条 with nothing before: the law's reason already says why there is no place.
            said = law.status == "unresolved" and law.law_id is None and law.title is None
            failed = _Target(Clause(), status="unresolved", reason=None if said else str(failure))
            return [self._citation(mention, law, failed)]
        out = [self._citation(mention, law, t, law_note) for t in targets]
        if provision.part == "各号":
            out = [self._each_item(c) for c in out]
        if mention.parallel:
            return out  # 「（…改正前は７項）」: the clause in another numbering; 同項 still means the one before
        if mention.law is not None or (first.relation != "same" and self.current_law is None):
            # 同条 / 同項 / 同号 name no law, nor does a bare 第四十六条 in a statute (its own article): 同法 after
            # them still means the law named before (「予防接種法第二十五条の規定により…同項の規定により読み替えて
            # 適用する同法第六条第一項」 is 予防接種法), never the citing law unless that was named last.
            scope = self.last_law_scope
            if mention.law is not None:
                scope = mention.scope_end
            elif scope is not None and mention.start >= scope:
                scope = None
            self.remember_law(law, scope, mention.start)
        last = targets[-1]
        if last.clause.article is not None or last.clause.paragraph is not None:
            known = last.clause  # not dataclasses.replace, which costs more than the rest of this step
            clause = Clause(last.article_to or known.article, known.paragraph, known.item, known.subitems, known.suppl)
            if last.member_to is not None:
                clause = _range_end(clause, last.member_to)
            cited = law if (law.status != "resolved" or law.reason is None) and law.former is None \
                else _without_reason(law)
            self.last_clause = (cited, clause)
            self.cited_at[mention.start] = self.last_clause
            for level in ("paragraph", "item"):
                if getattr(clause, level) is not None:
                    self.last_with[level] = self.last_clause
            if first.level == "article":  # an article written (第三十一条, 前条, 同条), not implied by 第一項 / 同項
                self.last_with["article"] = self.last_clause
        return out

    def _whole_law(self, mention: StatuteMention, law: LawTarget) -> Citation:
        """The citation of a law named as a whole, with its revision in force on the day when a store knows it."""
        reasons = [r for r in (law.reason,) if r]
        if law.former is not None:
            reasons.append(law.former.note(self.context.as_of, law.title))
        revision_id = None
        if law.law_id is not None and law.status not in ("unresolved", "not_in_catalogue"):
            revision_id, note = self._revision(law, mention.pin)
            if note:
                reasons.append(note)
        return Citation(
            start=mention.start, end=mention.end, surface=mention.surface, kind="law", law_title=law.title,
            law_id=law.law_id, revision_id=revision_id, version_note=mention.pin.note if mention.pin else None,
            status=law.status, reason="; ".join(dict.fromkeys(reasons)) or None, law_num=law.law_num,
            former_title=_former_title(law), renamed_on=_renamed_on(law), outside=law.outside,
        )

    def _cite_target(self, mention: StatuteMention, target: TargetRef) -> Citation:
        """この法律, 第三章, 別表第一: of the law written before it, else of the law being read; never
        of a law merely named earlier (a judgment's 「別表第一」 is its own or a contract's as often as a law's)."""
        amending = self._amending_law() if mention.law is not None and mention.law.kind == "this" else None
        if amending is not None:
            law = amending  # この法律 in an amending law's 附則 kept in the amended law's text is the amending law
        elif mention.law is not None:
            law = self.law(mention.law, mention.pin)
        elif self.current_law is not None:
            law = self.current_law
        else:
            law = _unresolved(f"{target.written} outside a statute and with no law named before it")
        if mention.law is not None:
            # a later 同法 means this law (「民法第四編第二章、同法別表第二」), but a later bare article does not: it
            # is remembered as if named in an aside that ends here, so that 「（２条４号，安衛令別表第３）」 …
            # 「（５条１項）」 stays the text's subject's (特化則), as before appendices were read (judgment 90298)
            self.law_at[mention.start] = law
            if mention.law.kind != "this":
                self.remember_law(law, mention.end)
        reasons = [r for r in (law.reason,) if r]
        if law.former is not None:
            reasons.append(law.former.note(self.context.as_of, law.title))
        revision_id = None
        if law.law_id is not None and law.status != "unresolved":
            revision_id, note = self._revision(law, mention.pin)
            if note:
                reasons.append(note)
        citation = Citation(
            start=mention.start, end=mention.end, surface=mention.surface, kind=target.kind,
            law_title=law.title, law_id=law.law_id, revision_id=revision_id,
            version_note=mention.pin.note if mention.pin else None, status=law.status,
            reason="; ".join(dict.fromkeys(reasons)) or None, law_num=law.law_num,
            division=target.path if target.kind == "division" else None,
            division_to=target.path_to if target.kind == "division" else None,
            appendix=target.written if target.kind == "appendix" else None,
            relative_division=target.written if target.relative else None,
            former_title=_former_title(law), renamed_on=_renamed_on(law), outside=law.outside,
        )
        revisions, day = self.context.revisions, self.context.as_of
        if target.relative and law.status == "resolved":
            return self._relative_division(citation, reasons)
        if (target.kind != "law" and law.status == "resolved" and day is not None and mention.pin is None
                and offers(revisions, StructureLookup)):  # type: ignore[type-abstract]
            # over a store that holds the law: whether 第三章 / 別表第一 is there on the citing day, and if not, why
            at = (self.context.current_path if self.current_law is not None
                  and self.current_law.law_id == law.law_id else None)
            missing = revisions.target_note(citation, day, at)
            if missing is not None:
                citation = replace(citation, reason="; ".join(dict.fromkeys([*reasons, missing])))
        return citation

    def _relative_division(self, citation: Citation, reasons: list[str]) -> Citation:
        """前章 / この節 / 次款 of the law being read: the division is read from the place of the citing
        clause (`current_path`) in the law's structure, which only a store holding the law gives; elsewhere the
        citation keeps its words and says why no division is given. Never a guess from the words alone."""
        revisions, day = self.context.revisions, self.context.as_of
        at = self.context.current_path
        written = citation.relative_division
        if at is None:
            why = (f"{written} is relative to the citing clause, and no clause is being read (give the clause, "
                   "cite --at): which division is not known")
        elif day is None or not offers(revisions, StructureLookup):  # type: ignore[type-abstract]
            why = (f"{written} is read from the citing clause's place in the law's divisions, which only a store "
                   "holding the law gives (cite --store): which division is not known")
        else:
            found = revisions.relative_division(citation, day, at)
            if found is None:
                why = f"{written}: the law is not stored, so its divisions are not known: not linked"
            elif isinstance(found, str):
                why = found
            else:
                missing = revisions.target_note(replace(citation, division=found[0]), day, at)
                return replace(citation, division=found[0],
                               reason="; ".join(dict.fromkeys([*reasons, *([missing] if missing else [])])) or None)
        return replace(citation, reason="; ".join(dict.fromkeys([*reasons, why])))

    def _each_item(self, citation: Citation) -> Citation:
        """第三十六条第一項各号 / 同項各号 / 第三十六条各号: the items of that paragraph on the citing day, as one
        range (its first and last item), where a store holds the law (as 前各項 is expanded); else the
        clause as written, with the reason it is not expanded."""
        if citation.status != "resolved" or citation.law_id is None or citation.item is not None or citation.path_to:
            return citation
        revisions, day = self.context.revisions, self.context.as_of
        found = (revisions.items(citation, day) if day is not None
                 and offers(revisions, StructureLookup) else None)  # type: ignore[type-abstract]
        if found is None or isinstance(found, str):
            why = found or "各号 not expanded: which items the clause has is known only from a store that holds the law"
            return replace(citation, reason="; ".join(r for r in (citation.reason, why) if r))
        first, last = found[0], found[-1]
        item = first.rpartition("/")[2].removeprefix("i")
        paragraph = first.split("/")[-2].removeprefix("p")
        return replace(citation, path=first, path_to=last if last != first else None, paragraph=paragraph,
                       item=item, item_to=last.rpartition("/")[2].removeprefix("i") if last != first else None)

    def _amending_law(self) -> LawTarget | None:
        """The amending law whose 附則 is being read (``suppl[平成15年8月1日法律第138号]/a14/p1``: 平成十五年法律第百三
        十八号, 仲裁法), or None outside such a 附則; unresolved with the reason when the catalogue lacks it."""
        number = self._block_number()
        if number is None:
            return None
        entry = self.catalog.by_law_num(number)
        if entry is None:
            return _unresolved(f"the amending law {number}, whose 附則 is being read, is not in the catalogue")
        return _target(entry)

    def _block_number(self) -> str | None:
        """The law number of the amending law whose 附則 is being read (``suppl[平成15年8月1日法律第138号]`` →
        平成十五年法律第百三十八号), or None outside such a 附則."""
        block = self.current_clause.suppl if self.current_clause is not None else None
        if not isinstance(block, str) or (found := _AMENDING_BLOCK.match(block)) is None:
            return None
        return normalize_law_num(found["era_year"] + found["number"])

    def _cite_quoted(self, mention: StatuteMention, quoted: tuple[LawTarget, Clause]) -> list[Citation]:
        """A relative reference in a quote of a clause's words is read from that clause, as if it were the
        clause being read."""
        saved = self.current_law, self.current_clause
        self.current_law, self.current_clause = quoted
        try:
            return self.cite(replace(mention, quoted_in=None))
        finally:
            self.current_law, self.current_clause = saved

    def _law_of(self, mention: StatuteMention, provision: ProvisionRef) -> tuple[LawTarget, str | None]:
        """The law of a clause reference, and a note when it is inferred rather than written."""
        if (provision.steps[0].relation in ("previous", "next", "this", "all_previous")
                and self.current_clause is not None and self.current_law is not None):
            # 前項 / 次条 in a statute are its own clauses, also at the end of a list that began with another law
            # (「同令第十一条の三の六の二及び第十一条の三の六の三並びに前二項の規定を適用する」).
            return self.current_law, None
        if mention.law_from is not None and (chosen := self.law_at.get(mention.law_from)) is not None:
            first_step = provision.steps[0]
            article = Clause(article=first_step.num, suppl=provision.suppl) if first_step.level == "article" else None
            same_act = mention.law is not None and mention.law.kind == "same"
            if (article is None or self._exists(chosen, article) is not False) and (not same_act or _is_act(chosen)):
                # the article must be in that law, and 同法 names an Act (never the 施行規則 that is the subject)
                return chosen, f"law taken from the subject of the clause ({chosen.title}), by the sentence's parse"
        if mention.law is not None:
            listed = self.list_law
            # the elements of one chain share the very LawRef of its first (identity: no dataclass comparison)
            if mention.inherited and listed is not None and listed[0] is mention.law and listed[1] is mention.pin:
                return listed[2], None
            target = self.law(mention.law, mention.pin)
            self.list_law = (mention.law, mention.pin, target)
            return target, None
        first = provision.steps[0]
        if first.relation == "same":
            antecedent = self._same_clause(provision)
            if antecedent is None:
                return _unresolved(f"{_written(first)} with no preceding clause"), None
            return antecedent[0], None
        if self.current_law is not None:
            return self.current_law, None
        if first.relation in ("previous", "next", "this", "all_previous"):
            return _unresolved(f"{_written(first)} outside a statute: no current clause given"), None
        # 「地方自治法において…（９０条１項）」: the law named last, with or without a clause, is the one meant;
        # not one named in an aside in brackets that has closed since (「公有水面埋立法は，…都道府県知事（地方自治法
        # ２５２条の１９第１項の…長。以下同じ。）の免許…（２条１項）」).
        if self.last_law is not None:
            law = self.last_law
            if (self.last_law_scope is not None and mention.start >= self.last_law_scope
                    and self.outer_law is not None):
                law = self.outer_law
            subject = self.subject
            heading = self.heading_law
            if heading is not None and mention.start >= heading[1]:
                heading = self.heading_law = None  # the heading's section has ended
            if heading is not None:  # the section's heading names the law it discusses: nearer than a definition
                subject = ("", heading[0])
            if (subject is not None and mention.sentence_start is not None and self.last_law_at < mention.sentence_start
                    and first.level == "article" and _key(subject[1]) != _key(law)):
                # The law named last was named in an earlier sentence, and the text discusses another law: either
                # may be meant, and the words do not say which (「本件条例は憲法に違反しない。３条は，…」).
                term, discussed = subject
                named = f"(「{term}」)" if term else "(named in its section's heading)"
                return replace(discussed, status="ambiguous", reason=(
                    f"{_written(first)} may be of the law under discussion, {discussed.title} {named}, or of "
                    f"the law named in an earlier sentence, {law.title}")), None
            return law, f"law taken from the law named before ({law.title})"
        return _unresolved("clause cited with no law named"), None

    def _targets(self, provision: ProvisionRef, law: LawTarget, explicit_law: bool,
                 qualifies_previous: bool = False) -> list[_Target]:
        """Walk the steps from the clause they start at: the law's root for an article, the current or last-cited
        clause for a paragraph or item given alone, the current clause for 前項 / 次条 / この号."""
        steps = provision.steps
        first = steps[0]
        base = self._base(first, law, explicit_law, provision.suppl, qualifies_previous, provision)
        notes: list[str] = []  # how relative steps were counted, for the reason
        targets = [_Target(base)]
        for index, step in enumerate(steps):
            if index == 0 and first.relation is not None:
                targets = self._relative(step, base, law, notes)
                continue
            if step.relation == "same":  # the 項 of 同条項: the antecedent's paragraph
                targets = [replace(t, clause=c.clause) for t in targets for c in self._relative(step, base, law, notes)]
                continue
            if step.to_relation is not None:
                targets = [self._range_to_previous(step, t, law, notes) for t in targets]
                continue
            targets = [t2 for t in targets for t2 in self._absolute(step, t)]
        if notes:
            targets = [replace(t, reason="; ".join(dict.fromkeys([*notes, *([t.reason] if t.reason else [])])))
                       for t in targets]
        return targets

    def _same_clause(self, provision: ProvisionRef) -> tuple[LawTarget, Clause] | None:
        """What 同条 / 同項 / 同号 (and 同条項) refer back to: the clause cited last that has the deepest level the
        reference repeats. An intervening 同条, or a citation with no item, does not hide the item 同号 means.
        For 同条 that is the article cited last *by its number or 前条 / 同条*: a reference to a
        paragraph of the clause being read (第一項, or 同項 back to it) names no article, and a drafter never calls
        the article being read 同条 (「第一項に規定する審査請求については、行政不服審査法第三十一条の規定は適用せず、
        同項の意見の聴取については、同条第二項から第五項までの規定を準用する」: 同条 is 第三十一条)."""
        deepest = "article"
        for step in provision.steps:
            if step.relation == "same":
                deepest = step.level
        last = self.last_clause
        if deepest in ("paragraph", "item") and (last is None or getattr(last[1], deepest) is None):
            return self.last_with.get(deepest, last)
        if deepest == "article":
            return self.last_with.get("article", last)
        return last

    def _base(self, first: Step, law: LawTarget, explicit_law: bool, suppl: bool,
              qualifies_previous: bool = False, provision: ProvisionRef | None = None) -> Clause:
        """The clause the first step is read from."""
        if first.relation == "same":
            antecedent = self._same_clause(provision) if provision is not None else self.last_clause
            if antecedent is None:
                raise ClauseUnplaced(f"{_written(first)} with no preceding clause")
            return antecedent[1]
        if first.relation is not None:
            if self.current_clause is None or (self.current_law is not None and law.law_id != self.current_law.law_id):
                raise ClauseUnplaced(f"{_written(first)} with no current clause")
            return self.current_clause
        if first.level == "article" or (suppl and first.level == "paragraph"):
            # 附則第五条 read inside an amending law's 附則 is an article of that same 附則; 附則第三項 is a paragraph
            # of a 附則 that has no articles, never 第三項 of the article being read
            block = self.current_clause.suppl if suppl and not explicit_law and self.current_clause else suppl
            return Clause(suppl=block or suppl)
        # 第二項 / ３号 alone: within the clause being read, else within the clause cited last; in brackets right
        # after a citation (第七百七十九条（第二項第二号を除く。）), within that citation.
        if qualifies_previous and self.last_clause is not None and self.last_clause[0].law_id == law.law_id:
            return self.last_clause[1]
        if self.current_clause is not None and (self.current_law is None or law.law_id == self.current_law.law_id):
            return self.current_clause
        if self.last_clause is not None and not explicit_law and self.last_clause[0].law_id == law.law_id:
            return self.last_clause[1]
        if explicit_law:
            raise ClauseUnplaced(f"{_written(first)} of {law.title or 'a law'} with no article")
        raise ClauseUnplaced(f"{_written(first)} with no article cited before")

    def _relative(self, step: Step, base: Clause, law: LawTarget, notes: list[str]) -> list[_Target]:
        level = step.level
        if step.relation in ("same", "this"):
            return [_Target(_truncate(base, level, require=True, step=step))]
        own = _num_at(base, level)
        if own is None:
            raise ClauseUnplaced(f"{_written(step)} but the current clause has no {level}")
        if step.relation == "next":
            num = self._next(law, base, level, own, notes)
            return [_Target(_with(_truncate(base, level), level, num))]
        # previous, 前N…, 前各…
        numbers: list[str] = []
        current = own
        count = step.count if step.relation == "previous" else 10_000
        for _ in range(count):
            previous = self._previous(law, base, level, current, notes)
            if previous is None:
                break
            numbers.append(previous)
            current = previous
        if not numbers:
            raise ClauseUnplaced(f"{_written(step)} in the first {level} ({own})")
        numbers.reverse()
        trunk = _truncate(base, level)
        if level == "article" and len(numbers) > 1:
            return [_Target(_with(trunk, level, numbers[0]), article_to=numbers[-1])]
        return [_Target(_with(trunk, level, n)) for n in numbers]

    def _absolute(self, step: Step, target: _Target) -> list[_Target]:
        """The clause `step` names under `target`. A range of paragraphs, items or subitems is one target with
        `member_to` (「２条２号から７号まで」), also when more steps follow it: in 「第三号から第十号まで並びにホ
        及びヘ」 the ホ is a sibling reference, not a sub-clause of each member, so members are never multiplied by
        the steps after them (expanding them once made 16 citations of that one phrase)."""
        trunk = _truncate(target.clause, step.level)
        if step.num is None:
            raise ClauseUnplaced(f"unreadable {step.level} number")
        if step.num_to is None or step.num_to == step.num:  # the common case: not dataclasses.replace, which is slow
            return [_Target(_with(trunk, step.level, step.num), target.article_to, target.member_to, target.status,
                            target.reason)]
        if step.level == "article":
            return [replace(target, clause=_with(trunk, "article", step.num), article_to=step.num_to)]
        low, high = _int_or_none(step.num), _int_or_none(step.num_to)
        if low is None or high is None or not 0 < high - low <= _MAX_EXPANSION:
            note = f"range {step.num}…{step.num_to} given as its first {step.level}"
            return [replace(target, clause=_with(trunk, step.level, step.num), reason=note)]
        return [replace(target, clause=_with(trunk, step.level, step.num), member_to=step.num_to)]

    def _range_to_previous(self, step: Step, target: _Target, law: LawTarget, notes: list[str]) -> _Target:
        """第二項から前項まで read in 第十条第五項: 第十条 paragraphs 2 to 4, one target with `member_to`. The range
        must lie in the clause being read (its article, for paragraphs); otherwise its end cannot be placed, and
        the range is given as its first member with the reason."""
        trunk = _truncate(target.clause, step.level)
        first = _with(trunk, step.level, step.num) if step.num is not None else trunk
        current = self.current_clause
        own = _num_at(current, step.level) if current is not None else None
        if (current is None or own is None or self.current_law is None or law.law_id != self.current_law.law_id
                or _truncate(current, step.level) != trunk):
            return replace(target, clause=first, reason=f"range {_written(Step(step.level, step.num))}から前"
                           f"{_WORD[step.level]}まで: no current {step.level} to count back from")
        end = self._previous(law, current, step.level, own, notes)
        low, high = _num_parts(step.num or ""), _num_parts(end or "")
        # In the law's order: 2 to 4, and branch articles too (第二百六十四条の十から前条まで in 264の14: 264_10 to
        # 264_13), whose members the graph links in order (`LawSpans.articles_between`).
        if (end is None or low is None or high is None or not low < high
                or high[0] - low[0] > _MAX_EXPANSION):
            if end == step.num:
                return replace(target, clause=first)
            return replace(target, clause=first, reason=f"range {step.num}…前{_WORD[step.level]} ({end}) given as "
                                                         f"its first {step.level}")
        if step.level == "article":  # an article range is an article_to, as 第三条から第五条まで
            return replace(target, clause=first, article_to=end)
        return replace(target, clause=first, member_to=end)

    def _exists(self, law: LawTarget, clause: Clause) -> bool | None:
        revisions = self.context.revisions
        if revisions is None or law.law_id is None or self.context.as_of is None:
            return None
        path = _path(clause)
        return revisions.provision_exists(law.law_id, path, self.context.as_of) if path else None

    def _previous(self, law: LawTarget, base: Clause, level: str, num: str, notes: list[str]) -> str | None:
        """前条 of 5 is 4, or the last branch 4_N when the law has one; 前条 of 5_3 is 5_2, of 5_2 is 5."""
        parts = [int(p) for p in num.split("_")] if _is_num(num) else None
        if parts is None:
            return None
        if len(parts) > 1:
            parts[-1] -= 1
            return "_".join(map(str, parts if parts[-1] > 1 else parts[:-1]))
        if parts[0] <= 1:
            return None
        plain = str(parts[0] - 1)
        if level == "paragraph":
            return plain
        trunk = _truncate(base, level)
        if self._exists(law, _with(trunk, level, f"{plain}_2")) is None:
            notes.append(f"{_RELATION_WORD['previous']}{_WORD[level]} counted as {plain} without knowing whether "
                         f"{plain}の二 … exist (no revision lookup)")
            return plain
        branch = 1
        while branch < _MAX_BRANCH and self._exists(law, _with(trunk, level, f"{plain}_{branch + 1}")):
            branch += 1
        return plain if branch == 1 else f"{plain}_{branch}"

    def _next(self, law: LawTarget, base: Clause, level: str, num: str, notes: list[str]) -> str:
        """次条 of 5 is 5_2 when it exists, else 6; of 5_2 it is 5_3 when that exists, else 6."""
        if not _is_num(num):
            raise ClauseUnplaced(f"次{_WORD[level]} of an unreadable number {num}")
        parts = [int(p) for p in num.split("_")]
        following = str(parts[0] + 1)
        if level == "paragraph":
            return following
        branch = "_".join(map(str, [*parts[:-1], parts[-1] + 1])) if len(parts) > 1 else f"{parts[0]}_2"
        exists = self._exists(law, _with(_truncate(base, level), level, branch))
        if exists is None:
            notes.append(f"次{_WORD[level]} counted as {following} without knowing whether {branch} exists "
                         "(no revision lookup)")
            return following
        return branch if exists else following

    # --- output ----------------------------------------------------------------------------------------------

    def _citation(self, mention: StatuteMention, law: LawTarget, target: _Target | None,
                  law_note: str | None = None) -> Citation:
        status: Status = law.status
        reasons = [r for r in (law.reason, law_note) if r]
        clause = target.clause if target is not None else None
        path = _path(clause) if clause is not None else None
        path_to = None
        if target is not None:
            if target.status == "unresolved":
                status = "unresolved"
            if target.reason:
                reasons.append(target.reason)
            if target.article_to is not None and clause is not None:
                path_to = _path(Clause(article=target.article_to, suppl=clause.suppl))
            elif target.member_to is not None and clause is not None:
                path_to = _path(_range_end(clause, target.member_to))
        revision_id = None
        if law.former is not None:
            reasons.append(law.former.note(self.context.as_of, law.title))
        pin = law.pin
        if pin is not None and pin.amending_law_num is None and pin.note in _GLUED_VERSIONS and law.title:
            which = "an earlier" if pin.before else "a later"
            written = f"{pin.note}{mention.law.name if mention.law is not None else law.title}"
            reasons.append(f"{written}: {which} version of {law.title}, or {which} law of that title; which "
                           "revision is not known")
        if pin is not None and pin.by_term is not None and pin.amending_law_num is not None:
            reasons.append(f"{pin.note}: {'before' if pin.before else 'after'} the amendment by "
                           f"{pin.amending_law_num}, which the text calls 「{pin.by_term}」")
        if law.law_id is not None and status != "unresolved":
            revision_id, note = self._revision(law, pin)
            if note:
                reasons.append(note)
                if revision_id is None and status == "resolved":
                    status = "unverified"  # the store was asked and holds no such version: nothing was checked
            if path is not None and pin is None and target is not None and target.status == "resolved":
                exists = self._exists(law, clause) if clause is not None else None
                if exists is False:
                    status = "unresolved"
                    why = (self.context.revisions.absent_note(law.law_id, path, self.context.as_of)
                           if offers(self.context.revisions, AbsenceLookup)  # type: ignore[type-abstract]
                           and self.context.as_of else None)
                    if why is not None and why[1]:  # in neither stored version around a gap: no version in force
                        revision_id = None
                    reasons.append(why[0] if why is not None else
                                   f"{path} does not exist in the version in force on {self.context.as_of}")
                elif (exists is None and offers(self.context.revisions, GapLookup)  # type: ignore[type-abstract]
                      and self.context.as_of):
                    unknown = self.context.revisions.gap_note(law.law_id, path, self.context.as_of)
                    if unknown is not None:  # the store cannot know the wording of that day: never "resolved"
                        revision_id = None
                        status = "unverified"
                        reasons.append(unknown)
        members, implied = self._members(law, path, path_to) if path_to is not None else (None, None)
        return Citation(
            start=mention.start, end=mention.end, surface=mention.surface, kind="statute",
            law_title=law.title, law_id=law.law_id, revision_id=revision_id, members=members, members_implied=implied,
            article=clause.article if clause else None, article_to=target.article_to if target else None,
            paragraph=_paragraph(clause), item=clause.item if clause else None,
            subitem="/".join(clause.subitems) if clause and clause.subitems else None,
            paragraph_to=_member_to(clause, target, "paragraph"), item_to=_member_to(clause, target, "item"),
            subitem_to=_member_to(clause, target, "subitem"),
            part=mention.provision.part if mention.provision else None,
            version_note=pin.note if pin else None, status=status,
            reason="; ".join(dict.fromkeys(reasons)) or None, path=path, path_to=path_to,
            law_num=law.law_num, pinned_law_num=pin.amending_law_num if pin else None,
            former_title=_former_title(law), renamed_on=_renamed_on(law), outside=law.outside,
        )

    def _members(self, law: LawTarget, path: str | None, path_to: str | None
                 ) -> tuple[tuple[str, ...] | None, bool | None]:
        """The members of a range (`path` … `path_to`): those in force on the day, where a store holding the law
        says so; else the members the ends imply where numbering is plain (第一項から第三項まで: 1, 2, 3; not 第三条
        から第五条の二まで, whose branches between only the law knows), marked implied; (None, None) otherwise."""
        if path is None or path_to is None:
            return None, None
        revisions, day = self.context.revisions, self.context.as_of
        if law.law_id is not None and day is not None and offers(revisions, MemberLookup):  # type: ignore[type-abstract]
            stored = revisions.members(law.law_id, path, path_to, day)
            if stored is not None:
                return stored, False
        implied = implied_members(path, path_to)
        return (implied, True) if implied is not None else (None, None)

    def _revision(self, law: LawTarget, pin: VersionPin | None) -> tuple[str | None, str | None]:
        revisions = self.context.revisions
        if revisions is None or law.law_id is None:
            return None, None
        if pin is not None:
            if pin.amending_law_num is None:  # 改正前の民法 with no amendment named: the store cannot tell which
                return None, "no amending law is named: not checked against a stored version"
            if not offers(revisions, AmendmentLookup):  # type: ignore[type-abstract]
                return None, None
            amending = self.catalog.by_law_num(pin.amending_law_num)
            # Amending laws are mostly not in the catalogue: a 法律's number gives the e-Gov id of a 閣法, which
            # is what a stored version's id names as its amending law.
            amending_id = amending.law_id if amending is not None else cabinet_act_id(pin.amending_law_num)
            found = revisions.revision_around_amendment(law.law_id, amending_id, pin.before) if amending_id else None
            if found is None:
                which = "in force just before" if pin.before else "made by"
                return None, (f"{pin.note}: the store holds no version of {law.title} known to be the one {which} "
                              f"{pin.amending_law_num}; not checked against its text")
            return found, None
        if self.context.as_of is None:
            return None, None
        revision = revisions.revision_in_force(law.law_id, self.context.as_of)
        if revision is None:
            return None, (f"no stored version of {law.title} in force on {self.context.as_of.isoformat()}; not "
                          "checked against its text")
        return revision, None


# A word a text defines for an amending act: 改正法, 平成２４年改正法, 本件改正法, 厚年法改正法.
_AMENDING_TERM = re.compile(r"改正法\Z")

# Words a text defines for the law it discusses as a whole: 「（以下「法」という。）」, 「（以下「本件条例」という。）」
_SUBJECT_TERM = re.compile(r"法|本法|令|条例|規則|本件(?:[^（）「」]{0,6}?)(?:法|法律|条例|規則|規程|要綱)")


# A local body's name at the start of a title, or in a law number: 東京都, 大阪市, 目黒区, 沖縄県, 北海道.
_LOCAL_BODY = r"(?:[一-龥ァ-ヴー]{1,6}?(?:都|道|府|県|市|区|町|村)|北海道)"
_ORDINANCE = re.compile(rf"条例\Z|^(?:明治|大正|昭和|平成|令和).*{_LOCAL_BODY}条例第")
_LOCAL_RULE = re.compile(rf"^(?!内閣府){_LOCAL_BODY}.*規則\Z|^(?:明治|大正|昭和|平成|令和).*{_LOCAL_BODY}規則第")
# Foreign law named by its country or state (韓国民法, 中華人民共和国民法典, 州ＬＰＳ法, ドイツ民法).
_FOREIGN = re.compile(r"^(?:韓国|大韓民国|中国|中華人民共和国|台湾|北朝鮮|米国|アメリカ|合衆国|英国|イギリス|ドイツ"
                      r"|独国|フランス|仏国|イタリア|スイス|オランダ|ロシア|カナダ|オーストラリア|ブラジル|フィリピン|タイ|ベトナム"
                      r"|[一-龥ァ-ヴー]{0,8}州)")
_TREATY = re.compile(r"(?:条約|協定|議定書)\Z")
_OUTSIDE_WORDS = {"ordinance": "a local body's 条例", "local_rule": "a local body's 規則", "foreign": "a foreign law",
                  "treaty": "a treaty"}


def outside_kind(name: str, law_num: str | None = None) -> str | None:
    """What the law called `name` (numbered `law_num`) is when no catalogue of national law can hold it: a 条例
    or a 規則 of a local body (by its title or its number: 「昭和３７年東京都条例第１０３号」), a foreign law (by its
    country: 韓国民法), a treaty; None for a name that may be a national law the catalogue merely lacks."""
    if _ORDINANCE.search(name) or (law_num is not None and _ORDINANCE.search(law_num)):
        return "ordinance"
    if _LOCAL_RULE.search(name) or (law_num is not None and _LOCAL_RULE.search(law_num)):
        return "local_rule"
    if _FOREIGN.match(name):
        return "foreign"
    if _TREATY.search(name):
        return "treaty"
    return None


_PLAIN_STEP = re.compile(r"([a-z]+)(\d+)")
_MAX_IMPLIED = 200  # a range written with ends further apart than this is listed by its ends only


def implied_members(first: str, last: str) -> tuple[str, ...] | None:
    """The paths from `first` to `last` that the ends imply when they differ only in their last step and both
    number it plainly (a27_36/p1 … a27_36/p3, a2/p21/i1 … a2/p21/i5, a3 … a5); None otherwise (a branch such as
    a5_2 at either end, or different parents), since only the law knows what lies between."""
    parent, _, step = first.rpartition("/")
    parent_to, _, step_to = last.rpartition("/")
    start, end = _PLAIN_STEP.fullmatch(step), _PLAIN_STEP.fullmatch(step_to)
    if parent != parent_to or start is None or end is None or start[1] != end[1]:
        return None
    low, high = int(start[2]), int(end[2])
    if not low < high or high - low > _MAX_IMPLIED:
        return None
    prefix = f"{parent}/{start[1]}" if parent else start[1]
    return tuple(f"{prefix}{n}" for n in range(low, high + 1))
def cabinet_act_id(law_num: str) -> str | None:
    """The e-Gov id a 法律 of this number has when the Cabinet proposed it (平成三十年法律第五十九号 →
    430AC0000000059), the inverse of `law_num_of_act_id`; None for anything else."""
    match = _ACT_NUM.match(law_num)
    if match is None:
        return None
    era, year_text, number_text = match.groups()
    year = 1 if year_text == "元" else kanji_to_int(year_text)
    number = kanji_to_int(number_text)
    code = _ERA_CODES.get(era)
    if code is None or year is None or number is None or year > 99 or number > 999:
        return None
    return f"{code}{year:02d}AC0000000{number:03d}"


_ACT_NUM = re.compile(r"^(明治|大正|昭和|平成|令和)([元〇一二三四五六七八九十百]+)年法律"
                      r"第([〇一二三四五六七八九十百千]+)号$")
_ERA_CODES = {"明治": "1", "大正": "2", "昭和": "3", "平成": "4", "令和": "5"}


def _without_reason(target: LawTarget) -> LawTarget:
    return LawTarget(target.law_id, target.title, target.law_type, target.law_num, target.status, None, target.pin)


def _former_title(law: LawTarget) -> str | None:
    """`former_title` of a citation of a law named by a title it bore before a renaming."""
    return law.former.title if law.former is not None else None


def _renamed_on(law: LawTarget) -> str | None:
    """`renamed_on` (ISO) of a citation of a law named by a former title, when the source fixes the day."""
    day = law.former.renamed_on if law.former is not None else None
    return day.isoformat() if day else None


def _key(target: LawTarget) -> str:
    return target.law_id or f"?{target.title}"


def _is_act(target: LawTarget) -> bool:
    """An Act (or the Constitution), or for a law missing from the catalogue, a name that reads like one."""
    if target.law_type is not None:
        return target.law_type in ("Act", "Constitution")
    return target.title is not None and target.title.endswith(("法", "法律"))


def _target(entry: LawEntry) -> LawTarget:
    return LawTarget(entry.law_id, entry.title, entry.law_type, entry.law_num)


def _unresolved(reason: str) -> LawTarget:
    return LawTarget(None, None, status="unresolved", reason=reason)


def _written(step: Step) -> str:
    """前項, 同条, 第二項: how a step reads, for reasons."""
    if step.relation is None:
        return f"{step.num}{_WORD[step.level]}"
    count = str(step.count) if step.count > 1 else ""
    return f"{_RELATION_WORD[step.relation]}{count}{_WORD[step.level]}"


def _is_num(num: str) -> bool:
    return all(p.isdigit() for p in num.split("_"))


def _num_parts(num: str) -> tuple[int, ...] | None:
    """An e-Gov Num as its numbers in order ("264_10" → (264, 10)); None for anything else."""
    parts = num.split("_")
    return tuple(int(p) for p in parts) if num and all(p.isdecimal() for p in parts) else None


def _int_or_none(num: str) -> int | None:
    return int(num) if num.isdigit() else None


def _num_at(clause: Clause, level: str) -> str | None:
    if level == "subitem":
        return clause.subitems[-1] if clause.subitems else None
    return getattr(clause, level)


def _truncate(clause: Clause, level: str, require: bool = False, step: Step | None = None) -> Clause:
    """The clause cut so that `level` is its deepest level (kept when `require`, dropped otherwise)."""
    if require and _num_at(clause, level) is None:
        raise ClauseUnplaced(f"{_written(step) if step else level} but the clause referred to has no {level}")
    if level == "article":
        return Clause(article=clause.article if require else None, suppl=clause.suppl)
    if level == "paragraph":
        return Clause(clause.article, clause.paragraph if require else None, suppl=clause.suppl)
    if level == "item":
        return Clause(clause.article, clause.paragraph, clause.item if require else None, suppl=clause.suppl)
    return Clause(clause.article, clause.paragraph, clause.item,
                  clause.subitems if require else clause.subitems[:-1], suppl=clause.suppl)


def _with(clause: Clause, level: str, num: str) -> Clause:
    if level == "article":
        return Clause(article=num, suppl=clause.suppl)
    if level == "paragraph":
        return Clause(clause.article, num, suppl=clause.suppl)
    if level == "item":
        return Clause(clause.article, clause.paragraph, num, suppl=clause.suppl)
    return replace(clause, subitems=(*clause.subitems, num))


def _deepest_level(clause: Clause) -> str | None:
    if clause.subitems:
        return "subitem"
    if clause.item is not None:
        return "item"
    if clause.paragraph is not None:
        return "paragraph"
    return "article" if clause.article is not None else None


def _range_end(clause: Clause, num_to: str) -> Clause:
    """The last member of a range that starts at `clause` and ends at `num_to` on the clause's deepest level."""
    level = _deepest_level(clause)
    if level == "subitem":
        return replace(clause, subitems=(*clause.subitems[:-1], num_to))
    if level == "item":
        return replace(clause, item=num_to)
    if level == "paragraph":
        return replace(clause, paragraph=num_to)
    return clause


def _member_to(clause: Clause | None, target: _Target | None, level: str) -> str | None:
    """`num_to` of a range whose members are at `level`, for the citation's paragraph_to / item_to / subitem_to."""
    if clause is None or target is None or target.member_to is None or _deepest_level(clause) != level:
        return None
    return target.member_to


def _paragraph(clause: Clause | None) -> str | None:
    """The paragraph of the path: 第二条第一号 is in paragraph 1 (e-Gov puts every item in a paragraph)."""
    if clause is None:
        return None
    return clause.paragraph or ("1" if clause.item else None)


@lru_cache(maxsize=4096)  # pure, and a text cites the same clauses again and again
def _path(clause: Clause) -> str | None:
    block = (clause.suppl if isinstance(clause.suppl, str) else "suppl") if clause.suppl else None
    return build_path(block, clause.article, clause.paragraph, clause.item, clause.subitems)


def _clause_of_path(path: str) -> Clause | None:
    """``a2_12/p1/i1`` → Clause(article="2_12", paragraph="1", item="1"); None when `path` is not a clause path."""
    fields: dict[str, str] = {}
    subitems: list[str] = []
    suppl: bool | str = False
    for segment in path.split("/"):
        match = _PATH_SEGMENT.match(segment)
        if match is None:
            return None
        if match.group(1):
            suppl = match.group(1)  # "suppl" or the 附則 of an amending law, "suppl[平成16年12月1日法律第147号]"
        elif match.group(2) == "s":
            subitems.append(match.group(3))
        else:
            fields[match.group(2)] = match.group(3)
    return Clause(fields.get("a"), fields.get("p"), fields.get("i"), tuple(subitems), suppl)


def _enacted_before(law_id: str, other_id: str) -> bool:
    """Was the law `law_id` enacted in an earlier year than `other_id`? An e-Gov law id starts with its era (1 明治
    … 5 令和) and year: 337AC0000000160 is of 昭和37, 426AC0000000068 of 平成26."""
    first, second = law_id[:3], other_id[:3]
    return first.isdigit() and second.isdigit() and (int(first[0]), int(first[1:])) < (int(second[0]),
                                                                                       int(second[1:]))
