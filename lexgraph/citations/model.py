"""The values that flow through citation extraction: what the text says (mentions) and what it means (citations).

Extraction and resolution are kept apart, as in eyecite: a *mention* records only what is written (the span, the
law as named, the numbers, relative markers such as 前項), so it can be produced by a fast scanner that knows no
context; a *citation* is the mention read in its context (the document date, the clause being read, the laws cited
before it) and says which law, which clause and which version it points to, or why it could not tell.

Everything is a frozen dataclass so that mentions can be cached, compared in tests and shared between threads.
"""

from __future__ import annotations

from dataclasses import MISSING, asdict, dataclass, fields
from operator import attrgetter
from typing import Any, Literal

Level = Literal["article", "paragraph", "item", "subitem"]
# 前 (previous), 次 (next), 同 (the one cited last), 本 / この (the one being read), 前各 (all before this one).
Relation = Literal["previous", "next", "same", "this", "all_previous"]
# unverified: the law and clause are found, but the store cannot know the clause's wording on the day read (a gap
# between stored revisions, past "known up to", before the first stored version): never "resolved".
Status = Literal["resolved", "unverified", "ambiguous", "unresolved", "not_in_catalogue"]
# What a law outside the catalogue is, when its name or number says so (`Citation.outside`): a local body's 条例 or
# 規則, a foreign law, a treaty. Such a law is never resolved to a national law of the catalogue.
Outside = Literal["ordinance", "local_rule", "foreign", "treaty"]
LINKABLE: tuple[str, ...] = ("resolved", "unverified")  # a clause was cited; which wording, the link decides
# How a law is named: a name or 略称 (民法, 労基法, 振興会法), a law number only (平成十五年法律第五十七号),
# 同法 / 同令 (the law cited last), この法律 / 本法 (the law being read), bare 法 / 令 (the parent Act or its
# Cabinet Order when the text is a 施行令 / 施行規則, else a defined abbreviation).
LawRefKind = Literal["name", "number", "same", "this", "act", "order"]

# What a statute reference points at besides a clause: the law itself (この法律), a division of it
# (第三章, 第二章第三節), an appendix (別表第一, 様式第一号).
TargetKind = Literal["law", "division", "appendix"]
CitationKind = Literal["statute", "precedent", "law", "division", "appendix"]

LEVEL_PREFIX: dict[Level, str] = {"article": "a", "paragraph": "p", "item": "i", "subitem": "s"}


@dataclass(frozen=True)
class Step:
    """One level of a clause reference: 第七百九条 (absolute), 前項 (relative), 第一号から第五号まで (a range).

    `num` and `num_to` are e-Gov Nums ("709", "3_2"; "1" for イ). A relative step has `relation` instead of a
    number; `count` is N in 前N項 (前二項 = the two paragraphs before this one). `to_relation` is "previous" for a
    range that ends at the clause before the one being read (第二項から前項まで: `num` "2", `num_to` None), whose
    end only the resolver can number.
    """

    level: Level
    num: str | None = None
    num_to: str | None = None
    relation: Relation | None = None
    count: int = 1
    to_relation: Relation | None = None


@dataclass(frozen=True)
class ProvisionRef:
    """A clause as written: steps from the outermost level cited down (前条第二項 = previous article, paragraph 2).

    `part` names a sentence or group inside the clause: 本文, ただし書, 柱書, 前段, 後段, 各号, 各項. `suppl` marks a
    附則 reference (附則第二条).
    """

    steps: tuple[Step, ...]
    part: str | None = None
    suppl: bool = False

    @property
    def first_level(self) -> Level:
        return self.steps[0].level


@dataclass(frozen=True)
class LawRef:
    """A law as the text names it. `name` is the surface with whitespace removed (民法, 同法, 法, 平成十五年法律第
    五十七号); `law_num` is a law number written beside the name, 「…法律（平成十五年法律第五十七号）」, in e-Gov
    kanji form."""

    kind: LawRefKind
    name: str
    law_num: str | None = None


