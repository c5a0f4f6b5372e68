"""Citations after generation: CitaLaw's attachment, and the in-force check of every cited clause.

Attachment: where the model left a sentence without a citation, a law clause among the references goes to the
uncited sentence most similar to it, and a precedent to each uncited sentence it matches best, up to 3. What is
attached is marked as such (`AnswerSentence.attached`), never mixed with what the model cited. Similarity is the
cosine of Sudachi token counts: deterministic, fast, and on the same tokens BM25 ranks with.

`attach_published` is CitaLaw's rule as published, by embedding similarity: each eligible sentence (one that uses a
term of the legal terminology pool or names a legal entity, by GiNZA's parse: `eligibility`) gets the best of the
three best-retrieved precedents, and each law article goes to its most similar eligible sentence. It needs an
embedder (`Embed`), so it is chosen with ``AskOptions.attachment``.

In-force check: a cited clause whose wording was not yet, or no longer, in force on the as-of date becomes a
caveat naming the clause and its period.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any

from lexgraph.answer.model import AnswerSentence
from lexgraph.answer.references import References
from lexgraph.index.tokenize import tokenize

MAX_PRECEDENT_SENTENCES = 3


def similarity(a: Counter[str], b: Counter[str]) -> float:
    if not a or not b:
        return 0.0
    dot = sum(count * b[token] for token, count in a.items())
    return dot / (math.sqrt(sum(c * c for c in a.values())) * math.sqrt(sum(c * c for c in b.values())))


def attach_citations(sentences: Sequence[AnswerSentence], references: References) -> list[AnswerSentence]:
    uncited = [i for i, s in enumerate(sentences) if not s.citations]
    if not uncited:
        return list(sentences)
    bags = {i: Counter(tokenize(sentences[i].text)) for i in uncited}
    added: dict[int, list[str]] = {i: [] for i in uncited}
    for kind, most in (("law", 1), ("precedent", MAX_PRECEDENT_SENTENCES)):
        for ref in references.of_kind(kind):
            bag = Counter(tokenize(f"{ref.title} {ref.text}"))
            scored = sorted(((similarity(bag, bags[i]), i) for i in uncited), key=lambda x: (-x[0], x[1]))
            for score, i in scored[:most]:
                if score > 0:
                    added[i].append(ref.id)
    return [AnswerSentence(s.text, s.citations, tuple(added.get(i, ()))) for i, s in enumerate(sentences)]


#: Passage embeddings of texts, one row per text (``Embedder.embed_passages``).
Embed = Callable[[list[str]], Any]
#: Which sentences need a legal basis, one flag per sentence (`eligibility.eligible`: CitaLaw's criteria on GiNZA's
#: parse); a sentence of courtesy or summary ("以上です。") takes none.
Eligible = Callable[[Sequence[str]], list[bool]]
PUBLISHED_PRECEDENTS = 3  # the best-retrieved precedents each sentence chooses among


def attach_published(sentences: Sequence[AnswerSentence], references: References, embed: Embed,
                     needs_basis: Eligible | None = None) -> list[AnswerSentence]:
    """CitaLaw's attachment: embedding cosine between the eligible sentences (`needs_basis`, by default CitaLaw's
    criteria on GiNZA's parse) and references; precedents are the first `PUBLISHED_PRECEDENTS` (the references are
    numbered in retrieval order). A reference a sentence already cites is not attached to it again."""
    if needs_basis is None:
        from lexgraph.answer.eligibility import eligible as ginza_eligible

        needs_basis = ginza_eligible
    flags = needs_basis([s.text for s in sentences]) if sentences else []
    eligible = [i for i, flag in enumerate(flags) if flag]
    laws = references.of_kind("law")
    precedents = references.of_kind("precedent")[:PUBLISHED_PRECEDENTS]
    added: dict[int, list[str]] = {i: [] for i in eligible}
    if eligible and (laws or precedents):
        import numpy as np

        refs = [*laws, *precedents]
        vectors = np.asarray(embed([sentences[i].text for i in eligible] + [f"{r.title} {r.text}" for r in refs]),
                             dtype=np.float64)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        similarity = vectors[len(eligible):] @ vectors[: len(eligible)].T  # reference × sentence
        for r, ref in enumerate(laws):
            added[eligible[int(np.argmax(similarity[r]))]].append(ref.id)
        if precedents:
            block = similarity[len(laws):]
            for column, i in enumerate(eligible):
                added[i].append(precedents[int(np.argmax(block[:, column]))].id)
    return [AnswerSentence(s.text, s.citations,
                           tuple(dict.fromkeys(c for c in added.get(i, ()) if c not in s.citations)))
            for i, s in enumerate(sentences)]


def unknown_caveats(references: References, as_of: date) -> list[str]:
    """One caveat for every clause the search left out because its wording on `as_of` is not known: the answer
    never rests, unsaid, on something else in its place."""
    return [f"{title} は {as_of.isoformat()} 時点の文言が不明なため参照していません（{reason}）。この条文に基づく"
            "回答はできません。" for title, reason in references.unknown]


def stale_caveats(references: References) -> list[str]:
    """One caveat for every law the search index has not seen change: the references may miss its new wording."""
    return [f"検索索引が古いため、次の変更は参照に反映されていません：{note}" for note in references.stale]


def in_force_caveats(cited: Sequence[str], references: References, as_of: date) -> list[str]:
    caveats = []
    for reference_id in cited:
        ref = references.by_id(reference_id)
        if ref is None or ref.kind != "law":
            continue
        if ref.unverified:  # past "known up to": the last known wording, not known in force then
            caveats.append(f"{ref.id}（{ref.title}）の文言は {as_of.isoformat()} に効力を有するとは確認できません"
                           f"（{ref.unverified}）。")
        elif ref.valid_from is not None and as_of < ref.valid_from:
            caveats.append(f"{ref.id}（{ref.title}）は {as_of.isoformat()} にはまだ施行されていません"
                           f"（施行 {ref.valid_from.isoformat()}）。")
        elif ref.valid_until is not None and as_of >= ref.valid_until:
            # The wording's end is where it was replaced, or where an amendment the store knows of but does not
            # hold may have changed it: either way it is not known in force then.
            caveats.append(f"{ref.id}（{ref.title}）のこの文言の効力が確認できるのは {ref.valid_until.isoformat()} "
                           f"より前までで、{as_of.isoformat()} に効力を有するとは確認できません。")
    return caveats
