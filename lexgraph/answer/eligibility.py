"""Which sentences of an answer need a legal basis: CitaLaw's criteria (its §4.3), read with GiNZA's parse.

Why: CitaLaw attaches citations only to sentences "that explicitly reference legal concepts, actions, or terms": a
sentence is eligible when it contains a term of a pool of legal terminology, or when spaCy's entity recogniser
finds a legal entity in it. A courtesy or a summary (「以上です。」「ご参考まで。」) takes none. lexgraph used to read
this as a regular expression on single kanji (法|条|権…), which 方法, 条件 or 権威 satisfy: nearly every sentence
passed.

Here, as in the paper, two tests on the sentence's parse (GiNZA, spaCy's Japanese pipeline):

* **terminology**: a word of the pool (`legal_terms`, ``lexgraph/data/legal_terms.txt``; the paper's THUOCL and
  LaWGPT pools are Chinese) is one of the sentence's words or runs of up to three consecutive words, by lemma or
  surface: 損害賠償 in 「損害賠償を請求できます」, never 法 inside 方法;
* **legal entities**: GiNZA's named entities of a legal kind (`LEGAL_ENTITY_LABELS`: a law or article cited,
  民法第709条 → ``Law``; another rule, a treaty, an offence) and courts (``Public_Institution`` ending in 裁判所);
  and, since GiNZA's model knows few law names (医療観察法７１条１項 is no entity to it), every statute or
  precedent citation lexgraph's own extractor finds in the sentence (``citation:statute``,
  ``citation:precedent``), the recogniser of legal entities lexgraph has for Japanese.

The model (``ja_ginza``) is loaded once per process; without it the check raises `ToolMissing` with what to install.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from lexgraph.citations import extract
from lexgraph.errors import ToolMissing

if TYPE_CHECKING:
    from spacy.tokens import Doc

#: GiNZA's (Extended Named Entity) labels that name law: a law or clause, another rule, a treaty, an offence.
LEGAL_ENTITY_LABELS = frozenset({"Law", "Rule_Other", "Treaty", "Offense"})
COURT_SUFFIX = "裁判所"
MAX_RUN = 3  # words joined to match a compound term (損害 + 賠償 + 請求)


@dataclass(frozen=True)
class Eligibility:
    """Why a sentence needs a legal basis (or not): the pool's terms it uses and the legal entities found in it."""

    text: str
    terms: tuple[str, ...] = ()
    entities: tuple[tuple[str, str], ...] = ()  # (text, GiNZA label)

    @property
    def eligible(self) -> bool:
        return bool(self.terms or self.entities)

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "eligible": self.eligible, "terms": list(self.terms),
                "entities": [list(e) for e in self.entities]}


@lru_cache(maxsize=1)
def legal_terms() -> frozenset[str]:
    """The pool of legal terminology, one term a line in ``lexgraph/data/legal_terms.txt`` (``#`` comments)."""
    text = resources.files("lexgraph").joinpath("data/legal_terms.txt").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


@lru_cache(maxsize=1)
def _nlp() -> Any:
    try:
        from lexgraph.citations.ginza import load_ginza

        return load_ginza()
    except (ImportError, OSError) as error:
        raise ToolMissing("CitaLaw's sentence eligibility reads GiNZA's parse: install spaCy and the ja_ginza model "
                          f"(pip install 'lexgraph[ginza]'): {error}") from error


def eligibility(sentences: Sequence[str]) -> list[Eligibility]:
    """Each sentence's eligibility for a citation, in order (one GiNZA pass over all of them)."""
    nlp = _nlp()
    return [_judge(text, doc) for text, doc in zip(sentences, nlp.pipe(list(sentences)), strict=True)]


def eligible(sentences: Sequence[str]) -> list[bool]:
    return [e.eligible for e in eligibility(sentences)]


def _judge(text: str, doc: Doc) -> Eligibility:
    pool = legal_terms()
    words = [(t.lemma_, t.text) for t in doc if not t.is_punct and not t.is_space]
    terms: list[str] = []
    for start in range(len(words)):
        for size in range(1, MAX_RUN + 1):
            run = words[start:start + size]
            if len(run) < size:
                break
            for candidate in ("".join(w[0] for w in run), "".join(w[1] for w in run)):
                if candidate in pool and candidate not in terms:
                    terms.append(candidate)
    entities = [(e.text, e.label_) for e in doc.ents
                if e.label_ in LEGAL_ENTITY_LABELS
                or (e.label_ == "Public_Institution" and e.text.endswith(COURT_SUFFIX))]
    entities += [(c.surface, f"citation:{c.kind}") for c in extract(text)
                 if (c.surface, "Law") not in entities]
    return Eligibility(text, tuple(terms), tuple(entities))