@dataclass(frozen=True)
class VersionPin:
    """「平成１１年法律第１４９号による改正前の」: the citation means the law as it stood before (or after) an
    amendment, not the version in force on the document's date. `note` is the text as written (without の / のもの);
    `amending_law_num` is the amending law's number in e-Gov kanji form when the text gives one; `by_term` the
    word the text defined for the amending act when it names it so (「改正法による改正前の」), which the resolver
    reads the number from. `whole` marks a complete revision (「平成２６年法律第６８号による全部改正前のもの」): the
    act replaced the law by a new law of the same title, which bears the act's own number, so that the law before
    it is another law, not an earlier version of the one the catalogue gives for the title."""

    note: str
    amending_law_num: str | None
    before: bool
    by_term: str | None = None  # 「改正法による改正前の」: the term the text defined for the amending act
    whole: bool = False  # 全部改正前 / 全部改正後: a complete revision (a new law replaced the old one)


@dataclass(frozen=True)
class StatuteMention:
    """One statute reference found in a text, before resolution.

    `start`/`end` are offsets into the original text, so ``text[start:end] == surface`` even when the reference
    is broken by line breaks. A list such as 民法７０９条、７１５条 gives one mention per element; the later
    elements carry the law of the first (`law`) and `inherited` is True. `provision` is None for a law cited as a
    whole (a law number, or a name followed by its number in brackets), and for a bare law name, which is only
    kept so that a later 同法 knows what it refers to (`bare` True; such mentions are never reported).
    `qualifies_previous` marks a paragraph or item in brackets right after another citation, which belongs to the
    article cited just before, not to the clause being read: 「第七百七十九条（第二項第二号を除く。）」.
    `quoted_in` is the start of the clause citation whose words a relative reference repeats, in a text that is not
    itself that clause: in 「同条２項が「前項の協議が調わないとき…」と規定し」 and in 「同条２項は，前項の政令におい
    ては，…旨規定し」, 前項 is read from 同条２項. `scope_end` is the end of the aside in brackets
    that a law is named in (「都道府県知事（地方自治法２５２条の１９第１項の…長。以下同じ。）」): after it, a bare
    article is not taken to be of that law. `parallel` marks a clause named in a version note after another
    citation (「１５条８項（平成６年法律第２号による改正前は７項）」): the same clause in another numbering, which
    a later 同項 never means. `law_from` is set by a refiner that parsed the sentence (`lexgraph.citations.ginza`),
    never by the scanner: the start of the earlier mention in the same sentence whose law this reference belongs
    to (the subject of its clause), overriding "the law named last". `sentence_start` is where the sentence of a
    clause written with no law before it (３条, 第二項) starts: whether the law named last was named in that sentence
    or before it decides whether the law under discussion may be meant instead (`lexgraph.citations.resolve`).
    `section_end` is set on a law named in a labelled heading (「第３　国家賠償法１条１項の解釈について」): where the
    heading's section ends (`lexgraph.citations.layout.heading_sections`); inside it that law is under discussion.
    """

    start: int
    end: int
    surface: str
    law: LawRef | None
    provision: ProvisionRef | None
    pin: VersionPin | None = None
    inherited: bool = False
    bare: bool = False
    qualifies_previous: bool = False
    quoted_in: int | None = None
    scope_end: int | None = None
    parallel: bool = False
    law_from: int | None = None
    target: TargetRef | None = None
    sentence_start: int | None = None
    section_end: int | None = None


@dataclass(frozen=True)
class AbbreviationDefinition:
    """「（以下「振興会法」という。）」 right after a law reference: from here on `term` names `law` (as pinned by
    `pin`, e.g. 「平成１６年法律第１４７号による改正前の民法（以下「旧民法」という。）」)."""

    start: int
    end: int
    term: str
    law: LawRef
    pin: VersionPin | None = None


@dataclass(frozen=True)
class TargetRef:
    """What a statute mention points at when it is no clause. `kind` "law": the law itself
    (この法律, この政令: `written` only); "division": 第三章, 第二章第三節, 第三章から第四章の二まで, with `path` the
    division path (pt 編, ch 章, se 節, ss 款, dv 目 and e-Gov Nums: ``ch2/se3``) and `path_to` a range's end
    (``ch4_2``), or no `path` when `written` is relative to the citing clause (前章, この節, 次款: `relative`);
    "appendix": 別表第一, 別表, 様式第一号, 別記様式第二号, with `written` the title as written
    (whitespace removed), which is how a law's appendices are told apart (e-Gov numbers them inconsistently)."""

    kind: TargetKind
    written: str
    path: str | None = None
    path_to: str | None = None
    relative: bool = False


Mention = StatuteMention | AbbreviationDefinition


@dataclass(frozen=True)
class Citation:
    """A mention resolved in its context: the law, the version, the clause, and a status with its reason.

    `path` is the provision path (``a709/p1/i2``, ``suppl/a2``) and `path_to` the end of a range: 第三条から第五条
    まで → ``a3`` … ``a5`` (`article_to` "5"), 第二条第二号から第七号まで → ``a2/p1/i2`` … ``a2/p1/i7`` (`item_to`
    "7"), １５条１項から４項まで (`paragraph_to` "4"), ４号イからホまで (`subitem_to` "5"). A range is one citation,
    as the text writes it; the graph links every member (`lexgraph.read.revisions.LawSpans.articles_between`).
    `article`, `paragraph`, `item` are the e-Gov Nums of the path, so an item cited without its
    paragraph (第二条第一号) has paragraph "1", as in e-Gov. `subitem` joins the Nums of nested subitems with "/"
    (第一号イ(2) → "1/2"). `part` is 本文 / ただし書 / 柱書 / 前段 / 後段 / 各号 / 各項 when cited. `law_num` is the
    cited law's number, `pinned_law_num` the amending law of a version pin. `reason`
    says why a citation is not resolved, and also how a resolved one was inferred when the text alone does not
    say (a law taken from the previous citation, a previous article computed without knowing the law's branch
    articles).
    """

    start: int
    end: int
    surface: str
    kind: CitationKind = "statute"
    law_title: str | None = None
    law_id: str | None = None
    revision_id: str | None = None
    article: str | None = None
    article_to: str | None = None
    paragraph: str | None = None
    item: str | None = None
    subitem: str | None = None
    part: str | None = None
    version_note: str | None = None
    status: Status = "unresolved"
    reason: str | None = None
    path: str | None = None
    path_to: str | None = None
    paragraph_to: str | None = None
    item_to: str | None = None
    subitem_to: str | None = None
    law_num: str | None = None
    pinned_law_num: str | None = None
    court: str | None = None
    date: str | None = None
    decision_type: str | None = None
    case_number: str | None = None
    reporter: str | None = None
    as_of: str | None = None  # the day (ISO) the text was read as of: its statutes' revisions are those in force
    division: str | None = None  # kind "division": ch3, ch2/se3 (see `TargetRef`)
    division_to: str | None = None  # the end of a range of divisions: 第三章から第五章まで → ch3 … ch5
    appendix: str | None = None  # kind "appendix": the title as written, 別表第一, 様式第一号
    # The law was named by a title it bore before it was renamed: that title, and the first day of the
    # next one (ISO; None when the source does not fix it). The `reason` says whether the name was out of date.
    former_title: str | None = None
    renamed_on: str | None = None
    # A division written relative to the citing clause (前章, この節, 次款): the words as written. Which
    # division they name is read from the clause's place in the law's structure, so `division` is filled only where
    # a store holding the law gives it (`cite --store`, the ingest's links), else the `reason` says why not.
    relative_division: str | None = None
    # A law the catalogue cannot hold, with status "not_in_catalogue": what it is (`Outside`).
    outside: str | None = None
    # A range's members (第一項から第三項まで → a27_36/p1, a27_36/p2, a27_36/p3): with a store, every member in force
    # on the day; without, the members its ends imply where the numbering is plain, `members_implied` True.
    members: tuple[str, ...] | None = None
    members_implied: bool | None = None

    def to_json(self) -> dict[str, Any]:
        """The entry of ``lexgraph cite --json``: exactly these keys, in this order. A contract: keys
        are only ever added (as the range ends `article_to` to `subitem_to` were), never renamed or removed; other
        fields go into `to_dict`."""
        return dict(zip(CITE_JSON_KEYS, self.json_values(), strict=True))

    def json_values(self) -> tuple[Any, ...]:
        """The values of `to_json`, in the order of `CITE_JSON_KEYS`, without building the dict (for a writer
        that lays the keys out itself: ``cite --json``)."""
        return _cite_json_values(self)  # type: ignore[no-any-return]

    def to_dict(self) -> dict[str, Any]:
        """Every field, for debugging and for the store (which needs `path`, `part` and the pinned law)."""
        return asdict(self)

    def read_as_of(self, as_of: str | None, shift: int = 0) -> Citation:
        """This citation stamped with the day it was read as of, its offsets moved by `shift` (a judgment's
        place in a longer text). Every citation of ``cite`` passes through here, and `dataclasses.replace`
        re-runs the frozen ``__init__`` over all the fields (about 15 µs, a twentieth of ``cite``'s time on a
        judgment); a shallow copy with three fields set gives the same value for a tenth of that."""
        stamped = Citation.__new__(Citation)
        stamped.__dict__.update(self.__dict__)  # a shallow copy; copy.copy's protocol costs twice as much
        object.__setattr__(stamped, "as_of", as_of)  # as the frozen dataclass's own __init__ sets its fields
        if shift:
            object.__setattr__(stamped, "start", self.start + shift)
            object.__setattr__(stamped, "end", self.end + shift)
        return stamped


def fill_dict_init(cls: type[Any]) -> None:
    """Give the frozen dataclass `cls` an ``__init__`` with the same parameters and defaults that fills the
    instance's ``__dict__`` in one call.

    Why: the generated one sets each field through ``object.__setattr__`` (to get past the frozen guard), one
    call per field: 12 µs for a `Citation`'s 37 (5 in one call), a twentieth of ``cite``'s time, and 4 µs for a
    `StatuteMention` (2 in one call), built twice per mention. The class must have no ``__post_init__``, default
    factories or non-init fields (checked), so the two build the same value.
    """
    own = fields(cls)
    if hasattr(cls, "__post_init__") or any(f.default_factory is not MISSING or not f.init or f.kw_only
                                            for f in own):
        raise TypeError(f"{cls.__name__}: only plain fields can be filled in one call")
    defaults = {f.name: f.default for f in own if f.default is not MISSING}
    parameters = ", ".join(f"{f.name}=_defaults[{f.name!r}]" if f.name in defaults else f.name for f in own)
    members = ", ".join(f"{f.name!r}: {f.name}" for f in own)
    namespace: dict[str, Any] = {"_defaults": defaults}
    # Built from the field names alone, as dataclasses builds its own __init__.
    exec(f"def __init__(self, {parameters}):\n    self.__dict__.update({{{members}}})", namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init


fill_dict_init(Citation)
fill_dict_init(StatuteMention)  # two per mention found (the scan's, then the one with original offsets)
for _small in (Step, ProvisionRef, LawRef, VersionPin, TargetRef, AbbreviationDefinition):
    fill_dict_init(_small)  # built per clause and per law named: a few fields, but one call each

CITE_JSON_KEYS = (
    "start", "end", "surface", "kind", "law_title", "law_id", "revision_id", "article", "article_to",
    "paragraph", "paragraph_to", "item", "item_to", "subitem", "subitem_to", "version_note", "status", "reason",
    "court", "date", "decision_type",
    "case_number", "reporter", "as_of", "division", "division_to", "appendix", "former_title", "renamed_on",
    "relative_division", "outside", "members", "members_implied",
)
_cite_json_values = attrgetter(*CITE_JSON_KEYS)  # one C call for all the values of `Citation.to_json`
